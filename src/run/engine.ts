/**
 * The engine: a journey as an async generator with pause points — an imperative shell around the pure
 * planner in `./next-step.ts`. The loop asks `nextStep` what to do, performs it through the driver, the
 * ledger and the workspace files, streams what it wrote, and asks again.
 *
 * Every effect is preceded by its intent in the ledger (`step.intent` before `dispatch`, `step.dispatched`
 * before `collect`, …) and every step attempt is keyed by step id + attempt. Starting the generator again
 * on the same workspace replays the ledger and continues where it stopped, so a crash, a `/clear` or a
 * human gate all resume the same way: nothing is dispatched twice and nothing is lost.
 *
 * The generator yields one stream of {@link EngineEvent}s. It stops at a pause point — `gate` (a human must
 * answer: the CLI exits 3), `await` (the host must run a leaf) — or at `blocked` (a technical blocker), and
 * ends with `done`.
 */

import { newRunId } from "../envelope/ids.js";
import type { RunId } from "../envelope/types.js";
import { type DecisionInput, recordDecision } from "./decisions.js";
import type {
  AwaitingRun,
  CheckOutcome,
  DispatchRequest,
  Driver,
  EngineEvent,
  EngineOutcome,
  Journey,
} from "./engine-types.js";
import { type LaidStep, layoutJourney } from "./layout.js";
import { EV, JourneyLedger } from "./ledger.js";
import { acquireEngineLock } from "./lock.js";
import {
  type Action,
  type CollectItem,
  type Cursor,
  type EngineView,
  nextStep,
  type Observation,
  observe,
  START,
} from "./next-step.js";
import { type RaiseInput, raiseQuestion, readQuestions } from "./questions.js";
import { writeStateJournaled } from "./records-journal.js";
import { readState, workspacePaths } from "./workspace.js";
import type { ActiveRun, JourneyRef, Question, StepIntentData, WorkspaceState } from "./workspace-types.js";

export { type LaidStep, layoutJourney } from "./layout.js";

export interface EngineOptions {
  /** Repository root (the folder holding `.devrites/`). */
  root: string;
  journey: Journey;
  /** The journey's identity; `status` is maintained by the engine. */
  ref: JourneyRef;
  driver: Driver;
  /** The clock (ISO-8601 UTC). */
  now?: () => string;
  /** Mint a run id (tests make it deterministic). */
  mintRunId?: (now: string) => string;
}

/**
 * Run (or resume) a journey. Returns how it stopped; see {@link EngineOutcome}. A second engine on the same
 * workspace is refused (`engine.locked`), and so is a workspace whose `state.json` is corrupt (it is never
 * overwritten).
 */
export async function* runJourney(opts: EngineOptions): AsyncGenerator<EngineEvent, EngineOutcome, void> {
  const now = opts.now ?? (() => new Date().toISOString());
  const laid = layoutJourney(opts.journey);
  if (laid.diagnostics.length > 0) return { status: "refused", diagnostics: laid.diagnostics };
  const lock = acquireEngineLock(opts.root);
  if (!lock.ok) return { status: "refused", diagnostics: lock.diagnostics };
  try {
    const read = readState(opts.root, now());
    if (!read.ok) return { status: "refused", diagnostics: read.diagnostics };
    const shell = new Shell(opts, laid.steps, read.state, read.exists, read.sha256, now);
    let at: Cursor = START;
    for (;;) {
      const { action, next } = nextStep(shell.view(), at);
      const performed = yield* shell.perform(action);
      if (performed?.stop) return performed.stop;
      at = performed?.observed ? observe(next, performed.observed) : next;
    }
  } finally {
    lock.release();
  }
}

type TerminalAction = Extract<
  Action,
  { kind: "pause-gate" | "pause-await" | "stop-blocked" | "finish" | "fail" }
>;

/** What performing an action produced beyond its events: how the journey stopped, or what the driver said. */
type Performed = { stop?: EngineOutcome; observed?: Observation } | undefined;

/** The engine's effects: the driver, the ledger, `state.json`, the questions and decisions files. */
class Shell {
  private readonly ledger: JourneyLedger;
  private questions: Question[];
  private readonly mintRunId: (now: string) => string;

  constructor(
    private readonly opts: EngineOptions,
    private readonly steps: readonly LaidStep[],
    private state: WorkspaceState,
    private stateExists: boolean,
    /** The digest of the state file as last read or written (the next write's `from`: records journal). */
    private stateSha: string | null,
    private readonly now: () => string,
  ) {
    this.ledger = new JourneyLedger(opts.root, opts.ref.id);
    this.questions = readQuestions(opts.root).questions;
    this.mintRunId = opts.mintRunId ?? ((t: string) => newRunId(t));
  }

