/**
 * Read a hook's stdin with a size cap. The deadline is the caller's (a timer racing this promise): reading
 * never blocks the event loop, so the timer can always fire.
 */

export type StdinRead =
  /** The whole input, as bytes. */
  | { kind: "ok"; bytes: Buffer }
  /** More than `maxBytes` arrived; reading stopped. `prefix` holds the first `maxBytes`. */
  | { kind: "too-large"; prefix: Buffer; maxBytes: number }
  /** The stream failed. */
  | { kind: "error"; message: string }
  /** The deadline passed before the input ended. `prefix` is what had arrived. */
  | { kind: "timeout"; prefix: Buffer; afterMs: number };

export interface ReadableLike {
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
  destroy?(): unknown;
  pause?(): unknown;
}

/** Collect `stream` until it ends, fails, or exceeds `maxBytes`. Resolves exactly once, never rejects. */
export function readCapped(
  stream: ReadableLike,
  maxBytes: number,
): Promise<StdinRead> & { partial(): Buffer } {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  let settle: (r: StdinRead) => void = () => {};
  const promise = new Promise<StdinRead>((resolve) => {
    settle = (r) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
  });
  try {
    stream.on("data", (chunk) => {
      if (settled) return;
      const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size));
        size = maxBytes;
        stop(stream);
        settle({ kind: "too-large", prefix: Buffer.concat(chunks, size), maxBytes });
        return;
      }
      chunks.push(buf);
      size += buf.length;
    });
    stream.on("end", () => settle({ kind: "ok", bytes: Buffer.concat(chunks, size) }));
    stream.on("error", (e) => settle({ kind: "error", message: e?.message ?? String(e) }));
  } catch (e) {
    settle({ kind: "error", message: (e as Error)?.message ?? String(e) });
  }
  return Object.assign(promise, { partial: () => Buffer.concat(chunks, size) });
}

function stop(stream: ReadableLike): void {
  try {
    stream.pause?.();
    stream.destroy?.();
  } catch {
    // Best effort: the process exits right after the answer anyway.
  }
}

/**
 * Linux fast path: read stdin synchronously through a fresh non-blocking descriptor (`/dev/stdin` opened
 * with O_NONBLOCK is a new open file description of the same pipe), polling with 1 ms sleeps until EOF, the
 * cap, or `deadlineSec` of process uptime. Avoids the stream machinery on the hot path. Returns undefined
 * when the fast path is unavailable (not Linux, no `/dev/stdin`): use `readCapped(process.stdin, …)`.
 */
export function readStdinSync(maxBytes: number, deadlineSec: number, fs: SyncFs): StdinRead | undefined {
  if (process.platform !== "linux") return undefined;
  let fd: number;
  try {
    fd = fs.openSync("/dev/stdin", fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  try {
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "EAGAIN" && code !== "EWOULDBLOCK") throw e;
        if (process.uptime() >= deadlineSec) {
          return {
            kind: "timeout",
            prefix: Buffer.concat(chunks, size),
            afterMs: Math.round(process.uptime() * 1000),
          };
        }
        sleepMs(1);
        continue;
      }
      if (n === 0) return { kind: "ok", bytes: Buffer.concat(chunks, size) };
      if (size + n > maxBytes) {
        chunks.push(Buffer.from(buf.subarray(0, maxBytes - size)));
        return { kind: "too-large", prefix: Buffer.concat(chunks, maxBytes), maxBytes };
      }
      chunks.push(Buffer.from(buf.subarray(0, n)));
      size += n;
    }
  } catch (e) {
    return { kind: "error", message: (e as Error)?.message ?? String(e) };
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // nothing to do
    }
  }
}

/** The slice of `node:fs` the fast path uses (injected so tests can drive it). */
export interface SyncFs {
  openSync(path: string, flags: number): number;
  readSync(fd: number, buf: Buffer, off: number, len: number, pos: null): number;
  closeSync(fd: number): void;
  constants: { O_RDONLY: number; O_NONBLOCK: number };
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepMs(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
