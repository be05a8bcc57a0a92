/**
 * What the engine does next (pure): given what the ledger and the questions say and where the engine is in
 * the journey, the one action to perform now and where to continue after it. No I/O, no clock, no random
 * ids — the loop in `./engine.ts` performs the action (driver, ledger, state), then asks again.
 *
 * The journey is walked step by step, and a dispatch step wave by wave. A wave runs in rounds, each in the
 * same order: a scan of its members (raise what accepted results carry, write a first intent, decide a
 * retry or a block), then every open attempt dispatched, collected and checked as a batch, then the verdicts
 * persisted member by member. A round that appended nothing pauses for the runs still out.
 *
 * Everything a round needs is read from the ledger, except what the driver said this round and the ledger
 * does not hold — which runs are still out, and the check outcomes not yet persisted — carried in the
 * {@link Cursor}. A cursor is never stored: after a crash the engine starts from {@link START} and the same
 * function, seeing the ledger, continues where the journey stopped.
 */

import { ROLES } from "../envelope/roles.js";
import type { Phase, RunId } from "../envelope/types.js";
import type { DecisionInput } from "./decisions.js";
import type {
  AwaitingRun,
  Blocker,
  CheckOutcome,
  DispatchRequest,
  DispatchStep,
  GateStep,
  JourneyContext,
  PacketSpec,
} from "./engine-types.js";
import type { LaidStep } from "./layout.js";
import { type AttemptRecord, attemptSettled, EV } from "./ledger.js";
import { planWaves } from "./plan.js";
import type { RaiseInput } from "./questions.js";
import { decideRetry, type RejectedAttempt, retryObjective } from "./retry.js";
import { workspacePaths } from "./workspace.js";
import type { JourneyId, Question, StepId, StepIntentData } from "./workspace-types.js";

/** The ledger as the planner reads it (`JourneyLedger` is one). */
export interface LedgerView {
  /** Every attempt of a step, oldest first. */
  attempts(stepId: StepId): readonly AttemptRecord[];
  /** Events appended since the engine started: a round that does not grow it made no progress. */
  readonly size: number;
}

/** Everything the planner may look at. */
export interface EngineView {
  journeyId: JourneyId;
  steps: readonly LaidStep[];
  ledger: LedgerView;
  questions: readonly Question[];
  /** `state.json`'s rite and phase. */
  active: { rite: string | null; phase: Phase | null };
}

export type RoundPhase = "scan" | "dispatch" | "dispatch-sync" | "collect" | "check" | "persist" | "end";

/** One round of one wave, and what the driver said during it that the ledger does not hold. */
export interface Round {
  phase: RoundPhase;
  /** The member the scan or the persist pass is at. */
  member: number;
  /** The ledger's size when the round began. */
  before: number;
  /** Runs the driver reported still out (collect). */
  awaiting: AwaitingRun[];
  /**
   * Check outcomes by run id, not yet persisted. A rejection judged this round is already settled by its
   * `result.checked`, so a rejection seen while persisting is a re-check's.
   */
  outcomes: Readonly<Record<RunId, CheckOutcome>>;
}

/** Where the engine is in the journey. */
export type Cursor =
  | { at: "start" }
  | { at: "step"; step: number }
  | { at: "body"; step: number }
  | { at: "wave"; step: number; wave: number }
  | { at: "round"; step: number; wave: number; round: Round }
  | { at: "wave-end"; step: number; wave: number };

export const START: Cursor = { at: "start" };

/** A run whose result the loop must collect; `packet_path` names it to the host while it is out. */
export interface CollectItem {
  request: DispatchRequest;
  packet_path: string;
}

