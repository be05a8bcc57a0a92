import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pruneStaleScratch, STALE_SCRATCH_MS, scratchBase } from "./scratch.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the doctor's scratch folder", () => {
  it("is never under the system temp folder (Codex cannot start its sandbox there)", () => {
    const under = join(tmpdir(), "devrites-doctor-base");
    dirs.push(under);
    expect(() => scratchBase({ DEVRITES_DOCTOR_SCRATCH: under })).toThrow(/DEVRITES_DOCTOR_SCRATCH/);
  });

  it("prunes only doctor's own folders older than the limit", () => {
    const base = mkdtempSync(join(tmpdir(), "devrites-prune-"));
    dirs.push(base);
    const now = Date.now();
    const old = (now - STALE_SCRATCH_MS - 60_000) / 1000;
    for (const name of [
      "claude-abc123",
      "codex-trust-xyz789",
      "codex-fresh1",
      "mine",
      "claude-notdoctor-name",
    ]) {
      mkdirSync(join(base, name));
      if (name !== "codex-fresh1") utimesSync(join(base, name), old, old);
    }
    expect(pruneStaleScratch(base, now).sort()).toEqual([
      join(base, "claude-abc123"),
      join(base, "codex-trust-xyz789"),
    ]);
    expect(existsSync(join(base, "codex-fresh1"))).toBe(true);
    expect(existsSync(join(base, "mine"))).toBe(true);
    expect(existsSync(join(base, "claude-notdoctor-name"))).toBe(true);
    expect(pruneStaleScratch(join(base, "missing"), now)).toEqual([]);
  });
});
