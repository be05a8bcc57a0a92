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

/** Distinct union of two directory sets. */
export function union(a: readonly Cwd[], b: readonly Cwd[]): Cwd[] {
  const out: Cwd[] = [];
  for (const c of [...a, ...b]) if (!out.includes(c)) out.push(c);
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
