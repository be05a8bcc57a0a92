import { describe, expect, it } from "vitest";
import { runCapture } from "./test-io.js";

describe("cli shell", () => {
  it("prints help and exits 0 for --help", async () => {
    const r = await runCapture(["--help"], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: devrites <command>");
  });

  it("exits 2 with no arguments", async () => {
    const r = await runCapture([], process.cwd());
    expect(r.code).toBe(2);
  });

  it("rejects an unknown command with exit 2 and a stable code in --json", async () => {
    const r = await runCapture(["frobnicate", "--json"], process.cwd());
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ ok: false, exitCode: 2 });
    expect(report.diagnostics[0].code).toBe("cli.unknown-command");
  });

  it("prints the version", async () => {
    const r = await runCapture(["--version"], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
