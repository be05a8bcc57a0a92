/**
 * The private scratch folder a Landlock-sandboxed call may write (its `TMPDIR`): `<tmp>/devrites-scratch-<uid>/
 * a-<agent id>` (one per leaf: every call of the same agent reuses it, so a leaf leaves one folder, not one per
 * call), or `<random>` when the host sent no usable agent id; made by the hook before the call (an `lstat` of each,
 * a `mkdir` only when one is missing, a `realpath` of the base; no process). The parent
 * is used only when it is a real folder (not a symlink) owned by this user that no one else may enter; the
 * leaf's folder is made `0700` by `mkdtemp`. Nothing is removed on the hook's path (the rewritten script may
 * hold no `rm`, see ./plan.ts): the folders are left to the system's temporary-file cleaning
 * (see `docs/sandbox-landlock.md`).
 */

import { lstatSync, mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";

/**
 * `os.tmpdir()` as Node computes it on Linux and macOS, without loading `node:os`: a hook call needs nothing
 * else from that module, and loading it is a measurable share of the call (`docs/hooks.md`, Speed).
 */
export function posixTmpdir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const t = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return t.length > 1 && t.endsWith("/") ? t.slice(0, -1) : t;
}

/** The scratch folder's parent for `uid` under `base`. */
export function scratchParent(base: string, uid: number): string {
  return join(base, `devrites-scratch-${uid}`);
}

/** Agent ids that name a folder as they are (hosts send UUID-like ids); anything else gets a random folder. */
const AGENT_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The scratch folder for agent `key` (a realpath), or a fresh one without a usable key; undefined when no safe
 * one can be made (the caller fails closed). A reused folder must be a real folder of this user's, `0700`.
 */
export function makeScratch(
  base: string = posixTmpdir(),
  uid: number = process.getuid?.() ?? 0,
  key?: string,
): string | undefined {
  try {
    const parent = scratchParent(realpathSync.native(base), uid);
    if (!privateDir(parent, uid)) return undefined;
    if (key === undefined || !AGENT_KEY.test(key))
      return realpathSync.native(mkdtempSync(join(parent, "c-")));
    // a real folder (privateDir's lstat) in a real parent: its path is already its realpath
    const dir = join(parent, `a-${key}`);
    return privateDir(dir, uid) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Make `dir` (`0700`) unless it exists; true when it is then a real folder of `uid`'s that no one else may enter.
 * The folder exists on every call but a leaf's first: `lstat` first, so the common case raises no `EEXIST`
 * (a hook's first exception costs more than the calls around it).
 */
function privateDir(dir: string, uid: number): boolean {
  let st = lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") return false;
    }
    st = lstatSync(dir);
  }
  return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0;
}
