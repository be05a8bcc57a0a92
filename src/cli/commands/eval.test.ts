import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_PACK } from "../../route/cards.js";
import { runCapture } from "../test-io.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "devrites-eval-"));
  cpSync(BUNDLED_PACK, join(dir, "pack"), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("devrites eval", () => {
  it("prints accuracy per rite and overall, and fails below --min", async () => {
    const r = await runCapture(["eval", "--pack", "pack", "--min", "0", "--json"], dir);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout).data;
    expect(report.rites.map((x: { rite: string }) => x.rite)).toContain("rite-build");
    expect(report.total).toBeGreaterThanOrEqual(100);
    const text = (await runCapture(["eval", "--pack", "pack", "--min", "0"], dir)).stdout;
    expect(text).toMatch(/^rite-build\s+\d+\/\d+\s+\d+\.\d%$/m);
    expect(text).toMatch(/^all\s+\d+\/\d+\s+\d+\.\d%$/m);
    const strict = await runCapture(["eval", "--pack", "pack", "--min", "1.0", "--json"], dir);
    if (report.accuracy < 1) {
      expect(strict.code).toBe(1);
      expect(JSON.parse(strict.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain(
        "route.accuracy",
      );
    } else expect(strict.code).toBe(0);
  });

  it("rejects a bad --min (2), a missing pack (5) and a broken corpus (1)", async () => {
    expect((await runCapture(["eval", "--min", "high"], dir)).code).toBe(2);
    expect((await runCapture(["eval", "--pack", "nowhere"], dir)).code).toBe(5);
    writeFileSync(join(dir, "pack/skills/rite-ship/routing.json"), "{");
    const r = await runCapture(["eval", "--pack", "pack", "--min", "0", "--json"], dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain(
      "route.corpus-invalid",
    );
  });
});
