/**
 * The engine's public contract: journeys (what to do), the driver (how a packet reaches a leaf and how its
 * result is judged), and the events the engine streams while it works.
 */

import type { Diagnostic } from "../core/diagnostics.js";
import type { RoleName } from "../envelope/roles.js";
import type { AgentResult, PacketBudgets, Payload, Phase, ResultStatus, RunId } from "../envelope/types.js";
import type {
  DecisionRecord,
  GuardStrength,
  JourneyId,
  Question,
  QuestionKind,
  RunEvent,
  StepBlockedData,
  StepId,
  Verdict,
} from "./workspace-types.js";

/** What earlier steps produced, for steps whose objective or condition depends on them. */
export interface JourneyContext {
  journeyId: JourneyId;
  /** The accepted payload of a step, by step id. */
  accepted(stepId: StepId): { status: ResultStatus; payload: Payload } | undefined;
  /** The human's answer to a gate step, by step id. */
  answer(stepId: StepId): string | undefined;
}

/** One leaf packet of a dispatch step. The engine adds run id, step id, attempt, rite and phase. */
export interface PacketSpec {
  role: RoleName;
  /** What the leaf must achieve. A function sees the answers and payloads of earlier steps. */
  objective: string | ((ctx: JourneyContext) => string);
  inputs?: { path: string; purpose: string }[];
  scope?: { in: string[]; out: string[]; allowed_repo_writes: string[] };
  budgets?: Partial<PacketBudgets>;
}

/** Dispatch packets; the engine plans them into waves (see `./plan.ts`). */
export interface DispatchStep {
  kind: "dispatch";
  rite: string;
  phase: Phase;
  packets: PacketSpec[];
  /** Skip the step when this returns false. Must depend only on the context (it is re-evaluated on resume). */
  when?: (ctx: JourneyContext) => boolean;
}

/** Ask a human; the journey pauses until `devrites resolve` records the answer. */
export interface GateStep {
  kind: "gate";
  rite: string;
  phase: Phase;
  gate: { kind: QuestionKind; question: string; options?: string[] };
  when?: (ctx: JourneyContext) => boolean;
}

export type JourneyStep = DispatchStep | GateStep;

/**
 * A journey: an ordered list of steps. Step ids are derived from the order (`<rite>/<role>#<n>`, the n-th
 * packet of that role in that rite; `<rite>/human#<n>` for gates), so a journey definition must not change
 * while one of its runs is in progress.
 */
export interface Journey {
  /** The registered name, e.g. `demo`. */
  name: string;
  steps: JourneyStep[];
}

/** Everything a driver needs to build and send one packet. Identical on every call for the same run. */
export interface DispatchRequest {
  journey_id: JourneyId;
  run_id: RunId;
  step_id: StepId;
  attempt: number;
  rite: string;
  phase: Phase;
  role: RoleName;
  /** The objective as recorded in `step.intent` (with the quoted defect on a retry). */
  objective: string;
  inputs: { path: string; purpose: string }[];
  scope: { in: string[]; out: string[]; allowed_repo_writes: string[] };
  budgets: Partial<PacketBudgets>;
}

export interface DispatchReceipt {
  /** Where the packet was written, repository-relative. */
  packet_path?: string;
}

export type CollectOutcome =
  | { state: "returned" }
  /** The leaf has not returned yet: the journey pauses; the instruction tells the host what to do. */
  | { state: "pending"; instruction?: string };

/** The validator's judgement of one returned result. */
export interface CheckOutcome {
  verdict: Verdict;
  /** The defects, exactly as found. Quoted verbatim in the retry's objective. */
  diagnostics: Diagnostic[];
  /** True when the envelope itself is malformed (retried once only). */
  malformed?: boolean;
  guard_strength?: GuardStrength;
  /** The parsed result; required for `accepted` and `gate`. */
  result?: AgentResult;
}

/**
 * How packets reach leaves. The scripted demo answers from a script; a host driver writes the packet with
 * `devrites packet new`, lets the host spawn the leaf (`collect` is `pending` until the result is recorded)
 * and judges it with `devrites result check`.
 *
 * Contract: every method is keyed by `req.run_id` and must be idempotent for it — after a crash the engine
 * calls `dispatch` again for a run whose dispatch it could not confirm, and the driver must not send the
 * same run twice. A thrown error counts as a failed attempt (`engine.driver-error`), never as success.
 */
export interface Driver {
  dispatch(req: DispatchRequest): Promise<DispatchReceipt>;
  collect(req: DispatchRequest): Promise<CollectOutcome>;
  check(req: DispatchRequest): Promise<CheckOutcome>;
}

/** A run the journey is waiting on. */
export interface AwaitingRun {
  run_id: RunId;
  step_id: StepId;
  role: RoleName;
  packet_path: string;
  instruction?: string;
}

/** A technical blocker as streamed (and recorded as `step.blocked`). */
export type Blocker = StepBlockedData & { run_id: RunId };

/**
 * The one event stream. Everything durable is written before it is yielded: `run` events are appended to
 * the run's ledger, `question` and `decision` lines to theirs. `gate`, `await` and `blocked` end the run of
 * the generator (a pause or a stop); `done` ends the journey.
 */
export type EngineEvent =
  | { type: "step"; step_id: StepId; rite: string; phase: Phase; kind: "dispatch" | "gate" }
  | { type: "wave"; step_ids: StepId[] }
  | { type: "run"; event: RunEvent }
  | { type: "question"; question: Question }
  | { type: "decision"; decision: DecisionRecord }
  | { type: "gate"; question: Question }
  | { type: "await"; runs: AwaitingRun[] }
  | { type: "blocked"; blocker: Blocker }
  | { type: "done"; journey_id: JourneyId };

export type EngineOutcome =
  | { status: "done"; journey_id: JourneyId }
  | { status: "gate"; journey_id: JourneyId; questions: Question[] }
  | { status: "await"; journey_id: JourneyId; runs: AwaitingRun[] }
  | { status: "blocked"; journey_id: JourneyId; blockers: Blocker[] }
  /** Nothing to do: no journey in progress (resume), or the journey already finished. */
  | { status: "idle"; diagnostics: Diagnostic[] }
  /** The engine would not start: another engine holds the workspace, the state is corrupt, … */
  | { status: "refused"; diagnostics: Diagnostic[] };
