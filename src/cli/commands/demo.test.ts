import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../main.js";
import { runCapture } from "../test-io.js";

let parent: string;
let cwd: string;
beforeEach(() => {
  parent = realpathSync(mkdtempSync(join(tmpdir(), "devrites-demo-test-")));
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "devrites-demo-cwd-")));
});
afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

interface JsonStep {
  stage: string;
  step_id?: string;
  attempt?: number;
  verdict?: string;
  codes: string[];
  diagnostics: { code: string; path?: string }[];
  guard_strength?: string;
  malformed?: boolean;
  commands?: { argv: string[]; exitCode: number; expected: number }[];
  question?: { qid: string; kind: string; question: string; options: string[] };
  ok: boolean;
}

describe("devrites demo", () => {
  it("runs the whole cycle in-process: each stage with its expected codes, exit 0, nothing left behind", async () => {
    const r = await runCapture(["demo"], cwd, { TMPDIR: parent });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(
      /✓ install\s+devrites init installs the pack for claude and codex; committed\n\s+\$ devrites init → exit 0/,
    );
    expect(out).toMatch(
      /✓ scout\s+rite-spec\/devrites-evidence-scout#1 attempt 1 → accepted · guard unavailable/,
    );
    expect(out).toMatch(/packet \.devrites\/runs\/run-\S+\/packet\.json/);
    expect(out).toMatch(
      /✓ stale\s+rite-spec\/devrites-evidence-scout#2 attempt 1 → rejected \[result\.stale\] · guard unavailable/,
    );
    expect(out).toContain("result.stale src/greet.js: src/greet.js changed after the packet was frozen");
    expect(out).toMatch(/✓ stale\s+rite-spec\/devrites-evidence-scout#2 attempt 2 → accepted/);
    expect(out).toMatch(
      /✓ malformed\s+rite-plan\/devrites-plan-drafter#1 attempt 1 → rejected \[envelope\.schema\]/,
    );
    expect(out).toMatch(/✓ malformed\s+rite-plan\/devrites-plan-drafter#1 attempt 2 → accepted/);
    expect(out).toMatch(/its objective quotes attempt 1's defect: "envelope\.schema /);
    expect(out).toMatch(/✓ gate\s+rite-plan\/human#1/);
    expect(out).toMatch(
      /q-\d{8}-\d{3} \[scope\] Approve slice fix-mean-empty\?.*\(options: approve \| revise\)/,
    );
    expect(out).toMatch(
      /\$ devrites resume → exit 3\n\s+\$ devrites resolve q-\d{8}-\d{3} approve → exit 0\n\s+\$ devrites resume → exit 0\n/,
    );
    expect(out).toMatch(
      /✓ out-of-scope\s+rite-build\/devrites-slice-wright#1 attempt 1 → rejected \[result\.out-of-scope, result\.undeclared-write\]/,
    );
    expect(out).toContain(
      "result.out-of-scope src/debug-log.js: src/debug-log.js changed but is not on the allowlist",
    );
    expect(out).toContain(
      "src/greet.js (your uncommitted work) is byte-identical; nothing was reverted or reset",
    );
    expect(out).toMatch(/✓ out-of-scope\s+rite-build\/devrites-slice-wright#1 attempt 2 → accepted/);
    expect(out).toMatch(/✓ final\s+the journey is done/);
    expect(out).toContain("guard strength: unavailable (no host ran these leaves");
    expect(out).toMatch(
      /devrites status:\n\s+rite: none\n\s+journey: demo \(j-\S+\), done\n\s+active runs: none/,
    );
    expect(out).toContain("pending questions: none");
    expect(out).toMatch(/org chart \(who may dispatch whom\):\n/);
    expect(out).toMatch(/rite-build \(build\)\s+→ devrites-proof-runner, devrites-slice-wright \[writer\]/);
    expect(out).toMatch(
      / M src\/greet\.js\n\s+ M src\/math\.js\n\s+ M test\/math\.test\.js\n\s+\?\? src\/debug-log\.js/,
    );
    expect(out).toMatch(/all 10 steps held their expectations in \d+\.\d s/);
    expect(out).toContain("the temporary repository was removed");
    expect(out).not.toContain("✗");
    expect(readdirSync(parent)).toEqual([]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("--json is machine-readable (data.steps[]); --keep keeps the repository and names it", async () => {
    const r = await runCapture(["demo", "--json", "--keep"], cwd, { TMPDIR: parent });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as {
      command: string;
      ok: boolean;
      exitCode: number;
      diagnostics: unknown[];
      data: {
        ok: boolean;
        root: string;
        kept: boolean;
        steps: JsonStep[];
        guard_strength: string[];
        status: { journey: { status: string }; active_runs: unknown[]; pending_questions: unknown[] };
        tree: string[];
        mermaid: string;
        graph: { nodes: unknown[]; edges: unknown[] };
        duration_ms: number;
      };
    };
    expect(j).toMatchObject({ command: "demo", ok: true, exitCode: 0, diagnostics: [] });
    const { data } = j;
    expect(data.ok).toBe(true);
    const journey = data.steps.filter((s) => s.attempt !== undefined);
    expect(journey.map((s) => [s.stage, s.step_id, s.attempt, s.verdict, s.codes, s.malformed])).toEqual([
      ["scout", "rite-spec/devrites-evidence-scout#1", 1, "accepted", [], false],
      ["stale", "rite-spec/devrites-evidence-scout#2", 1, "rejected", ["result.stale"], false],
      ["stale", "rite-spec/devrites-evidence-scout#2", 2, "accepted", [], false],
      ["malformed", "rite-plan/devrites-plan-drafter#1", 1, "rejected", ["envelope.schema"], true],
      ["malformed", "rite-plan/devrites-plan-drafter#1", 2, "accepted", [], false],
      [
        "out-of-scope",
        "rite-build/devrites-slice-wright#1",
        1,
        "rejected",
        ["result.out-of-scope", "result.undeclared-write"],
        false,
      ],
      ["out-of-scope", "rite-build/devrites-slice-wright#1", 2, "accepted", [], false],
    ]);
    expect(journey.every((s) => s.ok && s.guard_strength === "unavailable")).toBe(true);
    expect(data.steps.map((s) => s.stage)).toEqual([
      "install",
      "scout",
      "stale",
      "stale",
      "malformed",
      "malformed",
      "gate",
      "out-of-scope",
      "out-of-scope",
      "final",
    ]);
    const install = data.steps[0];
    expect(install?.commands?.map((c) => [c.argv, c.exitCode])).toEqual([[["init"], 0]]);
    expect(install?.codes).toEqual([]);
    const gate = data.steps.find((s) => s.stage === "gate");
    expect(gate?.commands?.map((c) => [c.argv[0], c.exitCode, c.expected])).toEqual([
      ["resume", 3, 3],
      ["resolve", 0, 0],
      ["resume", 0, 0],
    ]);
    expect(gate?.commands?.[1]?.argv).toEqual(["resolve", gate?.question?.qid, "approve"]);
    expect(gate?.question).toMatchObject({ kind: "scope", options: ["approve", "revise"] });
    expect(data.guard_strength).toEqual(["unavailable"]);
    expect(data.status.journey.status).toBe("done");
    expect(data.status.active_runs).toEqual([]);
    expect(data.status.pending_questions).toEqual([]);
    expect(data.mermaid).toMatch(/^flowchart LR/);
    expect(data.graph.edges.length).toBeGreaterThan(0);
    expect(data.tree).toContain("?? src/debug-log.js");

    // Kept: the repository is there, inside the temp folder, with the finished journey in its workspace.
    expect(data.kept).toBe(true);
    expect(data.root.startsWith(parent)).toBe(true);
    const state = JSON.parse(readFileSync(join(data.root, ".devrites/state.json"), "utf8"));
    expect(state.journey).toMatchObject({ name: "demo", driver: "cli", status: "done" });
    expect(existsSync(join(data.root, ".claude/agents/devrites-slice-wright.md"))).toBe(true);
  });

  it("prints each step as it happens: the header, then one chunk per step in order, before the summary", async () => {
    const chunks: { text: string; at: number }[] = [];
    const code = await run(["demo"], {
      cwd,
      env: { TMPDIR: parent },
      out: (text) => chunks.push({ text, at: performance.now() }),
      err: (text) => chunks.push({ text, at: performance.now() }),
    });
    expect(code).toBe(0);
    expect(chunks[0]?.text).toContain("devrites demo: a full scripted cycle");
    const steps = chunks.filter((c) => /^ {2}[✓✗] /.test(c.text));
    const stages = steps.map((c) => c.text.slice(4).split(/\s/)[0]);
    expect(stages[0]).toBe("install");
    expect(stages.at(-1)).toBe("final");
    for (const stage of ["scout", "stale", "malformed", "gate", "out-of-scope"])
      expect(stages).toContain(stage);
    expect(steps.length).toBeGreaterThanOrEqual(6);
    // each step is its own write, and the summary (status, org chart) comes after the last one
    const summary = chunks.findIndex((c) => c.text.includes("devrites status:"));
    expect(summary).toBeGreaterThan(chunks.indexOf(steps.at(-1)!));
    expect(steps[0]!.at).toBeLessThan(steps.at(-1)!.at);
  }, 60_000);

  it("takes no positionals", async () => {
    const r = await runCapture(["demo", "extra"], cwd, { TMPDIR: parent });
    expect(r.code).toBe(2);
    expect(readdirSync(parent)).toEqual([]);
  });
});
