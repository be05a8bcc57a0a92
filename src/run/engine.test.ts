import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { error } from "../core/diagnostics.js";
import { newJourneyId } from "../envelope/ids.js";
import { readDecisions } from "./decisions.js";
import { driveJourney, layoutJourney, runJourney } from "./engine.js";
import type { EngineEvent, Journey } from "./engine-types.js";
import { FakeDriver, type FakeScript } from "./fake-driver.js";
import { answerQuestion, readQuestions } from "./questions.js";
import { listRunDirs, readJsonLines, readRunEvents, readState, workspacePaths } from "./workspace.js";
import type { JourneyRef, RunEvent } from "./workspace-types.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-engine-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function ref(): JourneyRef {
  const t = new Date().toISOString();
  return { id: newJourneyId(t), name: "test", driver: "fake", status: "running", started_at: t };
}

const scout = (path: string, objective = `survey ${path}`) => ({
  role: "devrites-evidence-scout" as const,
  objective,
  scope: { in: [path], out: [], allowed_repo_writes: [] },
});

const fullJourney: Journey = {
  name: "test",
  steps: [
    { kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src/a"), scout("src/b")] },
    {
      kind: "gate",
      rite: "rite-spec",
      phase: "spec",
      gate: { kind: "product", question: "Ship the CSV export?", options: ["yes", "no"] },
    },
    {
      kind: "dispatch",
      rite: "rite-build",
      phase: "build",
      packets: [
        {
          role: "devrites-slice-wright",
          objective: (ctx) => `build it; the human said ${ctx.answer("rite-spec/human#1")}`,
          scope: { in: ["src"], out: [], allowed_repo_writes: ["src/a/x.ts"] },
        },
      ],
    },
  ],
};

async function drive(journey: Journey, r: JourneyRef, driver: FakeDriver) {
  const events: EngineEvent[] = [];
  const outcome = await driveJourney({ root, journey, ref: r, driver }, (e) => {
    events.push(e);
  });
  return { events, outcome };
}

function allRunEvents(): RunEvent[] {
  return listRunDirs(root).flatMap((id) => readRunEvents(root, id).values);
}

describe("layoutJourney", () => {
  it("numbers steps per rite and actor, gates as human", () => {
    const { steps, diagnostics } = layoutJourney(fullJourney);
    expect(diagnostics).toEqual([]);
    expect(steps.map((s) => (s.kind === "gate" ? s.stepId : s.stepIds))).toEqual([
      ["rite-spec/devrites-evidence-scout#1", "rite-spec/devrites-evidence-scout#2"],
      "rite-spec/human#1",
      ["rite-build/devrites-slice-wright#1"],
    ]);
  });

  it("rejects a bad rite, an empty dispatch and a reader with writes", () => {
    const { diagnostics } = layoutJourney({
      name: "bad",
      steps: [
        { kind: "dispatch", rite: "build", phase: "build", packets: [] },
        {
          kind: "dispatch",
          rite: "rite-x",
          phase: "build",
          packets: [
            {
              role: "devrites-code-reviewer",
              objective: "o",
              scope: { in: [], out: [], allowed_repo_writes: ["a"] },
            },
          ],
        },
      ],
    });
    expect(diagnostics.map((d) => d.code).sort()).toEqual([
      "journey.bad-rite",
      "journey.empty-dispatch",
      "journey.reader-writes",
    ]);
  });
});

describe("runJourney", () => {
  it("pauses at a human gate, resumes after the answer, and dispatches every step once", async () => {
    const r = ref();
    const d1 = new FakeDriver();
    const first = await drive(fullJourney, r, d1);
    expect(first.outcome.status).toBe("gate");
    const gate = first.events.find((e) => e.type === "gate");
    expect(gate?.type === "gate" && gate.question).toMatchObject({
      kind: "product",
      step_id: "rite-spec/human#1",
      journey_id: r.id,
      options: ["yes", "no"],
    });
    expect(d1.sent.map((s) => s.step_id)).toEqual([
      "rite-spec/devrites-evidence-scout#1",
      "rite-spec/devrites-evidence-scout#2",
    ]);
    const st = readState(root, "x");
    expect(st.ok && st.state.journey?.status).toBe("paused-gate");

    // Resuming before the answer pauses again on the same question, raising nothing new.
    const again = await drive(fullJourney, r, new FakeDriver());
    expect(again.outcome.status).toBe("gate");
    expect(readQuestions(root).questions).toHaveLength(1);

    const qid = readQuestions(root).questions[0]?.qid ?? "";
    expect(answerQuestion(root, qid, "yes", new Date().toISOString()).ok).toBe(true);
    const d2 = new FakeDriver();
    const second = await drive(fullJourney, r, d2);
    expect(second.outcome.status).toBe("done");
    expect(d2.sent.map((s) => s.step_id)).toEqual(["rite-build/devrites-slice-wright#1"]);
    expect(d2.sent[0]?.objective).toBe("build it; the human said yes");
    expect(readDecisions(root).decisions).toMatchObject([{ source: "human", decision: "yes", qid }]);
    const done = readState(root, "x");
    expect(done.ok && done.state).toMatchObject({ active_rite: null, phase: null, active_runs: [] });
    expect(done.ok && done.state.journey?.status).toBe("done");

    // Every attempt went intent → dispatched → returned → checked → accepted, in that order.
    for (const id of listRunDirs(root)) {
      expect(readRunEvents(root, id).values.map((e) => e.type)).toEqual([
        "step.intent",
        "step.dispatched",
        "result.returned",
        "result.checked",
        "step.accepted",
      ]);
    }
    // A third run has nothing left to dispatch.
    const d3 = new FakeDriver();
    expect((await drive(fullJourney, r, d3)).outcome.status).toBe("done");
    expect(d3.calls).toEqual([]);
  });

  it("retries a malformed result once, quoting the exact defect, then blocks without asking a human", async () => {
    const defect = error("envelope.schema", "payload.content.findings: expected array, got string", {
      path: ".devrites/runs/x/result.json",
    });
    const d = new FakeDriver(() => ({ verdict: "rejected", malformed: true, diagnostics: [defect] }));
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src")] }],
    };
    const { outcome, events } = await drive(j, ref(), d);
    expect(outcome.status).toBe("blocked");
    expect(d.sent.map((s) => s.attempt)).toEqual([1, 2]);
    expect(d.sent[1]?.objective).toContain(
      `"envelope.schema (.devrites/runs/x/result.json): payload.content.findings: expected array, got string"`,
    );
    expect(d.sent[0]?.objective).toBe("survey src");
    const blocked = events.find((e) => e.type === "blocked");
    expect(blocked?.type === "blocked" && blocked.blocker).toMatchObject({
      kind: "technical",
      reason: "malformed-twice",
      attempt: 2,
      fingerprint: "devrites-evidence-scout|rite-spec/devrites-evidence-scout#1|envelope.schema",
    });
    expect(readQuestions(root).questions).toEqual([]);
    expect(allRunEvents().filter((e) => e.type === "step.blocked")).toHaveLength(1);
    const st = readState(root, "x");
    expect(st.ok && st.state.journey?.status).toBe("blocked");
    expect(st.ok && st.state.active_runs).toEqual([]);
  });

  it("blocks after three attempts with the same causal fingerprint", async () => {
    const d = new FakeDriver(() => ({
      verdict: "rejected",
      diagnostics: [
        error("result.stale", "baseline moved"),
        error("result.budget-exceeded", "too many files"),
      ],
    }));
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src")] }],
    };
    const { outcome } = await drive(j, ref(), d);
    expect(outcome.status === "blocked" && outcome.blockers[0]).toMatchObject({
      reason: "fingerprint-exhausted",
      attempt: 3,
      fingerprint:
        "devrites-evidence-scout|rite-spec/devrites-evidence-scout#1|result.budget-exceeded,result.stale",
    });
    expect(d.sent.map((s) => s.attempt)).toEqual([1, 2, 3]);
    expect(readQuestions(root).questions).toEqual([]);
  });

  it("blocks when attempts run out with changing fingerprints", async () => {
    const codes = ["result.stale", "result.out-of-scope", "result.budget-exceeded"] as const;
    const d = new FakeDriver((req) => ({
      verdict: "rejected",
      diagnostics: [error(codes[req.attempt - 1] ?? "result.stale", "bad")],
    }));
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src")] }],
    };
    const { outcome } = await drive(j, ref(), d);
    expect(outcome.status === "blocked" && outcome.blockers[0]?.reason).toBe("attempts-exhausted");
  });

  it("accepts a corrected retry and continues", async () => {
    const d = new FakeDriver((req) =>
      req.attempt === 1
        ? {
            verdict: "rejected",
            malformed: true,
            diagnostics: [error("record.malformed-json", "Unexpected token")],
          }
        : undefined,
    );
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src")] }],
    };
    const { outcome, events } = await drive(j, ref(), d);
    expect(outcome.status).toBe("done");
    expect(events.filter((e) => e.type === "run").map((e) => e.type === "run" && e.event.type)).toEqual([
      "step.intent",
      "step.dispatched",
      "result.returned",
      "result.checked",
      "step.retry",
      "step.intent",
      "step.dispatched",
      "result.returned",
      "result.checked",
      "step.accepted",
    ]);
  });

  it("counts a driver error as a failed attempt, never as success", async () => {
    const d = new FakeDriver((req) => (req.attempt === 1 ? { throwIn: "check" } : undefined));
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src")] }],
    };
    const { outcome } = await drive(j, ref(), d);
    expect(outcome.status).toBe("done");
    const failed = allRunEvents().find((e) => e.type === "step.failed");
    expect(failed?.data).toMatchObject({ diagnostics: [{ code: "engine.driver-error" }] });
    expect(d.sent.map((s) => s.attempt)).toEqual([1, 2]);
  });

  it("pauses while a leaf is out (await) and collects it on resume without dispatching again", async () => {
    let out = true;
    const script: FakeScript = () => (out ? { pending: true } : undefined);
    const r = ref();
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("src")] }],
    };
    const d1 = new FakeDriver(script);
    const first = await drive(j, r, d1);
    expect(first.outcome.status).toBe("await");
    expect(first.outcome.status === "await" && first.outcome.runs[0]).toMatchObject({
      step_id: "rite-spec/devrites-evidence-scout#1",
      role: "devrites-evidence-scout",
      instruction: "spawn devrites-evidence-scout",
    });
    const st = readState(root, "x");
    expect(st.ok && st.state.active_runs.map((a) => a.step_id)).toEqual([
      "rite-spec/devrites-evidence-scout#1",
    ]);
    out = false;
    const d2 = new FakeDriver(script);
    const second = await drive(j, r, d2);
    expect(second.outcome.status).toBe("done");
    expect(d2.calls.map((c) => c.method)).toEqual(["collect", "check"]);
  });

  it("plans waves: three readers at most, overlapping scopes serial, the writer alone", async () => {
    const j: Journey = {
      name: "t",
      steps: [
        {
          kind: "dispatch",
          rite: "rite-review",
          phase: "review",
          packets: [
            scout("src/a"),
            scout("src/b"),
            scout("src/a/deep"),
            scout("src/c"),
            scout("src/d"),
            {
              role: "devrites-slice-wright",
              objective: "fix",
              scope: { in: ["src/e"], out: [], allowed_repo_writes: ["src/e/x.ts"] },
            },
            scout("src/f"),
          ],
        },
      ],
    };
    const { events, outcome } = await drive(j, ref(), new FakeDriver());
    expect(outcome.status).toBe("done");
    const waves = events.flatMap((e) => (e.type === "wave" ? [e.step_ids.map((s) => s.split("#")[1])] : []));
    // scouts #1 a, #2 b, #3 a/deep (overlaps a), #4 c, #5 d; wright; scout #6 f.
    expect(waves).toEqual([["1", "2", "4"], ["3", "5"], ["1"], ["6"]]);
  });

  it("raises the gates an accepted result carries, records stood decisions, and waits for the answers", async () => {
    const r = ref();
    const j: Journey = {
      name: "t",
      steps: [
        { kind: "dispatch", rite: "rite-plan", phase: "plan", packets: [scout("src")] },
        { kind: "dispatch", rite: "rite-plan", phase: "plan", packets: [scout("docs")] },
      ],
    };
    const script: FakeScript = (req) =>
      req.step_id.endsWith("#1")
        ? {
            result: {
              gates: [
                {
                  id: "db",
                  kind: "irreversible",
                  question: "Drop the old table?",
                  options: ["drop", "keep"],
                },
              ],
              decisions_stood: [{ decision: "use sqlite", rationale: "already a dependency" }],
            },
          }
        : undefined;
    const d1 = new FakeDriver(script);
    const first = await drive(j, r, d1);
    expect(first.outcome.status).toBe("gate");
    const q = readQuestions(root).questions[0];
    expect(q).toMatchObject({
      kind: "irreversible",
      gate_id: "db",
      step_id: "rite-plan/devrites-evidence-scout#1",
    });
    expect(readDecisions(root).decisions).toMatchObject([{ source: "leaf", decision: "use sqlite" }]);
    expect(d1.sent).toHaveLength(1);
    answerQuestion(root, q?.qid ?? "", "keep", new Date().toISOString());
    const d2 = new FakeDriver(script);
    expect((await drive(j, r, d2)).outcome.status).toBe("done");
    expect(d2.sent.map((s) => s.step_id)).toEqual(["rite-plan/devrites-evidence-scout#2"]);
    expect(readDecisions(root).decisions.map((x) => x.decision)).toEqual(["use sqlite", "keep"]);
    expect(readQuestions(root).questions).toHaveLength(1);
  });

  it("records a leaf's escalation as a technical blocker", async () => {
    const d = new FakeDriver(() => ({
      result: { status: "blocked", escalation: { reason: "tooling", detail: "no compiler" } },
    }));
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-prove", phase: "prove", packets: [scout("src")] }],
    };
    const { outcome } = await drive(j, ref(), d);
    expect(outcome.status === "blocked" && outcome.blockers[0]).toMatchObject({
      reason: "leaf-escalated",
      detail: "tooling: no compiler",
    });
    expect(readQuestions(root).questions).toEqual([]);
  });

  it("skips a step whose condition is false", async () => {
    const j: Journey = {
      name: "t",
      steps: [
        { kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("a")], when: () => false },
        { kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("b")] },
      ],
    };
    const d = new FakeDriver();
    expect((await drive(j, ref(), d)).outcome.status).toBe("done");
    expect(d.sent.map((s) => s.step_id)).toEqual(["rite-spec/devrites-evidence-scout#2"]);
  });

  it("refuses a second engine on the same workspace while the first runs", async () => {
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("a")] }],
    };
    const gen = runJourney({ root, journey: j, ref: ref(), driver: new FakeDriver() });
    await gen.next(); // holds the lock now
    const other = await driveJourney({ root, journey: j, ref: ref(), driver: new FakeDriver() });
    expect(other.status === "refused" && other.diagnostics[0]?.code).toBe("engine.locked");
    await gen.return({ status: "idle", diagnostics: [] });
    const after = await driveJourney({ root, journey: j, ref: ref(), driver: new FakeDriver() });
    expect(after.status).toBe("done");
  });

  it("refuses a corrupt state.json and leaves it untouched", async () => {
    const abs = join(root, workspacePaths.state);
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("a")] }],
    };
    await driveJourney({ root, journey: j, ref: ref(), driver: new FakeDriver() });
    writeFileSync(abs, "{ not json");
    const out = await driveJourney({ root, journey: j, ref: ref(), driver: new FakeDriver() });
    expect(out.status === "refused" && out.diagnostics[0]?.code).toBe("workspace.state-invalid");
    expect(readFileSync(abs, "utf8")).toBe("{ not json");
  });

  it("resumes past a torn ledger line without losing it or what follows", async () => {
    const r = ref();
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("a")] }],
    };
    let out = true;
    await drive(j, r, new FakeDriver(() => (out ? { pending: true } : undefined)));
    const run = listRunDirs(root)[0] ?? "";
    const abs = join(root, workspacePaths.events(run));
    appendFileSync(abs, '{"ts":"2026-'); // a crash mid-append
    out = false;
    expect((await drive(j, r, new FakeDriver())).outcome.status).toBe("done");
    const read = readJsonLines<RunEvent>(abs, "events.jsonl");
    expect(read.diagnostics.map((d) => d.code)).toEqual(["ledger.corrupt-line"]);
    expect(readFileSync(abs, "utf8")).toContain('{"ts":"2026-\n');
    expect(read.values.map((e) => e.type)).toEqual([
      "step.intent",
      "step.dispatched",
      "result.returned",
      "result.checked",
      "step.accepted",
    ]);
  });

  it("judges again a result checked as accepted before a crash; a failing re-check is a failed attempt", async () => {
    const r = ref();
    const j: Journey = {
      name: "t",
      steps: [{ kind: "dispatch", rite: "rite-spec", phase: "spec", packets: [scout("a")] }],
    };
    await drive(j, r, new FakeDriver(() => ({ pending: true })));
    const run = listRunDirs(root)[0] ?? "";
    const abs = join(root, workspacePaths.events(run));
    const step = { step_id: "rite-spec/devrites-evidence-scout#1", attempt: 1 };
    const line = (type: string, data: Record<string, unknown>) =>
      `${JSON.stringify({ ts: new Date().toISOString(), run_id: run, type, data })}\n`;
    // The crash: checked as accepted, killed before the payload was persisted.
    appendFileSync(
      abs,
      line("result.returned", step) + line("result.checked", { ...step, verdict: "accepted" }),
    );
    const d = new FakeDriver((req) => (req.attempt === 1 ? { throwIn: "check" } : undefined));
    expect((await drive(j, r, d)).outcome.status).toBe("done");
    expect(
      readRunEvents(root, run)
        .values.map((e) => e.type)
        .slice(-2),
    ).toEqual(["step.failed", "step.retry"]);
    expect(d.sent.map((s) => s.attempt)).toEqual([2]);
  });
});
