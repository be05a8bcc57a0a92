import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readCapped } from "./stdin.js";

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