/** What the loop performs. Terminal actions (`pause-gate`, `pause-await`, `stop-blocked`, `finish`, `fail`) end it. */
export type Action =
  /** Mark the journey running and derive `state.active_runs` from the ledger. */
  | { kind: "start" }
  /** Record the step's rite and phase in `state.json`. */
  | { kind: "enter"; rite: string; phase: Phase }
  /** Stream a progress event (nothing is written). */
  | { kind: "announce"; event: { type: "wave"; step_ids: StepId[] } | AnnounceStep }
  /** Raise a gate step's question (announcing the step first). */
  | { kind: "raise-gate"; announce: AnnounceStep; question: RaiseInput }
  /** Of an accepted result: record its stood decisions (once each) and raise its gates not yet raised. */
  | { kind: "settle-accepted"; run_id: RunId; decisions: DecisionInput[]; questions: RaiseInput[] }
  /** Human answers become accepted decisions (once each). */
  | { kind: "record-answers"; decisions: DecisionInput[] }
  /** Write the intent of a new attempt under a freshly minted run id. */
  | { kind: "intent"; data: StepIntentData }
  /** Append one ledger event decided here: a retry, a block, an acceptance, a failed re-check. */
  | { kind: "record"; run_id: RunId; type: string; data: Record<string, unknown> }
  /** Derive `state.active_runs` from the ledger again. */
  | { kind: "sync-runs" }
  | { kind: "dispatch"; requests: DispatchRequest[] }
  | { kind: "collect"; runs: CollectItem[] }
  | { kind: "check"; requests: DispatchRequest[] }
  /** Judge again a result checked as accepted before a crash (checks are pure). */
  | { kind: "recheck"; request: DispatchRequest }
  | { kind: "pause-gate"; questions: Question[] }
  | { kind: "pause-await"; runs: AwaitingRun[] }
  | { kind: "stop-blocked"; blockers: Blocker[] }
  | { kind: "finish" }
  /** The planner found itself stuck: a bug, never a state of the journey. */
  | { kind: "fail"; message: string };

export type AnnounceStep = {
  type: "step";
  step_id: StepId;
  rite: string;
  phase: Phase;
  kind: "dispatch" | "gate";
};

export interface Plan {
  action: Action;
  /** Where to continue once the action is performed (with {@link observe} for what the driver said). */
  next: Cursor;
}

/** What the driver said, folded into the cursor: still-out runs from `collect`, outcomes from `check`. */
export type Observation =
  | { kind: "awaiting"; runs: AwaitingRun[] }
  | { kind: "checked"; outcomes: Readonly<Record<RunId, CheckOutcome>> };

export function observe(at: Cursor, o: Observation): Cursor {
  if (at.at !== "round") return at;
  const r = at.round;
  if (o.kind === "awaiting") return { ...at, round: { ...r, awaiting: [...r.awaiting, ...o.runs] } };
  return { ...at, round: { ...r, outcomes: { ...r.outcomes, ...o.outcomes } } };
}

/** The next action and where to continue after it. */
export function nextStep(view: EngineView, at: Cursor): Plan {
  switch (at.at) {
    case "start":
      return { action: { kind: "start" }, next: { at: "step", step: 0 } };
    case "step":
      return enterStep(view, at.step);
    case "body":
      return stepBody(view, at.step);
    case "wave":
      return enterWave(view, at.step, at.wave);
    case "round":
      return roundStep(view, at);
    case "wave-end":
      return waveEnd(view, at.step, at.wave);
  }
}

/** The context a step's objective and condition see. */
export function contextOf(view: EngineView): JourneyContext {
  return {
    journeyId: view.journeyId,
    accepted: (stepId) => {
      const a = acceptedOf(view, stepId)?.accepted;
      return a ? { status: a.status, payload: a.payload } : undefined;
    },
    answer: (stepId) => gateQuestion(view, stepId)?.answer,
  };
}

function enterStep(view: EngineView, i: number): Plan {
  const ls = view.steps[i];
  if (!ls) return { action: { kind: "finish" }, next: { at: "step", step: i } };
  const step = ls.step;
  if (step.when && !step.when(contextOf(view))) return nextStep(view, { at: "step", step: i + 1 });
  if (view.active.rite !== step.rite || view.active.phase !== step.phase)
    return { action: { kind: "enter", rite: step.rite, phase: step.phase }, next: { at: "body", step: i } };
  return nextStep(view, { at: "body", step: i });
}

function stepBody(view: EngineView, i: number): Plan {
  const ls = view.steps[i] as LaidStep;
  const here: Cursor = { at: "body", step: i };
  if (ls.kind === "gate") {
    const q = gateQuestion(view, ls.stepId);
    if (!q) {
      const g = (ls.step as GateStep).gate;
      return {
        action: {
          kind: "raise-gate",
          announce: {
            type: "step",
            step_id: ls.stepId,
            rite: ls.step.rite,
            phase: ls.step.phase,
            kind: "gate",
          },
          question: {
            kind: g.kind,
            question: g.question,
            options: g.options ?? [],
            step_id: ls.stepId,
            journey_id: view.journeyId,
          },
        },
        next: here,
      };
    }
    if (q.answer === undefined) return { action: { kind: "pause-gate", questions: [q] }, next: here };
    return recordAnswersThen(view, [ls.stepId], { at: "step", step: i + 1 });
  }
  const next: Cursor = { at: "wave", step: i, wave: 0 };
  if (ls.stepIds.some((s) => !acceptedOf(view, s)))
    return {
      action: {
        kind: "announce",
        event: {
          type: "step",
          step_id: ls.stepIds[0] as StepId,
          rite: ls.step.rite,
          phase: ls.step.phase,
          kind: "dispatch",
        },
      },
      next,
    };
  return nextStep(view, next);
}

