/**
 * The index as one listing, and the stat-cache forgery check (see docs/tree-check.md).
 *
 * `git ls-files -z -v -s --debug` gives every index entry once: its tag (`H`, `S`, a lower-case letter for
 * assume-unchanged, …), mode, blob, stage, path and cached stat data. The snapshot reads it once for the
 * flagged entries (`.git/index-flags`), the planted-repository check (`hiddenRepoEntries`) and, at
 * `result check`, the forgery check.
 *
 * Forgery: `git status` trusts an index entry whose cached stat data (ctime, mtime, ino, size, …) matches the
 * file, so a writer of `.git/index` who copies a rewritten file's lstat into its entry (keeping the old blob
 * id) makes the change invisible. The ctime git compares is the one thing the forger cannot choose: the
 * kernel sets it on every write, and git is run with `core.trustctime=true`, so an entry git accepts as clean
 * carries the file's real ctime (to the second). An entry whose cached ctime and every folder above it are
 * settled (`_settle.ts`) names a file nobody wrote or moved since the baseline; every other clean regular
 * file is hashed as git would store it (`git hash-object`, filters applied) and compared with its blob.
 */

import { lstatSync } from "node:fs";
import { gitOk } from "./_git.js";
import { joinRaw, pathFromBytes } from "./_paths.js";
import { type SettledTree, settledSeconds } from "./_settle.js";

/**
 * Without a mark (a run made before marks existed), the cut is the packet's creation less this: timestamps on
 * some file systems are coarse (FAT: 2 s), and the margin also absorbs clock skew between calls.
 */
export const VERIFY_MARGIN_S = 5;

/** The listing `parseIndexListing` parses. */
export const INDEX_LISTING_ARGS: readonly string[] = ["ls-files", "-z", "-v", "-s", "--debug"];

/** Paths hashed per `git hash-object` call (argument lists stay well under the OS limit). */
const HASH_BATCH = 256;

const REGULAR = 1;
const STAGE0 = 2;

/**
 * The parsed listing, as offsets into git's output (an index has as many entries as the repository has files:
 * no object or string per entry until one is asked for).
 */
export interface IndexListing {
  out: Buffer;
  count: number;
  /** Offset of each record's tag. */
  tagAt: Int32Array;
  pathStart: Int32Array;
  pathEnd: Int32Array;
  /** The cached ctime's seconds. */
  ctimeS: Float64Array;
  /** `REGULAR` (mode 100644 or 100755) and `STAGE0` bits. */
  kind: Uint8Array;
}

/**
 * The seconds of a debug line `  <label>: <seconds>:<nanoseconds>\n` starting at `from` and ending at `end`,
 * read from the bytes. Undefined when the line is not that.
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

function startsWith(out: Buffer, at: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (out[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * Parse `git ls-files -z -v -s --debug`: `<tag> <mode> <blob> <stage>\t<path>\0` then five debug lines (ctime,
 * mtime, dev/ino, uid/gid, size/flags). Pure. Anything else throws: a format we do not understand must not
 * turn into "nothing to verify".
 */
export function parseIndexListing(out: Buffer): IndexListing {
  let cap = 1024;
  let l: IndexListing = alloc(out, cap);
  let start = 0;
  let i = 0;
  while (start < out.length) {
    const nul = out.indexOf(0, start);
    if (nul < 0) throw new Error("git ls-files --debug output is truncated");
    const tab = out.indexOf(0x09, start);
    if (tab < 0 || tab > nul || out[start + 1] !== 0x20) throw badRecord(out, start, nul);
    // `<mode> <blob> <stage>` between the tag's space and the tab: exactly two spaces
    const s1 = out.indexOf(0x20, start + 2);
    const s2 = s1 < 0 ? -1 : out.indexOf(0x20, s1 + 1);
    const blobLength = s2 - s1 - 1;
    if (s1 < 0 || s2 < 0 || s2 > tab || s1 - (start + 2) !== 6 || tab - s2 !== 2)
      throw badRecord(out, start, nul);
    if (blobLength !== 40 && blobLength !== 64) throw badRecord(out, start, nul);
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
      throw new Error(`unexpected git ls-files --debug record: ${out.toString("latin1", nul + 1, at)}`);
    if (i === cap) {
      cap *= 4;
      l = grow(l, cap);
    }
    l.tagAt[i] = start;
    l.pathStart[i] = tab + 1;
    l.pathEnd[i] = nul;
    l.ctimeS[i] = ctimeS;
    l.kind[i] =
      (startsWith(out, start + 2, "100644") || startsWith(out, start + 2, "100755") ? REGULAR : 0) |
      (out[s2 + 1] === 0x30 ? STAGE0 : 0);
    i++;
    start = at;
  }
  l.count = i;
  return l;
}

