import { lstatSync, readlinkSync, type Stats } from "node:fs";
import { hashFileInfo, sha256Hex } from "../core/hash.js";
import { revParseHead } from "./_git.js";
import { joinRaw, pathFromBytes } from "./_paths.js";
import type { ManifestEntry } from "./types.js";

/** What one path is, read without following a symlink at the final component. */
export type Described =
  | { kind: "entry"; entry: ManifestEntry; hashedBytes: number; hashed: boolean }
  | { kind: "directory"; hasGit: boolean }
  | { kind: "special" };

const RETRIES = 3;

/**
 * A dirty file's entry known without reading it (its baseline's, when it is settled: `_settle.ts`), from its
 * repository path and lstat; undefined to hash it.
 */
export type SettledEntry = (path: string, st: Stats) => ManifestEntry | undefined;

/**
 * Describe `rel` under `root`. Files are opened with O_NOFOLLOW|O_NONBLOCK and checked with fstat, so a path
 * that turns into a symlink or FIFO between `lstat` and `open` is looked at again instead of followed.
 * The file-system calls are synchronous (see `SYNC_READ_MAX`): a dirty manifest is mostly small files, and
 * one pool round trip per call cost several times the hashing itself.
 */
export async function describeRaw(root: string, rel: Buffer, settled?: SettledEntry): Promise<Described> {
  const abs = joinRaw(root, rel);
  const path = pathFromBytes(rel);
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch (e) {
      if (isGone(e)) return missing(path);
      throw e;
    }
    if (st.isSymbolicLink()) {
      try {
        const text = readlinkSync(abs, { encoding: "buffer" });
        return {
          kind: "entry",
          entry: { path, type: "symlink", exec: false, sha256: sha256Hex(text) },
          hashedBytes: text.length,
          hashed: true,
        };
      } catch (e) {
        if (isGone(e) || code(e) === "EINVAL") continue; // replaced meanwhile
        throw e;
      }
    }
    if (st.isDirectory())
      return {
        kind: "directory",
        hasGit: exists(joinRaw(root, Buffer.concat([rel, Buffer.from("/.git")]))),
      };
    if (!st.isFile()) return { kind: "special" };
    const known = settled?.(path, st);
    if (known) return { kind: "entry", entry: known, hashedBytes: 0, hashed: false };
    try {
      const info = await hashFileInfo(abs, { noFollow: true });
      if (!info.isFile) continue;
      return {
        kind: "entry",
        entry: { path, type: "file", exec: (info.mode & 0o100) !== 0, sha256: info.sha256 },
        hashedBytes: info.size,
        hashed: true,
      };
    } catch (e) {
      if (isGone(e) || code(e) === "ELOOP") continue;
      throw e;
    }
  }
  throw new Error(`${path} kept changing while devrites hashed it; retry when the tree is quiet`);
}

/**
 * A nested repository's state: the commit it has checked out, or null when it has none (uninitialised
 * submodule, unborn repository).
 */
export async function submoduleEntry(root: string, rel: Buffer, hasGit: boolean): Promise<ManifestEntry> {
  const path = pathFromBytes(rel);
  // Without its own .git, `git -C` would climb to the parent repository and report the parent's HEAD.
  const head = hasGit ? await revParseHead(joinRaw(root, rel).toString("utf8")) : null;
  return { path, type: "submodule", exec: false, sha256: head };
}

function missing(path: string): Described {
  return {
    kind: "entry",
    entry: { path, type: "missing", exec: false, sha256: null },
    hashedBytes: 0,
    hashed: false,
  };
}

function exists(abs: Buffer): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch (e) {
    if (isGone(e)) return false;
    throw e;
  }
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

function isGone(e: unknown): boolean {
  const c = code(e);
  return c === "ENOENT" || c === "ENOTDIR";
}