function enterWave(view: EngineView, i: number, w: number): Plan {
  const members = waveMembers(view, i, w);
  if (!members) return nextStep(view, { at: "step", step: i + 1 });
  const next: Cursor = { at: "round", step: i, wave: w, round: newRound(view) };
  if (members.some((m) => !acceptedOf(view, m.stepId)))
    return {
      action: { kind: "announce", event: { type: "wave", step_ids: members.map((m) => m.stepId) } },
      next,
    };
  return nextStep(view, next);
}

/** Gates raised by accepted results hold the journey until every one is answered. */
function waveEnd(view: EngineView, i: number, w: number): Plan {
  const stepIds = (waveMembers(view, i, w) ?? []).map((m) => m.stepId);
  const open = view.questions.filter(
    (q) =>
      q.journey_id === view.journeyId &&
      q.gate_id !== undefined &&
      q.step_id !== undefined &&
      stepIds.includes(q.step_id) &&
      q.answer === undefined,
  );
  if (open.length > 0)
    return { action: { kind: "pause-gate", questions: open }, next: { at: "wave-end", step: i, wave: w } };
  return recordAnswersThen(view, stepIds, { at: "wave", step: i, wave: w + 1 });
}

function recordAnswersThen(view: EngineView, stepIds: readonly StepId[], next: Cursor): Plan {
  const decisions: DecisionInput[] = view.questions
    .filter(
      (q) =>
        q.journey_id === view.journeyId && q.answer !== undefined && q.step_id && stepIds.includes(q.step_id),
    )
    .map((q) => ({
      source: "human",
      decision: q.answer as string,
      rationale: q.question,
      qid: q.qid,
      step_id: q.step_id as StepId,
      journey_id: view.journeyId,
    }));
  if (decisions.length === 0) return nextStep(view, next);
  return { action: { kind: "record-answers", decisions }, next };
}

/** A round as its phases see it. */
interface InRound {
  view: EngineView;
  at: Extract<Cursor, { at: "round" }>;
  members: Member[];
  round: Round;
  /** The cursor at another phase (and member) of this round. */
  to(phase: RoundPhase, member?: number): Cursor;
  /** The members whose latest attempt is open and matches `pick`. */
  open(pick: (rec: AttemptRecord) => boolean): { m: Member; rec: AttemptRecord }[];
}

function roundStep(view: EngineView, at: Extract<Cursor, { at: "round" }>): Plan {
  const members = waveMembers(view, at.step, at.wave) ?? [];
  const round = at.round;
  const c: InRound = {
    view,
    at,
    members,
    round,
    to: (phase, member = 0) => ({ ...at, round: { ...round, phase, member } }),
    open: (pick) =>
      members.flatMap((m) => {
        const rec = latest(view, m.stepId);
        return rec && !attemptSettled(rec) && pick(rec) ? [{ m, rec }] : [];
      }),
  };
  switch (round.phase) {
    case "scan":
      return scanPhase(c);
    case "dispatch":
      return dispatchPhase(c);
    case "dispatch-sync":
      return { action: { kind: "sync-runs" }, next: c.to("collect") };
    case "collect":
      return collectPhase(c);
    case "check":
      return checkPhase(c);
    case "persist":
      return persistPhase(c);
    case "end":
      return roundEnd(c);
  }
}

function scanPhase({ view, members, round, to }: InRound): Plan {
  const m = members[round.member];
  if (!m) return { action: { kind: "sync-runs" }, next: to("dispatch") };
  const found = scanMember(view, m);
  if (!found) return nextStep(view, to("scan", round.member + 1));
  return { action: found.action, next: to("scan", found.stay ? round.member : round.member + 1) };
}

/** Stop at the blockers (or end the wave) when no member has an open attempt; else dispatch the unsent. */
function dispatchPhase({ view, at, members, to, open }: InRound): Plan {
  if (open(() => true).length === 0) {
    const blockers: Blocker[] = members.flatMap((m) => {
      const rec = latest(view, m.stepId);
      return rec?.blocked ? [{ ...rec.blocked, run_id: rec.run_id }] : [];
    });
    if (blockers.length > 0) return { action: { kind: "stop-blocked", blockers }, next: at };
    return nextStep(view, { at: "wave-end", step: at.step, wave: at.wave });
  }
  // Every attempt not yet confirmed as dispatched (the driver is idempotent per run id).
  const todo = open((rec) => !rec.dispatched);
  if (todo.length === 0) return nextStep(view, to("collect"));
  return {
    action: { kind: "dispatch", requests: todo.map((w) => requestOf(view, w.m, w.rec)) },
    next: to("dispatch-sync"),
  };
}