function badRecord(out: Buffer, start: number, end: number): Error {
  return new Error(`unexpected git ls-files record: ${JSON.stringify(out.toString("latin1", start, end))}`);
}

function alloc(out: Buffer, cap: number): IndexListing {
  return {
    out,
    count: 0,
    tagAt: new Int32Array(cap),
    pathStart: new Int32Array(cap),
    pathEnd: new Int32Array(cap),
    ctimeS: new Float64Array(cap),
    kind: new Uint8Array(cap),
  };
}

function grow(l: IndexListing, cap: number): IndexListing {
  const n = alloc(l.out, cap);
  n.tagAt.set(l.tagAt);
  n.pathStart.set(l.pathStart);
  n.pathEnd.set(l.pathEnd);
  n.ctimeS.set(l.ctimeS);
  n.kind.set(l.kind);
  return n;
}

/** Entry `i`'s path bytes. */
export function entryRaw(l: IndexListing, i: number): Buffer {
  return l.out.subarray(l.pathStart[i]!, l.pathEnd[i]!);
}

/** Entry `i`'s tag (`H`, `S`, `h`, …). */
export function entryTag(l: IndexListing, i: number): number {
  return l.out[l.tagAt[i]!]!;
}

function entryBlob(l: IndexListing, i: number): string {
  const from = l.tagAt[i]! + 9; // tag, space, six-digit mode, space
  return l.out.toString("latin1", from, l.out.indexOf(0x20, from));
}

/**
 * The entries git status cannot see changes to: assume-unchanged (lower-case tag) and skip-worktree (`S`,
 * `s`). Pure.
 */
export function hiddenIndexEntries(l: IndexListing): { raw: Buffer; skipWorktree: boolean }[] {
  const hidden: { raw: Buffer; skipWorktree: boolean }[] = [];
  for (let i = 0; i < l.count; i++) {
    const tag = entryTag(l, i);
    if (tag === 0x48 /* H */) continue;
    const assumeUnchanged = tag >= 0x61 && tag <= 0x7a;
    const skipWorktree = tag === 0x53 || tag === 0x73;
    if (assumeUnchanged || skipWorktree) hidden.push({ raw: entryRaw(l, i), skipWorktree });
  }
  return hidden;
}

/** `<tag> <path>\0` for every entry tagged other than `H` (what `.git/index-flags` digests). Pure. */
export function flaggedRecords(l: IndexListing): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < l.count; i++) {
    const tag = entryTag(l, i);
    if (tag === 0x48) continue;
    parts.push(Buffer.from([tag, 0x20]), entryRaw(l, i), Buffer.from([0]));
  }
  return Buffer.concat(parts);
}

/**
 * Every folder that holds an index entry (the top level excepted), once, in index order. Consecutive entries
 * mostly share a folder, so a folder's name is made once per run of entries in it. Pure.
 */
