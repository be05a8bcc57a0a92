/**
 * The one place that turns a target-relative output path into a file-system path. Every path devrites plans,
 * writes, compares or deletes (including paths read back from a manifest on disk) goes through `outputPath`;
 * nothing outside the target, inside `.git`, or inside the `.devrites/` workspace (except `.devrites/hooks/`,
 * the guard's own code) is ever returned.
 */

import { lstat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { checkRepoPath } from "../scope/index.js";

/** The only folder under `.devrites/` that generated files may go to. */
export const HOOKS_DIR = ".devrites/hooks";

/**
 * The file name ending of a hook bundle (`hooks/<entry>.cjs`, `.devrites/hooks/<entry>.cjs`): CommonJS, which
 * the launcher `require`s into its own process (see `launcher.ts`).
 */
export const HOOK_BUNDLE_EXT = ".cjs";

export type OutputPathCheck = { ok: true; abs: string } | { ok: false; diagnostic: Diagnostic };

/**
 * Lexical rules for a planned path: the scope module's canonical-path rules (no absolute, drive, UNC,
 * backslash, `.`/`..`/empty segments, `.git` or `.devrites` in any spelling, globs, control characters),
 * except that a file directly in `.devrites/hooks/` is allowed. Null when `rel` passes.
 */
export function checkOutputPath(rel: string): Diagnostic | null {
  if (typeof rel !== "string") {
    return error("generate.path-unsafe", `output path refused: expected a string, got ${typeof rel}`, {
      hint: "this is a bug in an adapter",
    });
  }
  // `.devrites/hooks/<file>` is checked as `hooks/<file>`; anything deeper keeps its `.devrites` segment and fails.
  const inHooks = rel.startsWith(`${HOOKS_DIR}/`) && !rel.slice(HOOKS_DIR.length + 1).includes("/");
  const checked = checkRepoPath(inHooks ? rel.slice(".devrites/".length) : rel);
  if (checked.ok) return null;
  const v = checked.violation;
  return error("generate.path-unsafe", `output path refused (${v.rule}): ${v.message}`, {
    path: rel,
    hint: v.hint,
  });
}

/**
 * The absolute path of `rel` inside `target`, or the rule that refused it. Refuses every lexically unsafe path
 * (`checkOutputPath`) and, as a second line of defence, any path whose resolved form is not strictly inside the
 * resolved target.
 */
export function outputPath(target: string, rel: string): OutputPathCheck {
  const lexical = checkOutputPath(rel);
  if (lexical) return { ok: false, diagnostic: lexical };
  const root = resolve(target);
  const abs = resolve(root, rel);
  const back = relative(root, abs);
  if (back === "" || back.startsWith(`..${sep}`) || back === ".." || isAbsolute(back)) {
    return {
      ok: false,
      diagnostic: error("generate.path-outside", "output path resolves outside the target", {
        path: rel,
        hint: "generated files are written only inside the target directory",
      }),
    };
  }
  return { ok: true, abs };
}

/**
 * On-disk rule, checked right before a path is read or written: no folder between the target and the file may
 * be a symlink (a symlinked `.claude` would carry writes out of the target), and the path itself must be a
 * regular file or absent. Null when safe.
 */
export async function checkOutputOnDisk(target: string, rel: string): Promise<Diagnostic | null> {
  const parts = rel.split("/");
  let cur = resolve(target);
  for (const [i, part] of parts.entries()) {
    cur = join(cur, part);
    let st: Awaited<ReturnType<typeof lstat>>;
    try {
      st = await lstat(cur);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      return error("generate.path-unreadable", `cannot inspect ${parts.slice(0, i + 1).join("/")}`, {
        path: rel,
        hint: (e as Error).message,
      });
    }
    const last = i === parts.length - 1;
    if (st.isSymbolicLink()) {
      return error("generate.path-symlink", `${parts.slice(0, i + 1).join("/")} is a symlink`, {
        path: rel,
        hint: "generated files are never written through symlinks; replace the link with a real folder or file",
      });
    }
    if (!last && !st.isDirectory()) {
      return error("generate.path-not-dir", `${parts.slice(0, i + 1).join("/")} is not a folder`, {
        path: rel,
        hint: "move the file away so the generated folder can be created",
      });
    }
    if (last && !st.isFile()) {
      return error("generate.path-not-file", `${rel} exists and is not a regular file`, {
        path: rel,
        hint: "move it away so the generated file can be written",
      });
    }
  }
  return null;
}

/**
 * The line that ends a bundle's code when lazily loaded parts follow it (as comments, see
 * `scripts/build-hooks.ts`). The launcher compiles only the text before it: the rest is comments, and compiling
 * and comparing them for the code cache cost time on every call. The build refuses code that contains it.
 */
export const LAZY_PARTS_LINE = "//devrites-lazy-parts";
