import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, read, readSync } from "node:fs";

/** Lowercase hex SHA-256 of a string (UTF-8) or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export interface HashFileOptions {
  /**
   * Refuse to follow a symlink at the final component (the open fails with `ELOOP`), and never block on a
   * FIFO. Used where the caller has already decided the path is a regular file and must not be redirected.
   */
  noFollow?: boolean;
}

/** SHA-256 of a file's bytes, read in chunks. Rejects when the path cannot be opened or is not a regular file. */
export async function sha256File(absPath: string | Buffer, options: HashFileOptions = {}): Promise<string> {
  const info = await hashFileInfo(absPath, options);
  if (!info.isFile)
    throw Object.assign(new Error(`not a regular file: ${String(absPath)}`), { code: "ENOTFILE" });
  return info.sha256;
}

/**
 * Files up to this size are read with synchronous calls into one reused buffer: for the many small files of a
 * dirty manifest, a round trip through the libuv pool per open/fstat/read/close costs far more than the
 * hashing. Bigger files stream through the pool in 64 KiB reads, so a large file does not hold the event loop.
 */
export const SYNC_READ_MAX = 1024 * 1024;
const CHUNK = 64 * 1024;
/** Shared by synchronous reads only (nothing else can run while one is in progress). */
const syncBuffer = Buffer.allocUnsafe(CHUNK);

/**
 * SHA-256 plus what `fstat` said about the opened file, so a caller can check it hashed the kind of file it
 * meant to (no check-then-open race): the digest is always of the file descriptor that `fstat` described.
 */
export async function hashFileInfo(
  absPath: string | Buffer,
  options: HashFileOptions = {},
): Promise<{ sha256: string; size: number; mode: number; isFile: boolean }> {
  const flags = options.noFollow
    ? constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)
    : constants.O_RDONLY;
  const fd = openSync(absPath, flags);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { sha256: "", size: 0, mode: st.mode, isFile: false };
    const hash = createHash("sha256");
    // Synchronous reads never yield between them, so they can share one buffer; pool reads get their own.
    const sync = st.size <= SYNC_READ_MAX;
    const buf = sync ? syncBuffer : Buffer.allocUnsafe(CHUNK);
    let size = 0;
    for (;;) {
      const n = sync ? readSync(fd, buf, 0, CHUNK, null) : await readAsync(fd, buf);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      size += n;
    }
    return { sha256: hash.digest("hex"), size, mode: st.mode, isFile: true };
  } finally {
    closeSync(fd);
  }
}

function readAsync(fd: number, buf: Buffer): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buf, 0, buf.length, null, (e, n) => (e ? reject(e) : resolve(n))),
  );
}

const encoder = new TextEncoder();

/**
 * Unambiguous framing: every field becomes an 8-byte big-endian byte length followed by its bytes (strings as
 * UTF-8). Two different field lists of the same arity never produce the same bytes, unlike plain concatenation.
 */
export function lengthPrefixed(fields: (string | Uint8Array)[]): Uint8Array {
  const parts = fields.map((f) => (typeof f === "string" ? encoder.encode(f) : f));
  const total = parts.reduce((n, p) => n + 8 + p.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let off = 0;
  for (const p of parts) {
    view.setBigUint64(off, BigInt(p.length), false);
    out.set(p, off + 8);
    off += 8 + p.length;
  }
  return out;
}