  view(): EngineView {
    return {
      journeyId: this.opts.ref.id,
      steps: this.steps,
      ledger: this.ledger,
      questions: this.questions,
      active: { rite: this.state.active_rite, phase: this.state.phase },
    };
  }

  async *perform(action: Action): AsyncGenerator<EngineEvent, Performed> {
    switch (action.kind) {
      case "start":
        this.setStatus("running");
        this.syncActiveRuns();
        return;
      case "enter":
        this.saveState({ active_rite: action.rite, phase: action.phase });
        return;
      case "announce":
        yield action.event;
        return;
      case "raise-gate": {
        yield action.announce;
        const raised = raiseQuestion(this.opts.root, action.question, this.now());
        if (!raised.ok) return { stop: { status: "refused", diagnostics: raised.diagnostics } };
        this.questions = [...this.questions, raised.question];
        yield { type: "question", question: raised.question };
        return;
      }
      case "settle-accepted":
        yield* this.recordDecisions(action.decisions);
        yield* this.raiseQuestions(action.questions);
        return;
      case "record-answers":
        yield* this.recordDecisions(action.decisions);
        return;
      case "intent":
        yield this.intent(action.data);
        return;
      case "record":
        yield this.append(action.run_id, action.type, action.data);
        return;
      case "sync-runs":
        this.syncActiveRuns();
        return;
      case "dispatch":
        yield* this.dispatch(action.requests);
        return;
      case "collect":
        return { observed: { kind: "awaiting", runs: yield* this.collect(action.runs) } };
      case "check":
        return {
          observed: { kind: "checked", outcomes: yield* this.check(action.requests) },
        };
      case "recheck":
        return yield* this.recheck(action.request);
      default:
        return { stop: yield* this.stop(action) };
    }
  }

  /** The terminal actions: a pause, a stop or the end, recorded in `state.json` and streamed. */
  private *stop(action: TerminalAction): Generator<EngineEvent, EngineOutcome> {
    const id = this.opts.ref.id;
    switch (action.kind) {
      case "pause-gate":
        this.setStatus("paused-gate");
        for (const q of action.questions) yield { type: "gate", question: q };
        return { status: "gate", journey_id: id, questions: action.questions };
      case "pause-await":
        this.setStatus("paused-await");
        yield { type: "await", runs: action.runs };
        return { status: "await", journey_id: id, runs: action.runs };
      case "stop-blocked":
        this.setStatus("blocked");
        for (const b of action.blockers) yield { type: "blocked", blocker: b };
        return { status: "blocked", journey_id: id, blockers: action.blockers };
      case "finish":
        this.setStatus("done");
        yield { type: "done", journey_id: id };
        return { status: "done", journey_id: id };
      case "fail":
        throw new Error(action.message);
    }
  }

  /** Send every request at once; record each confirmed dispatch, or the driver's failure, in order. */
  private async *dispatch(requests: DispatchRequest[]): AsyncGenerator<EngineEvent> {
    const sent = await Promise.allSettled(requests.map((r) => this.opts.driver.dispatch(r)));
    for (const [i, req] of requests.entries()) {
      const s = sent[i];
      if (s?.status === "fulfilled")
        yield this.append(req.run_id, EV.dispatched, {
          step_id: req.step_id,
          attempt: req.attempt,
          packet_path: s.value.packet_path ?? workspacePaths.packet(req.run_id),
        });
      else yield this.driverFailed(req, "dispatch", s?.reason);
    }
  }

  /** Collect what has returned; the runs still out are returned. */
  private async *collect(runs: CollectItem[]): AsyncGenerator<EngineEvent, AwaitingRun[]> {
    const awaiting: AwaitingRun[] = [];
    const got = await Promise.allSettled(runs.map((r) => this.opts.driver.collect(r.request)));
    for (const [i, { request: req, packet_path }] of runs.entries()) {
      const g = got[i];
      if (g?.status === "rejected") yield this.driverFailed(req, "collect", g.reason);
      else if (g?.value.state === "returned")
        yield this.append(req.run_id, EV.returned, { step_id: req.step_id, attempt: req.attempt });
      else
        awaiting.push({
          run_id: req.run_id,
          step_id: req.step_id,
          role: req.role,
          packet_path,
          ...(g?.value.state === "pending" && g.value.instruction
            ? { instruction: g.value.instruction }
            : {}),
        });
    }
    return awaiting;
  }