export function indexFolders(l: IndexListing): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  let prevStart = -1;
  let prevEnd = -1;
  for (let i = 0; i < l.count; i++) {
    const s = l.pathStart[i]!;
    const slash = l.out.lastIndexOf(0x2f, l.pathEnd[i]! - 1);
    if (slash < s) continue;
    if (
      prevStart >= 0 &&
      slash - s === prevEnd - prevStart &&
      l.out.compare(l.out, s, slash, prevStart, prevEnd) === 0
    )
      continue;
    prevStart = s;
    prevEnd = slash;
    const dir = l.out.toString("utf8", s, slash);
    for (let d = dir; d !== "" && !seen.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) {
      seen.add(d);
      out.push(d);
    }
  }
  return out;
}

/**
 * The tracked regular files git status calls clean whose content differs from their index blob, among the
 * stage-0 entries that are not settled under `tree` (their cached ctime, or a folder above them, changed
 * since its cut). `listed` holds the paths (hex) already candidates. A file that cannot be hashed is returned
 * too (fail closed: the manifest then records it).
 */
export async function forgedCleanPaths(
  root: string,
  l: IndexListing,
  tree: SettledTree,
  listed: ReadonlySet<string>,
): Promise<Buffer[]> {
  const suspects: number[] = [];
  let dirStart = -1;
  let dirEnd = -1;
  let dirSettled = false;
  for (let i = 0; i < l.count; i++) {
    if ((l.kind[i]! & (REGULAR | STAGE0)) !== (REGULAR | STAGE0)) continue;
    const s = l.pathStart[i]!;
    const slash = Math.max(s, l.out.lastIndexOf(0x2f, l.pathEnd[i]! - 1));
    const sameDir =
      dirStart >= 0 &&
      slash - s === dirEnd - dirStart &&
      l.out.compare(l.out, s, slash, dirStart, dirEnd) === 0;
    if (!sameDir) {
      dirStart = s;
      dirEnd = slash;
      dirSettled = tree.dir(pathFromBytes(l.out.subarray(s, slash)));
    }
    if (dirSettled && settledSeconds(l.ctimeS[i]!, tree.cutMs)) continue;
    if (listed.has(entryRaw(l, i).toString("hex"))) continue;
    suspects.push(i);
  }
  const out: Buffer[] = [];
  const hashable: number[] = [];
  for (const i of suspects) {
    const raw = entryRaw(l, i);
    let ok = false;
    try {
      ok = lstatSync(joinRaw(root, raw)).isFile();
    } catch {
      ok = false;
    }
    // Only a regular file is hashed; anything else where a clean file should be is recorded as it is.
    if (ok && raw.toString("utf8").includes("\ufffd") === false) hashable.push(i);
    else out.push(raw);
  }
  const compare = (batch: number[], r: Buffer) => {
    const ids = r.toString("latin1").split("\n").filter(Boolean);
    if (ids.length !== batch.length) throw new Error("git hash-object returned a short list");
    batch.forEach((i, n) => {
      if (ids[n] !== entryBlob(l, i)) out.push(entryRaw(l, i));
    });
  };
  // One process reads the paths from its input, one per line. git unquotes a line that starts with `"` and
  // drops a carriage return before the line feed, so such paths, and any with a line break, go by argument.
  const byArgument = (i: number) => {
    const raw = entryRaw(l, i);
    return raw[0] === 0x22 || raw.includes(0x0a) || raw.includes(0x0d);
  };
  const lined = hashable.filter((i) => !byArgument(i));
  if (lined.length > 0)
    compare(
      lined,
      await gitOk(
        root,
        ["hash-object", "--stdin-paths"],
        Buffer.concat(lined.flatMap((i) => [entryRaw(l, i), Buffer.from("\n")])),
      ),
    );
  const odd = hashable.filter(byArgument);
  for (let k = 0; k < odd.length; k += HASH_BATCH) {
    const batch = odd.slice(k, k + HASH_BATCH);
    compare(
      batch,
      await gitOk(root, ["hash-object", "--", ...batch.map((i) => entryRaw(l, i).toString("utf8"))]),
    );
  }
  return out;
}
