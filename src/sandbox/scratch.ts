/**
 * The private scratch folder a Landlock-sandboxed call may write (its `TMPDIR`): `<tmp>/devrites-scratch-<uid>/
 * <random>`, made by the hook before the call (two `mkdir`s, an `lstat`, a `realpath`; no process). The parent
 * is used only when it is a real folder (not a symlink) owned by this user that no one else may enter; the
 * leaf's folder is made `0700` by `mkdtemp`. Nothing is removed on the hook's path (the rewritten script may
 * hold no `rm`, see ./plan.ts): the folders are left to the system's temporary-file cleaning
 * (see `docs/sandbox-landlock.md`).
 */

import { lstatSync, mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The scratch folder's parent for `uid` under `base`. */
export function scratchParent(base: string, uid: number): string {
  return join(base, `devrites-scratch-${uid}`);
}

/** A fresh scratch folder (a realpath), or undefined when no safe one can be made (the caller fails closed). */
export function makeScratch(
  base: string = tmpdir(),
  uid: number = process.getuid?.() ?? 0,
): string | undefined {
  try {
    const parent = scratchParent(realpathSync(base), uid);
    try {
      mkdirSync(parent, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
    }
    const st = lstatSync(parent);
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return undefined;
    return realpathSync(mkdtempSync(join(parent, "c-")));
  } catch {
    return undefined;
  }
}