  /** Judge every returned result; record each verdict. The outcomes are returned for persisting. */
  private async *check(
    requests: DispatchRequest[],
  ): AsyncGenerator<EngineEvent, Record<RunId, CheckOutcome>> {
    const outcomes: Record<RunId, CheckOutcome> = {};
    const judged = await Promise.allSettled(requests.map((r) => this.opts.driver.check(r)));
    for (const [i, req] of requests.entries()) {
      const j = judged[i];
      if (j?.status !== "fulfilled") {
        yield this.driverFailed(req, "check", j?.reason);
        continue;
      }
      const c = j.value;
      outcomes[req.run_id] = c;
      yield this.append(req.run_id, EV.checked, {
        verdict: c.verdict,
        ...(c.guard_strength ? { guard_strength: c.guard_strength } : {}),
        step_id: req.step_id,
        attempt: req.attempt,
        malformed: c.malformed === true,
        diagnostics: c.diagnostics.map((d) => ({
          code: d.code,
          message: d.message,
          ...(d.path ? { path: d.path } : {}),
        })),
      });
    }
    return outcomes;
  }

  private async *recheck(req: DispatchRequest): AsyncGenerator<EngineEvent, Performed> {
    let again: CheckOutcome;
    try {
      again = await this.opts.driver.check(req);
    } catch (e) {
      yield this.driverFailed(req, "re-check", e);
      return;
    }
    return { observed: { kind: "checked", outcomes: { [req.run_id]: again } } };
  }

  private intent(data: StepIntentData): EngineEvent {
    const runId = this.mintRunId(this.now()) as RunId;
    const ev = this.append(runId, EV.intent, { ...data });
    if (this.ledger.latest(data.step_id)?.run_id !== runId)
      throw new Error(`ledger did not index the intent of ${data.step_id}`);
    return ev;
  }

  private append(runId: RunId, type: string, data: Record<string, unknown>): EngineEvent {
    return { type: "run", event: this.ledger.append(runId, type, data, this.now()) };
  }

  private driverFailed(req: DispatchRequest, phase: string, reason: unknown): EngineEvent {
    const message = reason instanceof Error ? reason.message : String(reason);
    return this.append(req.run_id, EV.failed, {
      step_id: req.step_id,
      attempt: req.attempt,
      diagnostics: [{ code: "engine.driver-error", message: `${phase} failed: ${message}` }],
    });
  }

  /** Record each decision; one already recorded is not recorded (nor streamed) again. */
  private *recordDecisions(inputs: readonly DecisionInput[]): Generator<EngineEvent> {
    for (const input of inputs) {
      const { record: decision, created } = recordDecision(this.opts.root, input, this.now());
      if (created) yield { type: "decision", decision };
    }
  }

  private *raiseQuestions(inputs: readonly RaiseInput[]): Generator<EngineEvent> {
    for (const input of inputs) {
      const raised = raiseQuestion(this.opts.root, input, this.now());
      if (!raised.ok) continue;
      this.questions = [...this.questions, raised.question];
      yield { type: "question", question: raised.question };
    }
  }

  private saveState(patch: Partial<WorkspaceState>): void {
    const nextState: WorkspaceState = { ...this.state, ...patch };
    const { updated_at: _a, ...a } = nextState;
    const { updated_at: _b, ...b } = this.state;
    if (this.stateExists && JSON.stringify(a) === JSON.stringify(b)) return;
    this.state = { ...nextState, updated_at: this.now() };
    this.stateSha = writeStateJournaled(this.opts.root, this.state, this.stateSha);
    this.stateExists = true;
  }

  private setStatus(status: JourneyRef["status"]): void {
    this.saveState({
      journey: { ...this.opts.ref, status },
      ...(status === "done" ? { active_rite: null, phase: null } : {}),
    });
  }

  /** `state.active_runs`: runs of others kept, this journey's open attempts derived from the ledger. */
  private syncActiveRuns(): void {
    const others = this.state.active_runs.filter((r) => !this.ledger.ownsRun(r.run_id));
    const mine: ActiveRun[] = this.ledger.openRuns().map((r) => ({
      run_id: r.run_id,
      role: r.intent.role,
      step_id: r.intent.step_id,
      packet_path: r.packet_path ?? workspacePaths.packet(r.run_id),
      created_at: r.created_at,
    }));
    this.saveState({ active_runs: [...others, ...mine] });
  }
}

/** Drive a journey to its next stop, handing every event to `onEvent`. */
export async function driveJourney(
  opts: EngineOptions,
  onEvent: (e: EngineEvent) => void | Promise<void> = () => {},
): Promise<EngineOutcome> {
  const gen = runJourney(opts);
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
    await onEvent(step.value);
  }
}
