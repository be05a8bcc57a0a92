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