function collectPhase({ view, to, open }: InRound): Plan {
  const todo = open((rec) => rec.dispatched && !rec.returned);
  if (todo.length === 0) return nextStep(view, to("check"));
  const runs = todo.map((w) => ({
    request: requestOf(view, w.m, w.rec),
    packet_path: w.rec.packet_path ?? workspacePaths.packet(w.rec.run_id),
  }));
  return { action: { kind: "collect", runs }, next: to("check") };
}

function checkPhase({ view, to, open }: InRound): Plan {
  const todo = open((rec) => rec.returned && !rec.checked);
  if (todo.length === 0) return nextStep(view, to("persist"));
  return {
    action: { kind: "check", requests: todo.map((w) => requestOf(view, w.m, w.rec)) },
    next: to("persist"),
  };
}

function persistPhase({ view, at, members, round, to }: InRound): Plan {
  const m = members[round.member];
  if (!m) return { action: { kind: "sync-runs" }, next: to("end") };
  const rec = latest(view, m.stepId);
  if (!rec?.checked || attemptSettled(rec)) return nextStep(view, to("persist", round.member + 1));
  const seen = round.outcomes[rec.run_id];
  // Checked as accepted before a crash, its payload not persisted: judge it again.
  if (!seen) return { action: { kind: "recheck", request: requestOf(view, m, rec) }, next: at };
  return { action: persistVerdict(m, rec, seen), next: to("persist", round.member + 1) };
}

/**
 * Pause for the runs still out only when nothing else moved: retries of rejected members and the gates of
 * accepted ones go ahead first.
 */
function roundEnd({ view, at, round }: InRound): Plan {
  if (view.ledger.size !== round.before)
    return nextStep(view, { at: "round", step: at.step, wave: at.wave, round: newRound(view) });
  if (round.awaiting.length > 0) return { action: { kind: "pause-await", runs: round.awaiting }, next: at };
  const message = "engine made no progress on a wave with nothing outstanding (a bug)";
  return { action: { kind: "fail", message }, next: at };
}

/** A member's share of the scan: what its latest attempt calls for, and whether it calls for more after. */
function scanMember(view: EngineView, m: Member): { action: Action; stay: boolean } | undefined {
  const rec = latest(view, m.stepId);
  if (rec?.accepted) {
    const action = settleAccepted(view, rec);
    return action ? { action, stay: false } : undefined;
  }
  if (rec?.blocked) return undefined;
  if (!rec) return { action: intent(view, m, 1, objectiveOf(view, m)), stay: false };
  if (!attemptSettled(rec)) return undefined;
  const history: RejectedAttempt[] = view.ledger
    .attempts(m.stepId)
    .filter((a) => attemptSettled(a) && !a.accepted)
    .map((a) => ({
      attempt: a.intent.attempt,
      malformed: a.checked?.malformed === true,
      diagnostics: a.failed ?? a.checked?.diagnostics ?? [],
    }));
  const decision = decideRetry(m.spec.role, m.stepId, history);
  const base = { step_id: m.stepId, attempt: rec.intent.attempt };
  if (decision.action === "block") {
    const data = {
      ...base,
      kind: "technical",
      reason: decision.reason,
      fingerprint: decision.fingerprint,
      detail: decision.detail,
    };
    return { action: { kind: "record", run_id: rec.run_id, type: EV.blocked, data }, stay: false };
  }
  if (!rec.retried) {
    const data = { ...base, next_attempt: decision.nextAttempt, fingerprint: decision.fingerprint };
    return { action: { kind: "record", run_id: rec.run_id, type: EV.retry, data }, stay: true };
  }
  const objective = retryObjective(objectiveOf(view, m), rec.intent.attempt, decision.defect);
  return { action: intent(view, m, decision.nextAttempt, objective), stay: false };
}

