import { describe, expect, it } from "vitest";
import type { RunId } from "../envelope/types.js";
import type { CheckOutcome, Journey } from "./engine-types.js";
import { makeResult } from "./fake-driver.js";
import { layoutJourney } from "./layout.js";
import type { AttemptRecord } from "./ledger.js";
import {
  type Action,
  type Cursor,
  type EngineView,
  nextStep,
  observe,
  type Round,
  type RoundPhase,
  START,
} from "./next-step.js";
import type { Question, ResultCheckedData, StepId } from "./workspace-types.js";

const J = "j-20260101T000000Z-00000000";
const A = "rite-spec/devrites-evidence-scout#1" as StepId;
const B = "rite-spec/devrites-evidence-scout#2" as StepId;
const GATE = "rite-spec/human#1" as StepId;
const W = "rite-build/devrites-slice-wright#1" as StepId;

const scout = (path: string) => ({
  role: "devrites-evidence-scout" as const,
  objective: `survey ${path}`,
  scope: { in: [path], out: [], allowed_repo_writes: [] },
});

const journey: Journey = {
  name: "t",
  steps: [
    { kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src/a"), scout("src/b")] },
    { kind: "gate", rite: "rite-spec", phase: "spec", gate: { kind: "scope", question: "Include b?" } },
    {
      kind: "dispatch",
      rite: "rite-build",
      phase: "build",
      packets: [
        {
          role: "devrites-slice-wright",
          objective: (ctx) => `build; the human said ${ctx.answer(GATE)}`,
          scope: { in: ["src/a"], out: [], allowed_repo_writes: ["src/a/x.ts"] },
        },
      ],
      when: (ctx) => ctx.answer(GATE) !== "skip",
    },
  ],
};
const steps = layoutJourney(journey).steps;

const run = (n: number) => `run-20260101T000000Z-0000000${n}` as RunId;

/** One attempt as the ledger would index it. */
function attempt(
  stepId: StepId,
  n: number,
  has: Partial<Omit<AttemptRecord, "run_id" | "intent" | "created_at">> = {},
  runNo = n,
): AttemptRecord {
  return {
    run_id: run(runNo),
    created_at: "2026-01-01T00:00:00.000Z",
    intent: {
      journey_id: J,
      step_id: stepId,
      attempt: n,
      role: stepId.includes("wright") ? "devrites-slice-wright" : "devrites-evidence-scout",
      rite: stepId.split("/")[0] ?? "",
      phase: stepId.startsWith("rite-build") ? "build" : "spec",
      objective: `objective ${n}`,
    },
    dispatched: false,
    returned: false,
    ...has,
  };
}

const checked = (verdict: ResultCheckedData["verdict"], extra: Partial<ResultCheckedData> = {}) => ({
  dispatched: true,
  returned: true,
  checked: { verdict, malformed: false, diagnostics: [], ...extra },
});

const accepted = (stepId: StepId, n: number, more: Partial<NonNullable<AttemptRecord["accepted"]>> = {}) => ({
  ...checked("accepted"),
  accepted: {
    step_id: stepId,
    attempt: n,
    status: "complete" as const,
    payload: { type: "evidence-dossier" as const, content: { findings: [], open_questions: [] } },
    gates: [],
    decisions_stood: [],
    ...more,
  },
});

function view(
  records: AttemptRecord[],
  opts: { questions?: Question[]; size?: number; rite?: string | null } = {},
): EngineView {
  return {
    journeyId: J,
    steps,
    ledger: {
      attempts: (s) => records.filter((r) => r.intent.step_id === s),
      size: opts.size ?? 0,
    },
    questions: opts.questions ?? [],
    active: {
      rite: opts.rite === undefined ? "rite-spec" : opts.rite,
      phase: opts.rite === null ? null : "spec",
    },
  };
}

const question = (over: Partial<Question>): Question => ({
  qid: "q-20260101-001",
  kind: "scope",
  question: "Include b?",
  options: [],
  raised_at: "2026-01-01T00:00:00.000Z",
  journey_id: J,
  step_id: GATE,
  ...over,
});

function round(over: Partial<Round> = {}): Round {
  return { phase: "scan", member: 0, before: 0, awaiting: [], outcomes: {}, ...over };
}
const inRound = (over: Partial<Round> = {}, step = 0): Cursor => ({
  at: "round",
  step,
  wave: 0,
  round: round(over),
});

const act = (v: EngineView, at: Cursor): Action => nextStep(v, at).action;

describe("nextStep: the journey's walk", () => {
  it("starts by marking the journey running, then enters the first step's rite when the state is elsewhere", () => {
    expect(nextStep(view([]), START)).toEqual({ action: { kind: "start" }, next: { at: "step", step: 0 } });
    expect(act(view([], { rite: null }), { at: "step", step: 0 })).toEqual({
      kind: "enter",
      rite: "rite-spec",
      phase: "spec",
    });
  });

  it("does not enter a rite the state already names: it announces the step instead", () => {
    expect(act(view([]), { at: "step", step: 0 })).toEqual({
      kind: "announce",
      event: { type: "step", step_id: A, rite: "rite-spec", phase: "spec", kind: "dispatch" },
    });
  });

  it("announces neither step nor wave when every member is already accepted, and goes to the gate", () => {
    const done = view([attempt(A, 1, accepted(A, 1)), attempt(B, 1, accepted(B, 1), 2)]);
    // The scan finds nothing to do; the round ends on a sync, then the wave end leads to the gate step.
    expect(act(done, { at: "body", step: 0 })).toEqual({ kind: "sync-runs" });
    expect(act(done, inRound({ phase: "dispatch" }))).toMatchObject({ kind: "raise-gate" });
  });

  it("raises a gate step's question once, pauses while it is unanswered, records the answer when given", () => {
    expect(act(view([]), { at: "body", step: 1 })).toEqual({
      kind: "raise-gate",
      announce: { type: "step", step_id: GATE, rite: "rite-spec", phase: "spec", kind: "gate" },
      question: { kind: "scope", question: "Include b?", options: [], step_id: GATE, journey_id: J },
    });
    const open = question({});
    expect(act(view([], { questions: [open] }), { at: "body", step: 1 })).toEqual({
      kind: "pause-gate",
      questions: [open],
    });
    const answered = question({ answer: "yes" });
    expect(nextStep(view([], { questions: [answered] }), { at: "body", step: 1 })).toEqual({
      action: {
        kind: "record-answers",
        decisions: [
          {
            source: "human",
            decision: "yes",
            rationale: "Include b?",
            qid: answered.qid,
            step_id: GATE,
            journey_id: J,
          },
        ],
      },
      next: { at: "step", step: 2 },
    });
  });

  it("ignores a question of another journey or a leaf gate when it looks for a gate step's question", () => {
    const other = question({ journey_id: "j-20260101T000000Z-ffffffff" });
    const leaf = question({ gate_id: "g1", run_id: run(1) });
    expect(act(view([], { questions: [other, leaf] }), { at: "body", step: 1 })).toMatchObject({
      kind: "raise-gate",
    });
  });

  it("skips a step whose condition is false and finishes after the last step", () => {
    const skip = view([], { questions: [question({ answer: "skip" })], rite: "rite-build" });
    expect(act(skip, { at: "step", step: 2 })).toEqual({ kind: "finish" });
    const go = view([], { questions: [question({ answer: "yes" })] });
    expect(act(go, { at: "step", step: 2 })).toEqual({ kind: "enter", rite: "rite-build", phase: "build" });
  });
});

describe("nextStep: the scan of a round", () => {
  it("writes a first attempt's intent for a member with none, with the objective its context gives", () => {
    const v = view([], { questions: [question({ answer: "yes" })], rite: "rite-build" });
    expect(nextStep(v, inRound({}, 2))).toEqual({
      action: {
        kind: "intent",
        data: {
          journey_id: J,
          step_id: W,
          attempt: 1,
          role: "devrites-slice-wright",
          rite: "rite-build",
          phase: "build",
          objective: "build; the human said yes",
        },
      },
      next: inRound({ member: 1 }, 2),
    });
  });

  it("passes over a member whose attempt is still open (it is dispatched later, not written again)", () => {
    const v = view([attempt(A, 1), attempt(B, 1, {}, 2)]);
    expect(nextStep(v, inRound())).toEqual({
      action: { kind: "sync-runs" },
      next: inRound({ phase: "dispatch" }),
    });
  });

  it("records the retry of a rejected attempt and stays on the member to write the next intent", () => {
    const rejected = attempt(A, 1, checked("rejected", { diagnostics: [{ code: "x.y", message: "bad" }] }));
    expect(nextStep(view([rejected]), inRound())).toEqual({
      action: {
        kind: "record",
        run_id: run(1),
        type: "step.retry",
        data: { step_id: A, attempt: 1, next_attempt: 2, fingerprint: `devrites-evidence-scout|${A}|x.y` },
      },
      next: inRound(),
    });
  });

  it("writes the retry's intent, quoting the defect, once the retry is recorded", () => {
    const retried = attempt(A, 1, {
      ...checked("rejected", { diagnostics: [{ code: "x.y", message: "bad" }] }),
      retried: { next_attempt: 2, fingerprint: "f" },
    });
    const a = act(view([retried]), inRound());
    expect(a).toMatchObject({ kind: "intent", data: { step_id: A, attempt: 2 } });
    expect(a.kind === "intent" && a.data.objective).toContain('"x.y: bad"');
  });

  it("treats a driver failure like a rejection: it is retried", () => {
    const failed = attempt(A, 1, {
      failed: [{ code: "engine.driver-error", message: "dispatch failed: x" }],
    });
    expect(act(view([failed]), inRound())).toMatchObject({ kind: "record", type: "step.retry" });
  });

  it("blocks a second malformed result instead of retrying it", () => {
    const bad = (n: number) =>
      attempt(A, n, {
        ...checked("rejected", { malformed: true }),
        retried: { next_attempt: n + 1, fingerprint: "f" },
      });
    expect(act(view([bad(1), bad(2)]), inRound())).toMatchObject({
      kind: "record",
      run_id: run(2),
      type: "step.blocked",
      data: { step_id: A, attempt: 2, kind: "technical", reason: "malformed-twice" },
    });
  });

  it("raises the gates an accepted result carries once each, and records its stood decisions", () => {
    const gate = {
      id: "g1",
      kind: "irreversible" as const,
      question: "Drop?",
      options: ["drop", " ", "drop"],
      recommendation: "keep",
    };
    const rec = attempt(
      A,
      1,
      accepted(A, 1, {
        gates: [gate, { ...gate, question: "again" }],
        decisions_stood: [{ decision: "sqlite", rationale: "dep" }],
      }),
    );
    expect(act(view([rec]), inRound())).toEqual({
      kind: "settle-accepted",
      run_id: run(1),
      decisions: [
        { source: "leaf", decision: "sqlite", rationale: "dep", run_id: run(1), step_id: A, journey_id: J },
      ],
      questions: [
        {
          kind: "irreversible",
          question: "Drop? (recommended: keep)",
          options: ["drop"],
          step_id: A,
          journey_id: J,
          run_id: run(1),
          gate_id: "g1",
        },
      ],
    });
  });

  it("does not raise a leaf gate already raised for that run, and has nothing to settle without decisions", () => {
    const gate = { id: "g1", kind: "irreversible" as const, question: "Drop?", options: [] };
    const rec = attempt(A, 1, accepted(A, 1, { gates: [gate] }));
    const other = attempt(B, 1, accepted(B, 1), 2);
    const raised = question({ step_id: A, run_id: run(1), gate_id: "g1" });
    expect(nextStep(view([rec, other], { questions: [raised] }), inRound()).action).toEqual({
      kind: "sync-runs",
    });
    // The same gate id raised for another run is not this one.
    const elsewhere = question({ step_id: A, run_id: run(9), gate_id: "g1" });
    expect(act(view([rec], { questions: [elsewhere] }), inRound())).toMatchObject({
      kind: "settle-accepted",
    });
  });
});

describe("nextStep: dispatch, collect, check", () => {
  it("dispatches every open attempt not yet confirmed, as one batch", () => {
    const a = act(view([attempt(A, 1), attempt(B, 1, {}, 2)]), inRound({ phase: "dispatch" }));
    expect(a.kind === "dispatch" && a.requests.map((r) => [r.step_id, r.run_id, r.objective])).toEqual([
      [A, run(1), "objective 1"],
      [B, run(2), "objective 1"],
    ]);
  });

  it("does not dispatch again what the ledger confirms as dispatched: it collects it", () => {
    const v = view([
      attempt(A, 1, { dispatched: true, packet_path: "p/a.json" }),
      attempt(B, 1, accepted(B, 1), 2),
    ]);
    expect(nextStep(v, inRound({ phase: "dispatch" }))).toEqual(nextStep(v, inRound({ phase: "collect" })));
    const a = act(v, inRound({ phase: "collect" }));
    expect(a.kind === "collect" && a.runs.map((r) => [r.request.step_id, r.packet_path])).toEqual([
      [A, "p/a.json"],
    ]);
  });

  it("names the default packet path of a run dispatched without a receipt's path", () => {
    const a = act(view([attempt(A, 1, { dispatched: true })]), inRound({ phase: "collect" }));
    expect(a.kind === "collect" && a.runs[0]?.packet_path).toBe(`.devrites/runs/${run(1)}/packet.json`);
  });

  it("checks what has returned and is not yet judged; a judged one is not judged again in the round", () => {
    const v = view([
      attempt(A, 1, { dispatched: true, returned: true }),
      attempt(B, 1, checked("accepted"), 2),
    ]);
    const a = act(v, inRound({ phase: "check" }));
    expect(a.kind === "check" && a.requests.map((r) => r.step_id)).toEqual([A]);
  });

  it("stops at the blockers when no member has an open attempt", () => {
    const blocked = {
      step_id: A,
      attempt: 3,
      kind: "technical" as const,
      reason: "attempts-exhausted" as const,
      fingerprint: "f",
      detail: "d",
    };
    const v = view([attempt(A, 3, { ...checked("rejected"), blocked }), attempt(B, 1, accepted(B, 1), 2)]);
    expect(act(v, inRound({ phase: "dispatch" }))).toEqual({
      kind: "stop-blocked",
      blockers: [{ ...blocked, run_id: run(3) }],
    });
    // A blocked member does not stop the others of its wave while they still have work.
    const busy = view([attempt(A, 3, { ...checked("rejected"), blocked }), attempt(B, 1, {}, 2)]);
    expect(act(busy, inRound({ phase: "dispatch" }))).toMatchObject({ kind: "dispatch" });
  });
});

describe("nextStep: persisting verdicts", () => {
  const ok = (over: Partial<CheckOutcome> = {}): CheckOutcome => ({
    verdict: "accepted",
    diagnostics: [],
    ...over,
  });
  const req = { run_id: run(1), role: "devrites-evidence-scout" as const, step_id: A };
  const checkedA = view([attempt(A, 1, checked("accepted"))]);

  it("persists the payload of a result accepted this round", () => {
    const result = makeResult({ ...req } as never);
    const at = inRound({
      phase: "persist",
      outcomes: { [run(1)]: ok({ result }) },
    });
    expect(nextStep(checkedA, at)).toEqual({
      action: {
        kind: "record",
        run_id: run(1),
        type: "step.accepted",
        data: {
          step_id: A,
          attempt: 1,
          status: "complete",
          payload: result.payload,
          gates: [],
          decisions_stood: [],
        },
      },
      next: inRound({ phase: "persist", member: 1, outcomes: at.at === "round" ? at.round.outcomes : {} }),
    });
  });

  it("judges again a result checked as accepted before a crash (no outcome this round)", () => {
    expect(nextStep(checkedA, inRound({ phase: "persist" }))).toMatchObject({
      action: { kind: "recheck", request: { run_id: run(1), step_id: A, attempt: 1 } },
      next: inRound({ phase: "persist" }),
    });
  });

  it("records a failing re-check as a failed attempt, never as accepted", () => {
    const at = observe(inRound({ phase: "persist" }), {
      kind: "checked",
      outcomes: {
        [run(1)]: ok({
          verdict: "rejected",
          diagnostics: [{ code: "result.stale", message: "m", severity: "error" }],
        }),
      },
    });
    expect(act(checkedA, at)).toEqual({
      kind: "record",
      run_id: run(1),
      type: "step.failed",
      data: { step_id: A, attempt: 1, diagnostics: [{ code: "result.stale", message: "m" }] },
    });
  });

  it("records an accepted verdict without a result as a failure of the driver", () => {
    const at = inRound({ phase: "persist", outcomes: { [run(1)]: ok() } });
    expect(act(checkedA, at)).toMatchObject({
      type: "step.failed",
      data: { diagnostics: [{ code: "engine.no-result" }] },
    });
  });

  it("records a leaf's escalation as a technical blocker", () => {
    const result = makeResult({ ...req } as never, {
      status: "blocked",
      escalation: { reason: "needs-human", detail: "x" } as never,
    });
    const at = inRound({
      phase: "persist",
      outcomes: { [run(1)]: ok({ result }) },
    });
    expect(act(checkedA, at)).toMatchObject({
      type: "step.blocked",
      data: {
        reason: "leaf-escalated",
        fingerprint: `devrites-evidence-scout|${A}|leaf.blocked`,
        detail: "needs-human: x",
      },
    });
  });

  it("passes over a rejected verdict (the next round retries it)", () => {
    const v = view([attempt(A, 1, checked("rejected"))]);
    expect(act(v, inRound({ phase: "persist" }))).toEqual({ kind: "sync-runs" });
  });
});

describe("nextStep: the end of a round", () => {
  const waiting = { run_id: run(1), step_id: A, role: "devrites-evidence-scout" as const, packet_path: "p" };
  const out = view([attempt(A, 1, { dispatched: true }), attempt(B, 1, { dispatched: true }, 2)], {
    size: 4,
  });

  it("pauses for the runs still out when the round appended nothing", () => {
    const at = observe(inRound({ phase: "end", before: 4 }), { kind: "awaiting", runs: [waiting] });
    expect(act(out, at)).toEqual({ kind: "pause-await", runs: [waiting] });
  });

  it("starts another round when the round appended something, even with runs still out", () => {
    const at = observe(inRound({ phase: "end", before: 3 }), { kind: "awaiting", runs: [waiting] });
    // The new round scans afresh: nothing for the open attempt, so it syncs and carries no stale awaiting.
    expect(nextStep(out, at)).toEqual({
      action: { kind: "sync-runs" },
      next: inRound({ phase: "dispatch", before: 4 }),
    });
  });

  it("fails loudly when a round moved nothing and nothing is out (a bug, never a pause)", () => {
    expect(act(out, inRound({ phase: "end", before: 4 }))).toMatchObject({ kind: "fail" });
  });

  it("holds the journey at a wave's end until the gates its results raised are answered", () => {
    const leafQ = question({ qid: "q-20260101-002", step_id: A, run_id: run(1), gate_id: "g1" });
    const v = view([attempt(A, 1, accepted(A, 1)), attempt(B, 1, accepted(B, 1), 2)], { questions: [leafQ] });
    expect(act(v, { at: "wave-end", step: 0, wave: 0 })).toEqual({ kind: "pause-gate", questions: [leafQ] });
    const answered = view([], { questions: [{ ...leafQ, answer: "keep" }] });
    expect(nextStep(answered, { at: "wave-end", step: 0, wave: 0 })).toMatchObject({
      action: {
        kind: "record-answers",
        decisions: [{ source: "human", decision: "keep", qid: leafQ.qid, step_id: A }],
      },
      next: { at: "wave", step: 0, wave: 1 },
    });
  });
});

describe("nextStep is pure", () => {
  it("gives the same plan for the same view and cursor, and leaves both untouched", () => {
    const records = [
      attempt(A, 1, checked("rejected", { diagnostics: [{ code: "x", message: "y" }] })),
      attempt(B, 1, {}, 2),
    ];
    const v = view(records);
    const at = inRound();
    const before = JSON.stringify({ records, at });
    expect(nextStep(v, at)).toEqual(nextStep(v, at));
    expect(JSON.stringify({ records, at })).toBe(before);
  });
});

describe("nextStep: which batch an attempt belongs to, by what the ledger says of it", () => {
  const blocked = {
    step_id: A,
    attempt: 1,
    kind: "technical" as const,
    reason: "leaf-escalated" as const,
    fingerprint: "f",
    detail: "d",
  };
  const states: Record<string, Partial<AttemptRecord>> = {
    "intent only": {},
    dispatched: { dispatched: true },
    returned: { dispatched: true, returned: true },
    "checked accepted, not persisted": checked("accepted"),
    "checked rejected": checked("rejected"),
    "failed in the driver": { dispatched: true, failed: [{ code: "engine.driver-error", message: "x" }] },
    accepted: accepted(A, 1),
    blocked: { ...checked("accepted"), blocked },
  };
  // Member B is accepted throughout, so only A's state decides. A phase with nothing for A falls through to
  // the next: "passed" is the end of the round reached without acting on A; "wave-end" is the wave over (the
  // next step, a gate, is raised).
  const table: [string, string, string, string, string][] = [
    // state, then the plan at: dispatch, collect, check, persist
    ["intent only", "dispatch", "passed", "passed", "passed"],
    ["dispatched", "collect", "collect", "passed", "passed"],
    ["returned", "check", "check", "check", "passed"],
    ["checked accepted, not persisted", "recheck", "recheck", "recheck", "recheck"],
    ["checked rejected", "wave-end", "passed", "passed", "passed"],
    ["failed in the driver", "wave-end", "passed", "passed", "passed"],
    ["accepted", "wave-end", "passed", "passed", "passed"],
    ["blocked", "stop-blocked", "passed", "passed", "passed"],
  ];
  const planAt = (state: string, phase: RoundPhase): string => {
    const v = view([attempt(A, 1, states[state]), attempt(B, 1, accepted(B, 1), 2)], { size: 1 });
    const { action, next } = nextStep(v, inRound({ phase, before: 1 }));
    if (action.kind === "sync-runs" && next.at === "round" && next.round.phase === "end") return "passed";
    if (action.kind === "raise-gate") return "wave-end";
    return action.kind;
  };
  it.each(table)("%s: dispatch → %s, collect → %s, check → %s, persist → %s", (state, d, c, k, p) => {
    expect((["dispatch", "collect", "check", "persist"] as const).map((ph) => planAt(state, ph))).toEqual([
      d,
      c,
      k,
      p,
    ]);
  });
});
