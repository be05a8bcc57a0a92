import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readCapped, readStdinSync } from "./stdin.js";

describe("readCapped", () => {
  it("collects the whole input", async () => {
    const r = await readCapped(Readable.from([Buffer.from("ab"), "cd"]), 100);
    expect(r).toEqual({ kind: "ok", bytes: Buffer.from("abcd") });
  });

  it("stops at the cap and keeps the prefix", async () => {
    const r = await readCapped(Readable.from([Buffer.alloc(6, 1), Buffer.alloc(6, 2)]), 8);
    expect(r.kind).toBe("too-large");
    if (r.kind === "too-large") {
      expect(r.prefix).toEqual(Buffer.concat([Buffer.alloc(6, 1), Buffer.alloc(2, 2)]));
      expect(r.maxBytes).toBe(8);
    }
  });

  it("an input of exactly the cap is whole", async () => {
    const r = await readCapped(Readable.from([Buffer.alloc(8, 1)]), 8);
    expect(r.kind).toBe("ok");
  });

  it("reports a stream error", async () => {
    const s = new EventEmitter();
    const p = readCapped(s as unknown as Readable, 8);
    s.emit("error", new Error("EIO: boom"));
    s.emit("end");
    expect(await p).toEqual({ kind: "error", message: "EIO: boom" });
  });

  it("exposes what arrived so far while the stream is open", () => {
    const s = new EventEmitter();
    const p = readCapped(s as unknown as Readable, 8);
    s.emit("data", Buffer.from("{"));
    expect(p.partial()).toEqual(Buffer.from("{"));
  });
});

describe("readStdinSync", () => {
  /** A fake fs whose reads follow a script: a string is data, "EAGAIN" is an empty non-blocking read, "" EOF. */
  function fakeFs(script: string[], open: () => number = () => 9) {
    const steps = [...script];
    let closed = 0;
    const fs = {
      constants: { O_RDONLY: 0, O_NONBLOCK: 2048 },
      openSync: (_p: string, _f: number) => open(),
      closeSync: () => {
        closed++;
      },
      readSync: (_fd: number, buf: Buffer, off: number, len: number) => {
        const s = steps.shift() ?? "";
        if (s === "EAGAIN") throw Object.assign(new Error("EAGAIN"), { code: "EAGAIN" });
        if (s === "EIO") throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
        const b = Buffer.from(s);
        b.copy(buf, off, 0, Math.min(len, b.length));
        return Math.min(len, b.length);
      },
    };
    return { fs, closed: () => closed };
  }
  const linux = process.platform === "linux";

  it.runIf(linux)("reads until EOF across non-blocking gaps and closes the descriptor", () => {
    const f = fakeFs(['{"a"', "EAGAIN", ":1}", ""]);
    expect(readStdinSync(100, 60, f.fs)).toEqual({ kind: "ok", bytes: Buffer.from('{"a":1}') });
    expect(f.closed()).toBe(1);
  });

  it.runIf(linux)("stops at the cap", () => {
    const r = readStdinSync(4, 60, fakeFs(["abc", "def", ""]).fs);
    expect(r).toEqual({ kind: "too-large", prefix: Buffer.from("abcd"), maxBytes: 4 });
  });

  it.runIf(linux)("gives up at the deadline with what arrived", () => {
    const r = readStdinSync(100, 0, fakeFs(["{", ...Array(50).fill("EAGAIN")]).fs);
    expect(r?.kind).toBe("timeout");
    if (r?.kind === "timeout") expect(r.prefix).toEqual(Buffer.from("{"));
  });

  it.runIf(linux)("a read error is reported, not thrown", () => {
    expect(readStdinSync(100, 60, fakeFs(["EIO"]).fs)).toEqual({ kind: "error", message: "EIO: i/o error" });
  });

  it("is unavailable (undefined) when /dev/stdin cannot be opened, e.g. a socket", () => {
    const f = fakeFs([], () => {
      throw Object.assign(new Error("ENXIO"), { code: "ENXIO" });
    });
    expect(readStdinSync(100, 60, f.fs)).toBeUndefined();
  });
});
