import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { posix } from "node:path";
import type { ScopeRule } from "./types.js";

/** Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS). */
const MAX_HOPS = 40;

export type TargetKind = "file" | "dir" | "other" | "missing";

export type Walk =
  | { ok: true; real: string; kind: TargetKind; followed: boolean }
  | { ok: false; rule: ScopeRule; message: string };

/**
 * Resolve `segments` from the real directory `start` the way the kernel would: each existing component is
 * `lstat`ed, symlinks are replaced by their link text (chained, absolute or relative to the link's directory),
 * `..` goes to the parent of the real path reached so far. Once a component is missing the rest is applied
 * lexically (a file or directories about to be created) until `..` climbs back to an existing directory;
 * dangling links are therefore judged by their text.
 * Never throws.
 */
export function walk(start: string, segments: readonly string[]): Walk {
  let cur = start;
  const queue = [...segments];
  let followed = false;
  let hops = 0;
  /** The real, existing directory under which the first missing component was found. */
  let missingBase: string | null = null;
  let kind: TargetKind = "dir";
  while (queue.length > 0) {
    const seg = queue.shift()!;
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      cur = posix.dirname(cur);
      // Climbing back out of the missing part lands on a real directory again: resume looking at the disk,
      // or `new/../link/x` would skip the link (`mkdir -p` creates `new` and then follows `link`).
      if (missingBase === null || cur === missingBase) {
        missingBase = null;
        kind = "dir";
      }
      continue;
    }
    const next = cur === "/" ? `/${seg}` : `${cur}/${seg}`;
    if (missingBase !== null) {
      cur = next;
      continue;
    }
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(next);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        missingBase = cur;
        kind = "missing";
        cur = next;
        continue;
      }
      return {
        ok: false,
        rule: "scope.unresolvable",
        message: `cannot inspect ${next}: ${code ?? String(e)}`,
      };
    }
    if (st.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_HOPS)
        return {
          ok: false,
          rule: "scope.unresolvable",
          message: `more than ${MAX_HOPS} symlinks (a loop?) at ${next}`,
        };
      let target: string;
      try {
        target = readlinkSync(next);
      } catch (e) {
        return {
          ok: false,
          rule: "scope.unresolvable",
          message: `cannot read the link ${next}: ${String(e)}`,
        };
      }
      if (target === "")
        return { ok: false, rule: "scope.unresolvable", message: `the link ${next} is empty` };
      followed = true;
      if (target.startsWith("/")) cur = "/";
      queue.unshift(...target.split("/"));
      continue;
    }
    const rest = queue.some((s) => s !== "");
    if (rest && !st.isDirectory())
      return {
        ok: false,
        rule: "scope.not-a-file",
        message: `${next} is not a directory but the path continues below it`,
      };
    kind = st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
    cur = next;
  }
  return { ok: true, real: cur, kind, followed };
}

/** realpath of the root, or null when it cannot be resolved. */
export function realRoot(root: string): string | null {
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}
