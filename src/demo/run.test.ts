import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoResult } from "../cli/commands/demo.js";
import type { Payload } from "../envelope/types.js";
import type { DelegationGraph } from "../pack/index.js";
import { DEMO_STEPS } from "./journey.js";
import { orgChart, renderDemoReport } from "./report.js";
import { type DemoReport, runDemo } from "./run.js";
import { MATH_FIXED, TEST_WITH_EMPTY_CASE } from "./sample.js";
import { type DemoScript, demoScript, finalMessage, type LeafScript, modified, resultFor } from "./script.js";

let parent: string;
beforeEach(() => {
  parent = realpathSync(mkdtempSync(join(tmpdir(), "devrites-demo-run-")));
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

/** The demo script with one leaf attempt changed. */
function withLeaf(stepId: string, attempt: number, change: (l: LeafScript) => LeafScript): DemoScript {
  const script = demoScript();
  const i = script.leaves.findIndex((l) => l.step_id === stepId && l.attempt === attempt);
  if (i < 0) throw new Error(`no leaf ${stepId} ${attempt}`);
  script.leaves[i] = change(script.leaves[i] as LeafScript);
  return script;
}

function leafOf(stepId: string, attempt: number): LeafScript["leaf"] {
  const l = demoScript().leaves.find((x) => x.step_id === stepId && x.attempt === attempt);
  if (!l) throw new Error(`no leaf ${stepId} ${attempt}`);
  return l.leaf;
}

const dossier: Payload = { type: "evidence-dossier", content: { findings: [], open_questions: [] } };

const sabotage: [string, () => DemoScript, RegExp][] = [
  [
    "scout",
    // The leaf claims another baseline than its packet's.
    () =>
      withLeaf(DEMO_STEPS.map, 1, (l) => ({
        ...l,
        leaf: (p) => ({
          writes: [],
          message: finalMessage("Mapped.", { ...resultFor(p, dossier), baseline_id: "0".repeat(64) }),
        }),
      })),
    /expected accepted, got rejected \[result\.baseline-mismatch\]/,
  ],
  [
    "stale",
    // The user does not edit while the scout is out: nothing is stale.
    () => withLeaf(DEMO_STEPS.cause, 1, ({ meanwhile: _, ...l }) => l),
    /rite-spec\/devrites-evidence-scout#2 attempt 1: expected rejected \[result\.stale\], got accepted/,
  ],
  [
    "stale",
    // An unscripted dispatch: the retry of the stale scout has no leaf.
    () => {
      const s = demoScript();
      s.leaves = s.leaves.filter((l) => !(l.step_id === DEMO_STEPS.cause && l.attempt === 2));
      return s;
    },
    /unexpected dispatch: rite-spec\/devrites-evidence-scout#2 attempt 2/,
  ],
  [
    "malformed",
    // The drafter's first answer is well formed after all.
    () => withLeaf(DEMO_STEPS.plan, 1, (l) => ({ ...l, leaf: leafOf(DEMO_STEPS.plan, 2) })),
    /rite-plan\/devrites-plan-drafter#1 attempt 1: expected rejected \[envelope\.schema\], got accepted/,
  ],
  [
    "gate",
    // An empty answer: `devrites resolve` refuses it (exit 2).
    () => ({ ...demoScript(), gate: { ...demoScript().gate, answer: " " } }),
    /devrites resolve q-\d{8}-\d{3} exited 2: question\.empty-answer/,
  ],
  [
    "out-of-scope",
    // The wright stays in scope on its first attempt: nothing to reject.
    () =>
      withLeaf(DEMO_STEPS.build, 1, (l) => ({
        ...l,
        leaf: (p) => {
          const math = { path: "src/math.js", content: MATH_FIXED };
          const test = { path: "test/math.test.js", content: TEST_WITH_EMPTY_CASE };
          const payload = {
            type: "wright-report" as const,
            content: { slice_id: "fix-mean-empty", summary: "in scope", tests_added: [], commands_run: [] },
          };
          return {
            writes: [math, test],
            message: finalMessage("Done.", resultFor(p, payload, [modified(math), modified(test)])),
          };
        },
      })),
    /rite-build\/devrites-slice-wright#1 attempt 1: expected rejected \[result\.out-of-scope, result\.undeclared-write\], got accepted/,
  ],
  [
    "out-of-scope",
    // The wright also overwrites the user's uncommitted file (and so the codes differ too).
    () =>
      withLeaf(DEMO_STEPS.build, 1, (l) => ({
        ...l,
        expect: { ...l.expect, codes: ["result.out-of-scope", "result.undeclared-write"], names: [] },
        leaf: (p) => {
          const act = l.leaf(p);
          return { ...act, writes: [...act.writes, { path: "src/greet.js", content: "clobbered\n" }] };
        },
      })),
    /src\/greet\.js \(your uncommitted work\) is not as it was before the leaf ran/,
  ],
];

describe("runDemo: an injected failure in a stage exits 1 naming the stage", () => {
  it.each(sabotage)("%s", async (stage, script, message) => {
    const report = await runDemo({ tmpParent: parent, script: script() });
    expect(report.ok).toBe(false);
    expect(report.failure?.stage).toBe(stage);
    expect(report.failure?.message).toMatch(message);
    const result = demoResult(report);
    expect(result.exitCode).toBe(1);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: "demo.expectation-failed",
        message: expect.stringMatching(`^stage ${stage}: `),
      }),
    ]);
    expect(result.text).toContain(`demo FAILED at stage ${stage}`);
    expect(result.text).toMatch(new RegExp(`✗ ${stage}\\s`));
    // The temporary repository is removed on failure too.
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe("runDemo: where it cannot start", () => {
  it("is an install failure, not a throw, when no temporary folder can be made", async () => {
    const report = await runDemo({ tmpParent: join(parent, "missing", "deeper") });
    expect(report.ok).toBe(false);
    expect(report.failure).toMatchObject({
      stage: "install",
      message: expect.stringMatching(/cannot make a temporary folder/),
    });
    expect(report.root).toBe("");
    expect(demoResult(report).exitCode).toBe(1);
    expect(renderDemoReport(report)).not.toContain("the temporary repository was removed");
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe("the report", () => {
  const graph: DelegationGraph = {
    nodes: [
      { id: "rite-build", kind: "rite", phase: "build", path: "a" },
      { id: "rite", kind: "rite", path: "b" },
      { id: "devrites-slice-wright", kind: "role", mode: "writer", path: "c" },
      { id: "devrites-proof-runner", kind: "role", mode: "read-only", path: "d" },
    ],
    edges: [
      { from: "rite-build", to: "devrites-slice-wright" },
      { from: "rite-build", to: "devrites-proof-runner" },
      { from: "rite-build", to: "devrites-proof-runner" },
      { from: "rite-build", to: "dangling-role" },
    ],
  };

  it("draws the org chart one rite a line, writers marked, dangling and duplicate edges left out", () => {
    expect(orgChart(graph)).toEqual([
      "rite                → (no leaves)",
      "rite-build (build)  → devrites-proof-runner, devrites-slice-wright [writer]",
    ]);
  });

  const base: DemoReport = {
    ok: false,
    failure: {
      stage: "stale",
      message: "rite-spec/x#1 attempt 1: expected rejected [result.stale], got accepted",
    },
    root: "/tmp/devrites-demo-abc",
    kept: true,
    steps: [
      {
        stage: "stale",
        step_id: "rite-spec/devrites-evidence-scout#2",
        attempt: 1,
        shows: "a stale result",
        expected: "rejected [result.stale]",
        verdict: "accepted",
        codes: [],
        diagnostics: [],
        guard_strength: "unavailable",
        notes: [],
        ok: false,
      },
    ],
    guard_strength: ["unavailable"],
    tree: [],
    graph,
    duration_ms: 1234,
  };

  it("marks the failed step and stage, and names a kept repository", () => {
    const text = renderDemoReport(base);
    expect(text).toContain(
      "✗ stale         rite-spec/devrites-evidence-scout#2 attempt 1 → accepted · guard unavailable",
    );
    expect(text).toContain(
      "✗ stale         rite-spec/x#1 attempt 1: expected rejected [result.stale], got accepted",
    );
    expect(text).toContain("demo FAILED at stage stale after 1.2 s");
    expect(text).toContain("kept: /tmp/devrites-demo-abc");
    expect(text).not.toContain("the temporary repository was removed");
  });

  it("says when the repository was removed and every step held", () => {
    const { failure: _, ...rest } = base;
    const text = renderDemoReport({
      ...rest,
      ok: true,
      kept: false,
      steps: [{ ...base.steps[0]!, ok: true }],
    });
    expect(text).toContain("all 1 steps held their expectations in 1.2 s");
    expect(text).toContain("the temporary repository was removed");
    expect(text).not.toContain("✗");
  });
});
