import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendJsonLine, PendingSyncs, readJsonLines } from "./workspace.js";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "devrites-ws-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Whether `fd` is an open descriptor. */
function isOpen(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

describe("appendJsonLine", () => {
  it("appends one line per value and starts a fresh line after a torn one", () => {
    const p = join(dir, "a", "e.jsonl");
    appendJsonLine(p, { n: 1 });
    writeFileSync(p, `${readFileSync(p, "utf8")}{"n":`, { flag: "w" });
    appendJsonLine(p, { n: 2 });
    expect(readFileSync(p, "utf8")).toBe('{"n":1}\n{"n":\n{"n":2}\n');
    const read = readJsonLines(p, "e.jsonl");
    expect(read.values).toEqual([{ n: 1 }, { n: 2 }]);
    expect(read.diagnostics.map((d) => d.code)).toEqual(["ledger.corrupt-line"]);
  });

  it("with syncLater the line is visible at once and the file stays open until flush", async () => {
    const syncs = new PendingSyncs();
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    const probe = openSync(join(dir, "probe"), "w");
    closeSync(probe); // the next descriptor the process opens is `probe` again
    appendJsonLine(a, { n: 1 }, { syncLater: syncs });
    appendJsonLine(b, { n: 2 }, { syncLater: syncs });
    appendJsonLine(a, { n: 3 }, { syncLater: syncs });
    expect(syncs.size).toBe(3);
    expect(isOpen(probe)).toBe(true); // held by syncs
    expect(readFileSync(a, "utf8")).toBe('{"n":1}\n{"n":3}\n');
    expect(readFileSync(b, "utf8")).toBe('{"n":2}\n');
    await syncs.flush();
    expect(syncs.size).toBe(0);
    expect(isOpen(probe)).toBe(false);
    await syncs.flush(); // nothing held: a no-op
    expect(readFileSync(a, "utf8")).toBe('{"n":1}\n{"n":3}\n');
  });

  it("durable: false closes at once and holds nothing, even with syncLater", () => {
    const syncs = new PendingSyncs();
    appendJsonLine(join(dir, "c.jsonl"), { n: 1 }, { durable: false, syncLater: syncs });
    expect(syncs.size).toBe(0);
  });

  it("flush closes every file and rejects when an fsync fails", async () => {
    const syncs = new PendingSyncs();
    appendJsonLine(join(dir, "d.jsonl"), { n: 1 }, { syncLater: syncs });
    const held = openSync(join(dir, "d.jsonl"), "r");
    const stale = openSync(join(dir, "d.jsonl"), "r");
    closeSync(stale);
    expect(stale).not.toBe(held);
    syncs.hold(stale); // no longer open: its fsync and close fail
    syncs.hold(held);
    await expect(syncs.flush()).rejects.toMatchObject({ code: "EBADF" });
    expect(syncs.size).toBe(0);
    expect(isOpen(held)).toBe(false);
  });
});
