import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROMPT_LINE_MAX, promptContextLine } from "./prompt-context.js";
import { nextAction, summarizeRun } from "./status.js";
import type { Question, WorkspaceState } from "./workspace-types.js";

const T = "2026-11-29T22:15:00.000Z";
const idle: WorkspaceState = {
  schema: "devrites-state/v1",
  active_rite: null,
  phase: null,
  active_runs: [],
  updated_at: T,
};
const building: WorkspaceState = { ...idle, active_rite: "rite-build", phase: "build" };
const q = (n: number, answer?: string): Question => ({
  qid: `q-20261129-00${n}`,
  kind: "scope",
  question: `Include part ${n}?`,
  options: [],
  raised_at: T,
  ...(answer ? { answer, answered_at: T } : {}),
});
const journey = { id: "j-20261129T221500Z-0a1b2c3d", name: "demo", driver: "scripted", started_at: T };

describe("promptContextLine", () => {
  it("is empty when there is no journey and nothing pending", () => {
    expect(promptContextLine(idle, [])).toBe("");
    expect(promptContextLine({ ...idle, journey: { ...journey, status: "done" } }, [q(1, "yes")])).toBe("");
  });
  it("names the rite, phase and next action in one line", () => {
    expect(promptContextLine(building, [])).toBe(
      "devrites: active rite rite-build, phase build, next: continue rite-build (phase build)",
    );
    expect(promptContextLine(building, [q(1), q(2)])).toBe(
      "devrites: active rite rite-build, phase build, next: answer q-20261129-001 (scope): Include part 1? (1 more pending)",
    );
  });
  it("mentions a pending question even with no active rite", () => {
    expect(promptContextLine(idle, [q(3)])).toBe(
      "devrites: active rite none, next: answer q-20261129-003 (scope): Include part 3?",
    );
  });
  it("points at the leaf that is out, and at resume for a paused journey", () => {
    const out: WorkspaceState = {
      ...building,
      active_runs: [
        {
          run_id: "run-20261129T221500Z-0a1b2c3d",
          role: "devrites-slice-wright",
          step_id: "rite-build/devrites-slice-wright#1",
          packet_path: ".devrites/runs/run-20261129T221500Z-0a1b2c3d/packet.json",
          created_at: T,
        },
      ],
    };
    expect(promptContextLine(out, [])).toContain(
      "next: run devrites-slice-wright with .devrites/runs/run-20261129T221500Z-0a1b2c3d/packet.json",
    );
    expect(promptContextLine({ ...building, journey: { ...journey, status: "paused-gate" } }, [])).toContain(
      "next: continue journey demo",
    );
  });
  it("property: one line, never longer than the cap, whatever the question says", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 2000 }), (rite, text) => {
        const line = promptContextLine({ ...building, active_rite: rite || "rite-x" }, [
          { ...q(1), question: text },
        ]);
        expect(line.length).toBeLessThanOrEqual(PROMPT_LINE_MAX);
        expect(line).not.toMatch(/[\r\n]/);
        expect(line.startsWith("devrites: ")).toBe(true);
      }),
    );
  });
});

describe("nextAction and summarizeRun", () => {
  it("puts questions before blockers, leaves before resuming, and starting last", () => {
    const blockedState = { ...building, journey: { ...journey, status: "blocked" as const } };
    expect(nextAction(blockedState, [q(1)]).kind).toBe("answer");
    expect(nextAction(blockedState, []).kind).toBe("blocked");
    expect(nextAction({ ...building, journey: { ...journey, status: "running" } }, []).kind).toBe("resume");
    expect(nextAction(idle, []).kind).toBe("start");
  });
  it("reads verdict and guard strength from the last result.checked event", () => {
    const ev = (type: string, data: Record<string, unknown>) => ({
      ts: T,
      run_id: "run-20261129T221500Z-0a1b2c3d",
      type,
      data,
    });
    const s = summarizeRun(
      "run-20261129T221500Z-0a1b2c3d",
      [
        ev("packet.created", {
          role: "devrites-code-reviewer",
          step_id: "rite-review/devrites-code-reviewer#1",
          attempt: 1,
        }),
        ev("result.checked", { verdict: "rejected", guard_strength: "enforced" }),
        ev("result.checked", { verdict: "accepted", guard_strength: "observed" }),
      ],
      false,
    );
    expect(s).toMatchObject({
      role: "devrites-code-reviewer",
      attempt: 1,
      verdict: "accepted",
      guard_strength: "observed",
      state: "accepted",
    });
    expect(summarizeRun("r", [ev("result.checked", { verdict: "rejected" })], false).state).toBe("rejected");
    expect(summarizeRun("r", [ev("result.checked", { verdict: "rejected" })], true).state).toBe("active");
  });
});
