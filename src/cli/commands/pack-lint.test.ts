import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCapture } from "../test-io.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

describe("devrites pack lint", () => {
  it("exits 0 on a clean pack and prints the counts and the budget", async () => {
    const r = await runCapture(["pack", "lint", "--dir", "tests/fixtures/packs/valid"], REPO);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pack ok: 1 skills, 1 agents, 2 hooks");
    expect(r.stdout).toMatch(/always-on: \d+ chars \(~\d+ tokens\)/);
  });

  it("exits 1 and prints each defect with a path relative to the working directory", async () => {
    const r = await runCapture(["pack", "lint", "--dir", "tests/fixtures/packs/cycle"], REPO);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "error pack.delegation-cycle tests/fixtures/packs/cycle/skills/rite-echo/SKILL.md:6: delegation cycle: rite-echo → rite-look → rite-echo",
    );
  });

  it("reports with --json: stable codes, paths, lines and the budget in data", async () => {
    const r = await runCapture(
      ["pack", "lint", "--dir", "tests/fixtures/packs/unknown-field", "--json"],
      REPO,
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ command: "pack lint", ok: false, exitCode: 1 });
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "pack.unknown-field",
        path: "tests/fixtures/packs/unknown-field/skills/rite-look/SKILL.md",
        line: 4,
      }),
    );
    expect(report.data.budget.alwaysOnChars).toBeGreaterThan(0);
  });

  it("checks commands against the CLI's own registry", async () => {
    const r = await runCapture(
      ["pack", "lint", "--dir", "tests/fixtures/packs/unknown-command", "--json"],
      REPO,
    );
    const codes = JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code);
    expect(codes).toEqual(["pack.command-unknown"]);
  });

  it("in a repository without pack/.claude (a user's), lints the installed package's own pack", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "devrites-packlint-")));
    try {
      const lint = await runCapture(["pack", "lint", "--json"], dir);
      expect(lint.code).toBe(0);
      expect(JSON.parse(lint.stdout).data.dir).toBe(relativeTo(dir, join(REPO, "pack", ".claude")));
      const graph = await runCapture(["graph", "--format", "json"], dir);
      expect(graph.code).toBe(0);
      expect(graph.stdout).toContain("devrites-slice-wright");
      // near miss: an explicit --dir is taken as given, even when it is missing
      const missing = await runCapture(["pack", "lint", "--dir", "pack/.claude"], dir);
      expect(missing.code).toBe(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 5 naming the folder when the pack is missing", async () => {
    const r = await runCapture(["pack", "lint", "--dir", "no/such/pack", "--json"], REPO);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([
      { code: "pack.dir-missing", path: "no/such/pack" },
    ]);
  });

  it("defaults to pack/.claude under the working directory when it has one", async () => {
    const r = await runCapture(["pack", "lint", "--json"], REPO);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.dir).toBe("pack/.claude");
  });

  it("rejects a positional argument as usage", async () => {
    const r = await runCapture(["pack", "lint", "extra"], REPO);
    expect(r.code).toBe(2);
  });
});

function relativeTo(from: string, to: string): string {
  return relative(from, to).split("\\").join("/");
}
