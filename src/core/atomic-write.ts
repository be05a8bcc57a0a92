import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { open, rename } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * A file written beside its destination and fsynced, not yet visible: `commit()` renames it over the
 * destination (atomic on one file system) and fsyncs the folder; `discard()` removes it. Two-phase writers
 * (the installer's transaction) stage every file first, so a full disk or a read-only folder fails before
 * anything a reader can see has changed.
 */
export interface StagedFile {
  /** The destination. */
  path: string;
  /** The temp file beside it. */
  tmp: string;
  commit(): void;
  discard(): void;
}

/** The temp name `stageFile` uses beside `path`. Callers that journal their temp files choose it first. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${randomBytes(6).toString("hex")}.devrites-tmp`);
}

export interface StageOptions {
  /** The temp file to use (default: a fresh random name beside `path`). */
  tmp?: string;
  /** Set `mode` exactly, ignoring the umask (to restore a file as it was). Default: the umask applies. */
  exactMode?: boolean;
}

/**
 * Write `data` to a temp file beside `path`, fsync it, and return it staged. The destination's folder must
 * exist. Throws on failure, leaving no temp file behind.
 */
export function stageFile(
  path: string,
  data: string | Uint8Array,
  mode = 0o644,
  options: StageOptions = {},
): StagedFile {
  const tmp = options.tmp ?? tempPathFor(path);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx", mode);
    if (options.exactMode) fchmodSync(fd, mode);
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  return {
    path,
    tmp,
    commit() {
      renameSync(tmp, path);
      fsyncDir(dirname(path));
    },
    discard() {
      rmSync(tmp, { force: true });
    },
  };
}

/**
 * Write a file so that readers see either the old content or the new content, never a torn file:
 * write a temp file beside the target, fsync it, rename it over the target, fsync the directory.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  const staged = stageFile(path, data, mode);
  try {
    staged.commit();
  } catch (e) {
    staged.discard();
    throw e;
  }
}

export function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  }
}

export interface FileToWrite {
  path: string;
  data: string | Uint8Array;
  mode?: number;
}

/**
 * `writeFileAtomic` for many files at once: each file is written to a temp file beside it, fsynced and renamed
 * over its target, up to `concurrency` at a time; then every parent folder is fsynced once. Same guarantee per
 * file (old or new content, never torn), a fraction of the time of one-by-one writes. On the first failure the
 * writes in flight finish, no new one starts, and the error is thrown with `path` set to the file that failed.
 */
export async function writeFilesAtomic(files: readonly FileToWrite[], concurrency = 16): Promise<void> {
  const dirs = new Set(files.map((f) => dirname(f.path)));
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < files.length) {
      const f = files[next++]!;
      try {
        await writeOne(f);
      } catch (e) {
        failure ??= Object.assign(e as Error, { path: f.path });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, files.length)) }, worker));
  if (failure !== undefined) throw failure;
  for (const dir of dirs) fsyncDir(dir);
}

async function writeOne(f: FileToWrite): Promise<void> {
  const tmp = join(dirname(f.path), `.${randomBytes(6).toString("hex")}.devrites-tmp`);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, "wx", f.mode ?? 0o644);
    await handle.writeFile(typeof f.data === "string" ? Buffer.from(f.data, "utf8") : f.data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, f.path);
  } catch (e) {
    await handle?.close().catch(() => {});
    rmSync(tmp, { force: true });
    throw e;
  }
}