function settleAccepted(view: EngineView, rec: AttemptRecord): Action | undefined {
  const acc = rec.accepted;
  if (!acc) return undefined;
  const decisions: DecisionInput[] = acc.decisions_stood.map((d) => ({
    source: "leaf",
    decision: d.decision,
    rationale: d.rationale,
    run_id: rec.run_id,
    step_id: acc.step_id,
    journey_id: view.journeyId,
  }));
  const raised = new Set(
    view.questions
      .filter((q) => q.journey_id === view.journeyId && q.run_id === rec.run_id)
      .map((q) => q.gate_id),
  );
  const questions: RaiseInput[] = [];
  for (const g of acc.gates) {
    if (raised.has(g.id)) continue;
    raised.add(g.id);
    questions.push({
      kind: g.kind,
      question: g.recommendation ? `${g.question} (recommended: ${g.recommendation})` : g.question,
      options: [...new Set(g.options.filter((o) => o.trim() !== ""))],
      step_id: acc.step_id,
      journey_id: view.journeyId,
      run_id: rec.run_id,
      gate_id: g.id,
    });
  }
  if (decisions.length === 0 && questions.length === 0) return undefined;
  return { kind: "settle-accepted", run_id: rec.run_id, decisions, questions };
}

/** What a verdict that is not a rejection records: the payload, a leaf's escalation, or a failure. */
function persistVerdict(m: Member, rec: AttemptRecord, c: CheckOutcome): Action {
  const base = { step_id: m.stepId, attempt: rec.intent.attempt };
  const record = (type: string, data: Record<string, unknown>): Action => ({
    kind: "record",
    run_id: rec.run_id,
    type,
    data,
  });
  if (c.verdict === "rejected")
    return record(EV.failed, {
      ...base,
      diagnostics: c.diagnostics.map((d) => ({ code: d.code, message: d.message })),
    });
  const result = c.result;
  if (!result)
    return record(EV.failed, {
      ...base,
      diagnostics: [{ code: "engine.no-result", message: "the driver accepted a result it did not return" }],
    });
  if (result.status === "blocked" || result.status === "failed") {
    const esc = result.escalation;
    return record(EV.blocked, {
      ...base,
      kind: "technical",
      reason: "leaf-escalated",
      fingerprint: `${m.spec.role}|${m.stepId}|leaf.${result.status}`,
      detail: esc ? `${esc.reason}: ${esc.detail}` : `the leaf reported ${result.status}`,
    });
  }
  return record(EV.accepted, {
    ...base,
    status: result.status,
    payload: result.payload,
    gates: result.gates,
    decisions_stood: result.decisions_stood,
  });
}

interface Member {
  stepId: StepId;
  spec: PacketSpec;
  step: DispatchStep;
}

/** The members of wave `w` of step `i`, or undefined past the last wave. */
function waveMembers(view: EngineView, i: number, w: number): Member[] | undefined {
  const ls = view.steps[i];
  if (ls?.kind !== "dispatch") return undefined;
  const step = ls.step;
  const members: Member[] = step.packets.map((spec, k) => ({ stepId: ls.stepIds[k] as StepId, spec, step }));
  const waves = planWaves(
    members.map((m) => ({
      mode: ROLES[m.spec.role].mode,
      paths: [...(m.spec.scope?.in ?? []), ...(m.spec.inputs ?? []).map((x) => x.path)],
    })),
  );
  return waves[w]?.map((k) => members[k] as Member);
}

function newRound(view: EngineView): Round {
  return { phase: "scan", member: 0, before: view.ledger.size, awaiting: [], outcomes: {} };
}

function latest(view: EngineView, stepId: StepId): AttemptRecord | undefined {
  const list = view.ledger.attempts(stepId);
  return list[list.length - 1];
}

function acceptedOf(view: EngineView, stepId: StepId): AttemptRecord | undefined {
  return view.ledger.attempts(stepId).find((a) => a.accepted);
}

function gateQuestion(view: EngineView, stepId: StepId): Question | undefined {
  return view.questions.find(
    (q) => q.journey_id === view.journeyId && q.step_id === stepId && q.gate_id === undefined,
  );
}

function objectiveOf(view: EngineView, m: Member): string {
  return typeof m.spec.objective === "function" ? m.spec.objective(contextOf(view)) : m.spec.objective;
}

function intent(view: EngineView, m: Member, attempt: number, objective: string): Action {
  const data: StepIntentData = {
    journey_id: view.journeyId,
    step_id: m.stepId,
    attempt,
    role: m.spec.role,
    rite: m.step.rite,
    phase: m.step.phase,
    objective,
  };
  return { kind: "intent", data };
}

function requestOf(view: EngineView, m: Member, rec: AttemptRecord): DispatchRequest {
  return {
    journey_id: view.journeyId,
    run_id: rec.run_id,
    step_id: m.stepId,
    attempt: rec.intent.attempt,
    rite: m.step.rite,
    phase: m.step.phase,
    role: m.spec.role,
    objective: rec.intent.objective,
    inputs: m.spec.inputs ?? [],
    scope: m.spec.scope ?? { in: [], out: [], allowed_repo_writes: [] },
    budgets: m.spec.budgets ?? {},
  };
}
