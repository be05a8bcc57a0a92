import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCapture } from "../../src/cli/test-io.js";
import { sha256Hex } from "../../src/core/hash.js";
import { parsePacket } from "../../src/envelope/parse.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { verifyBaselineRecord } from "../../src/judge/baseline-record.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({ "src/app.ts": "export const app = 1;\n", "docs/spec.md": "# spec\n" });
});
afterEach(() => repo.cleanup());

const base = ["packet", "new", "--rite", "rite-build", "--objective", "Map the parser."];

describe("packet new: writes", () => {
  it("freezes, writes baseline.json then packet.json, logs packet.created and registers the run", async () => {
    repo.write("src/app.ts", "dirty before the freeze\n");
    const r = await repo.cli([...base, "--role", "devrites-evidence-scout", "--input", "docs/spec.md"]);
    expect(r.code).toBe(0);
    const data = r.json.data as { packet_path: string; run_id: string; step_id: string; packet: AgentPacket };
    expect(data.run_id).toMatch(/^run-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/);
    expect(data.packet_path).toBe(`.devrites/runs/${data.run_id}/packet.json`);
    expect(data.step_id).toBe("rite-build/devrites-evidence-scout#1");

    const text = repo.read(data.packet_path);
    const parsed = parsePacket(JSON.parse(text));
    expect(parsed.ok).toBe(true);
    const p = data.packet;
    expect(JSON.parse(text)).toEqual(p);
    expect(p).toMatchObject({
      role: "devrites-evidence-scout",
      rite: "rite-build",
      phase: "build",
      attempt: 1,
      workspace: ".devrites",
      objective: "Map the parser.",
      result_path: `.devrites/runs/${p.run_id}/result.json`,
      budgets: { max_files: 20, max_loaded_lines: 1000, max_result_lines: 80 },
      scope: { in: ["docs/spec.md"], out: [], allowed_repo_writes: [] },
    });
    expect(p.inputs).toEqual([
      { path: "docs/spec.md", purpose: expect.any(String), sha256: sha256Hex("# spec\n") },
    ]);
    expect(p.expires_at).toBeUndefined();
    expect(p.baseline.head).toMatch(/^[0-9a-f]{40}$/);

    const baseline = verifyBaselineRecord(repo.read(`.devrites/runs/${p.run_id}/baseline.json`), p, "b");
    expect(baseline.ok).toBe(true);
    // The dirty path, its index side, and the git folder's state (docs/tree-check.md)
    if (baseline.ok)
      expect(
        baseline.record.dirty
          .map((e) => e.path)
          .filter((p) => !p.startsWith(".git/") || p.startsWith(".git/index/")),
      ).toEqual([".git/index/src/app.ts", "src/app.ts"]);
    if (baseline.ok)
      expect(baseline.record.dirty.map((e) => e.path)).toEqual(
        expect.arrayContaining([".git/HEAD", ".git/config", ".git/refs", ".git/index-flags"]),
      );

    const state = JSON.parse(repo.read(".devrites/state.json"));
    expect(state.active_runs).toEqual([
      {
        run_id: p.run_id,
        role: p.role,
        step_id: p.step_id,
        packet_path: data.packet_path,
        created_at: p.created_at,
      },
    ]);
    const events = repo
      .read(`.devrites/runs/${p.run_id}/events.jsonl`)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["packet.created"]);
    expect(events[0].data).toMatchObject({ role: p.role, step_id: p.step_id, baseline_id: p.baseline.id });
  });

  it("prints the packet path for humans", async () => {
    const r = await runCapture([...base, "--role", "devrites-code-reviewer"], repo.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\.devrites\/runs\/run-[^/]+\/packet\.json$/);
  });

  it("the wright gets its exact allowlist and the wright's budgets; expiry is set from --expires-in", async () => {
    const p = await repo.packet("devrites-slice-wright", {
      allow: ["src/app.ts", "src/new.ts"],
      extra: ["--expires-in", "30", "--phase", "quick"],
    });
    expect(p.scope.allowed_repo_writes).toEqual(["src/app.ts", "src/new.ts"]);
    expect(p.budgets).toEqual({ max_files: 40, max_loaded_lines: 4000, max_result_lines: 120 });
    expect(p.phase).toBe("quick");
    expect(Date.parse(p.expires_at!) - Date.parse(p.created_at)).toBe(30 * 60_000);
  });

  it("numbers steps per rite and role and never reuses a number after a run is retired", async () => {
    const a = await repo.packet("devrites-evidence-scout");
    const b = await repo.packet("devrites-evidence-scout");
    const c = await repo.packet("devrites-code-reviewer");
    expect([a.step_id, b.step_id, c.step_id]).toEqual([
      "rite-build/devrites-evidence-scout#1",
      "rite-build/devrites-evidence-scout#2",
      "rite-build/devrites-code-reviewer#1",
    ]);
    await repo.record(b, repo.resultFor(b));
    expect((await repo.check(b)).code).toBe(0);
    expect((await repo.packet("devrites-evidence-scout")).step_id).toBe(
      "rite-build/devrites-evidence-scout#3",
    );
  });

  it("works outside git with a no-git baseline", async () => {
    const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-nogit-")));
    try {
      writeFileSync(join(top, "notes.md"), "hello\n");
      const r = await runCapture(
        [...base, "--role", "devrites-evidence-scout", "--input", "notes.md", "--json"],
        top,
      );
      expect(r.code).toBe(0);
      const p = JSON.parse(r.stdout).data.packet as AgentPacket;
      expect(p.baseline.head).toBe("no-git");
      const stub = JSON.stringify({ result_version: "agent-result/v1", run_id: p.run_id });
      const rec = await runCapture(["result", "record", p.run_id], top, {}, { stdin: stub });
      expect(rec.code).toBe(0);
      const check = await runCapture(["result", "check", p.result_path, "--json"], top);
      expect(JSON.parse(check.stdout).diagnostics.map((d: { code: string }) => d.code)).not.toContain(
        "result.stale",
      );
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });
});

