/**
 * Index stat-cache forgery (see docs/tree-check.md): `git status` trusts an index entry whose cached stat data
 * (ctime, mtime, ino, size, …) matches the file, so a writer of `.git/index` who copies a rewritten file's
 * lstat into its entry (keeping the old blob id) makes the change invisible. The ctime git compares is the
 * one thing the forger cannot choose: the kernel sets it on every write, and git is run with
 * `core.trustctime=true`, so an entry git accepts as clean carries the file's real ctime. Every entry whose
 * cached ctime or mtime is at or after `since` (the packet's creation, less a margin) was therefore written or
 * refreshed after the baseline; those files alone are hashed as git would store them (`git hash-object`,
 * filters applied) and compared with the entry's blob. Cost: one `git ls-files -s --debug` (the whole index,
 * as `ls-files -v` already reads it) plus hashing the files changed since the baseline — not the repository.
 */

import { lstatSync } from "node:fs";
import { gitOk } from "./_git.js";
import { joinRaw } from "./_paths.js";

/** Timestamps on some file systems are coarse (FAT: 2 s); the margin also absorbs clock skew between calls. */
export const VERIFY_MARGIN_S = 5;

/** The listing `forgedCleanPaths` parses. */
export const INDEX_DEBUG_ARGS: readonly string[] = ["ls-files", "-s", "--debug", "-z"];

/** Paths hashed per `git hash-object` call (argument lists stay well under the OS limit). */
const HASH_BATCH = 256;

export interface IndexStatEntry {
  raw: Buffer;
  mode: string;
  blob: string;
  stage: string;
  ctimeS: number;
  mtimeS: number;
}

/**
 * The seconds of a debug line `  <label>: <seconds>:<nanoseconds>\n` starting at `from` and ending at `end`,
 * read from the bytes (no string per line: an index has as many entries as the repository has files).
 * Undefined when the line is not that.
 */
function debugSeconds(out: Buffer, from: number, end: number, label: string): number | undefined {
  let at = from;
  while (at < end && out[at] === 0x20) at++;
  for (let k = 0; k < label.length; k++, at++) if (out[at] !== label.charCodeAt(k)) return undefined;
  if (out[at] !== 0x3a || out[at + 1] !== 0x20) return undefined;
  at += 2;
  let n = 0;
  let digits = 0;
  for (; at < end && out[at]! >= 0x30 && out[at]! <= 0x39; at++, digits++) n = n * 10 + (out[at]! - 0x30);
  return digits > 0 && digits <= 15 && out[at] === 0x3a ? n : undefined;
}

/** Parse `git ls-files -s --debug -z`: `<mode> <blob> <stage>\t<path>\0` then five debug lines. Pure. */
export function parseIndexDebug(out: Buffer): IndexStatEntry[] {
  const entries: IndexStatEntry[] = [];
  let start = 0;
  while (start < out.length) {
    const nul = out.indexOf(0, start);
    if (nul < 0) throw new Error("git ls-files --debug output is truncated");
    const head = out.subarray(start, nul);
    const tab = head.indexOf(0x09);
    const meta = tab < 0 ? [] : head.subarray(0, tab).toString("latin1").split(" ");
    if (meta.length !== 3) throw new Error(`unexpected git ls-files record: ${head.toString("latin1")}`);
    // Five debug lines, each ending with a newline: ctime, mtime, dev/ino, uid/gid, size/flags.
    const ends: number[] = [];
    let at = nul + 1;
    for (let k = 0; k < 5; k++) {
      const nl = out.indexOf(0x0a, at);
      if (nl < 0) throw new Error("git ls-files --debug output is truncated");
      ends.push(nl);
      at = nl + 1;
    }
    const ctimeS = debugSeconds(out, nul + 1, ends[0]!, "ctime");
    const mtimeS = debugSeconds(out, ends[0]! + 1, ends[1]!, "mtime");
    if (ctimeS === undefined || mtimeS === undefined)
      throw new Error(
        `unexpected git ls-files --debug record: ${out.subarray(nul + 1, at).toString("latin1")}`,
      );
    entries.push({
      raw: head.subarray(tab + 1),
      mode: meta[0]!,
      blob: meta[1]!,
      stage: meta[2]!,
      ctimeS,
      mtimeS,
    });
    start = at;
  }
  return entries;
}

/**
 * The tracked regular files git status calls clean whose content differs from their index blob, among the
 * entries stamped at or after `sinceS` (seconds since the epoch). `listed` holds the paths (hex) already
 * candidates. A file that cannot be hashed is returned too (fail closed: the manifest then records it).
 */
export async function forgedCleanPaths(
  root: string,
  sinceS: number,
  listed: ReadonlySet<string>,
  /** The `git ls-files` listing (`INDEX_DEBUG_ARGS`) when the caller started it beside its other reads. */
  listing?: Promise<Buffer>,
): Promise<Buffer[]> {
  const entries = parseIndexDebug(await (listing ?? gitOk(root, INDEX_DEBUG_ARGS)));
  const floor = sinceS - VERIFY_MARGIN_S;
  const suspects = entries.filter(
    (e) =>
      e.stage === "0" &&
      (e.mode === "100644" || e.mode === "100755") &&
      (e.ctimeS >= floor || e.mtimeS >= floor) &&
      !listed.has(e.raw.toString("hex")),
  );
  const out: Buffer[] = [];
  const hashable: IndexStatEntry[] = [];
  for (const e of suspects) {
    let ok = false;
    try {
      ok = lstatSync(joinRaw(root, e.raw)).isFile();
    } catch {
      ok = false;
    }
    // Only a regular file is hashed; anything else where a clean file should be is recorded as it is.
    if (ok && e.raw.toString("utf8").includes("\ufffd") === false) hashable.push(e);
    else out.push(e.raw);
  }
  for (let i = 0; i < hashable.length; i += HASH_BATCH) {
    const batch = hashable.slice(i, i + HASH_BATCH);
    const r = await gitOk(root, ["hash-object", "--", ...batch.map((e) => e.raw.toString("utf8"))]);
    const ids = r.toString("latin1").split("\n").filter(Boolean);
    if (ids.length !== batch.length) throw new Error("git hash-object returned a short list");
    batch.forEach((e, k) => {
      if (ids[k] !== e.blob) out.push(e.raw);
    });
  }
  return out;
}
