/** Pure path arithmetic for the directories a command may run in (no file-system access). */

import { posix } from "node:path";
import type { Cwd } from "./effects.js";
import type { Word } from "./parse.js";
import { literal } from "./words.js";

/** The directories after changing into `dir` from each of `cwds`; null where the result is unknown. */
export function enter(cwds: readonly Cwd[], dir: Word | undefined): Cwd[] {
  const d = literal(dir);
  // `..` after a symlinked directory is not where it reads; the guard does not follow it.
  if (d === undefined || d === "" || d === "-" || d.split("/").includes("..")) return [null];
  return cwds.map((c) => {
    if (d.startsWith("/")) return posix.normalize(d);
    return c === null ? null : posix.resolve(c, d);
  });
}

/**
 * Most directories a command is followed in. Every `cd` may fail, so `cd a; cd a; …` leaves the shell in one of
 * n+1 directories; past this many the set collapses to "unknown" (relative targets then count as unknown
 * writes, which fails closed), so the work per simple command stays bounded and the walk stays linear.
 */
export const MAX_CWDS = 16;

/** Distinct union of two directory sets, collapsed to unknown past {@link MAX_CWDS}. Linear in its inputs. */
export function union(a: readonly Cwd[], b: readonly Cwd[]): Cwd[] {
  const seen = new Set<Cwd>();
  const out: Cwd[] = [];
  for (const list of [a, b]) {
    for (const c of list) {
      if (seen.has(c)) continue;
      if (out.length >= MAX_CWDS) return [null];
      seen.add(c);
      out.push(c);
    }
  }
  return out;
}

/** `dir/basename(src)` for copies into a directory; undefined when either part is unknown. */
export function intoDir(dir: Word, src: Word): Word | undefined {
  const d = literal(dir);
  const s = literal(src);
  if (d === undefined || s === undefined) return undefined;
  const base = posix.basename(s);
  if (base === "" || base === "." || base === "..") return undefined;
  return { text: posix.join(d, base), dynamic: false, split: false, glob: false };
}