describe("packet new: bad input names the path and what was expected", () => {
  it.each([
    ["no role", [...base], 2, "input.invalid"],
    ["an unknown role", [...base, "--role", "devrites-hacker"], 2, "input.invalid"],
    [
      "a bad rite",
      ["packet", "new", "--role", "devrites-evidence-scout", "--rite", "build", "--objective", "x"],
      2,
      "input.invalid",
    ],
    [
      "a blank objective",
      ["packet", "new", "--role", "devrites-evidence-scout", "--rite", "rite-build", "--objective", "  "],
      2,
      "input.invalid",
    ],
    [
      "an unknown phase",
      [...base, "--role", "devrites-evidence-scout", "--phase", "deploy"],
      2,
      "input.invalid",
    ],
    [
      "a zero expiry",
      [...base, "--role", "devrites-evidence-scout", "--expires-in", "0"],
      2,
      "input.invalid",
    ],
    [
      "a non-numeric expiry",
      [...base, "--role", "devrites-evidence-scout", "--expires-in", "1h"],
      2,
      "input.invalid",
    ],
    [
      "a read-only role with --allow",
      [...base, "--role", "devrites-evidence-scout", "--allow", "src/app.ts"],
      2,
      "input.invalid",
    ],
    ["the wright without --allow", [...base, "--role", "devrites-slice-wright"], 2, "input.invalid"],
    [
      "a missing input",
      [...base, "--role", "devrites-evidence-scout", "--input", "docs/nope.md"],
      5,
      "input.missing",
    ],
    [
      "a directory as input",
      [...base, "--role", "devrites-evidence-scout", "--input", "docs"],
      2,
      "input.invalid",
    ],
    [
      "a traversing input",
      [...base, "--role", "devrites-evidence-scout", "--input", "../x.md"],
      2,
      "scope.traversal",
    ],
    [
      "an input twice",
      [...base, "--role", "devrites-evidence-scout", "--input", "docs/spec.md", "--input", "docs/spec.md"],
      2,
      "scope.duplicate",
    ],
    [
      "a .git allowlist entry",
      [...base, "--role", "devrites-slice-wright", "--allow", ".git/config"],
      2,
      "scope.git",
    ],
    [
      "a glob allowlist entry",
      [...base, "--role", "devrites-slice-wright", "--allow", "src/*.ts"],
      2,
      "scope.glob",
    ],
    [
      "a directory allowlist entry",
      [...base, "--role", "devrites-slice-wright", "--allow", "src"],
      2,
      "scope.not-a-file",
    ],
    [
      "an absolute allowlist entry",
      [...base, "--role", "devrites-slice-wright", "--allow", "/etc/passwd"],
      2,
      "scope.absolute",
    ],
    [
      "an unknown phase for a rite not named after one",
      ["packet", "new", "--role", "devrites-evidence-scout", "--rite", "rite-journey", "--objective", "x"],
      2,
      "input.invalid",
    ],
  ])("%s → exit %i, %s", async (_name, args, exit, code) => {
    const r = await repo.cli(args);
    expect(r.code).toBe(exit);
    expect(codes(r)).toContain(code);
    for (const d of r.json.diagnostics) expect(d.hint).toBeTruthy();
    expect(() => repo.read(".devrites/state.json")).toThrow();
  });

  it("names the offending path", async () => {
    const r = await repo.cli([...base, "--role", "devrites-evidence-scout", "--input", "docs/nope.md"]);
    expect(r.json.diagnostics[0]!.path).toBe("docs/nope.md");
  });

  it("a missing working directory → exit 5", async () => {
    const r = await runCapture(
      [...base, "--role", "devrites-evidence-scout", "--json"],
      join(repo.root, "nope"),
    );
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).diagnostics[0].code).toBe("input.no-repo");
  });

  it("a broken state.json is reported and left alone", async () => {
    mkdirSync(join(repo.root, ".devrites"), { recursive: true });
    writeFileSync(join(repo.root, ".devrites/state.json"), "{not json");
    const r = await repo.cli([...base, "--role", "devrites-evidence-scout"]);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["workspace.state-invalid"]);
    expect(readFileSync(join(repo.root, ".devrites/state.json"), "utf8")).toBe("{not json");
  });
});
