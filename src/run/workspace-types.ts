/**
 * Types of the `.devrites/` workspace records. Like the envelopes, these types are the schema source:
 * `npm run schemas` generates one JSON Schema per record (`devrites-state.v1`, `run-event.v1`,
 * `question-line.v1`, `decision.v1`); `./workspace-zod.ts` mirrors them for runtime checks.
 *
 * Every `*.jsonl` file is append-only: a line is never rewritten or removed. A change of mind is a new line
 * (an answer to a question is an `answered` line after its `raised` line).
 */

import type { RoleName } from "../envelope/roles.js";
import type { Phase, RepoPath, RunId, Timestamp } from "../envelope/types.js";

export const STATE_SCHEMA = "devrites-state/v1";

/**
 * A composite step id `<rite>/<actor>#<n>`: the rite, then the leaf role (`devrites-…`) or `human` for a
 * human gate, then the 1-based occurrence of that actor in the rite's journey. Stable across retries.
 * @pattern ^rite(-[a-z0-9]+)*\/[a-z0-9][a-z0-9-]*#[1-9][0-9]*$
 */
export type StepId = string;

/**
 * A journey id: `j-` + UTC timestamp + `-` + 8 hex characters, e.g. `j-20261129T221500Z-1a2b3c4d`.
 * @pattern ^j-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$
 */
export type JourneyId = string;

/**
 * A question id: `q-` + the UTC date it was raised + `-` + a sequence number of at least three digits,
 * e.g. `q-20261129-001`.
 * @pattern ^q-[0-9]{8}-[0-9]{3,}$
 */
export type QuestionId = string;

/** A run between `devrites packet new` and its accepted (or abandoned) result. */
export interface ActiveRun {
  run_id: RunId;
  role: RoleName;
  /**
   * Composite step id `<rite>/<role>#<n>`.
   * @pattern ^rite(-[a-z0-9]+)*\/devrites-[a-z0-9-]+#[0-9]+$
   */
  step_id: string;
  /** Repository-relative path of the packet. */
  packet_path: RepoPath;
  created_at: Timestamp;
}

/** Where an engine-driven journey stands. */
export type JourneyStatus = "running" | "paused-gate" | "paused-await" | "blocked" | "done";

/**
 * The journey the engine is driving: enough to find its definition and driver again on `devrites resume`.
 * The history itself lives in the ledgers, never here.
 */
export interface JourneyRef {
  id: JourneyId;
  /**
   * The registered journey definition, e.g. `demo`.
   * @pattern ^[a-z0-9][a-z0-9-]*$
   */
  name: string;
  /**
   * The registered driver that dispatches its packets, e.g. `scripted` or `host`.
   * @pattern ^[a-z0-9][a-z0-9-]*$
   */
  driver: string;
  status: JourneyStatus;
  started_at: Timestamp;
}

/** `.devrites/state.json`: where the journey stands. Rewritten atomically; the history is in the event logs. */
export interface WorkspaceState {
  schema: "devrites-state/v1";
  /** The rite the journey is in, or null when idle. */
  active_rite: string | null;
  phase: Phase | null;
  active_runs: ActiveRun[];
  /** The engine-driven journey, when there is one (absent or null for journeys the host model drives). */
  journey?: JourneyRef | null;
  updated_at: Timestamp;
}

/**
 * One line of `.devrites/runs/<run-id>/events.jsonl`. Append-only; never rewritten.
 *
 * Known types and their `data`: `step.intent` ({@link StepIntentData}, always the run's first engine
 * event, written before the packet exists), `step.dispatched`, `result.returned`, `result.checked`
 * ({@link ResultCheckedData}), `step.accepted`, `step.retry`, `step.blocked` ({@link StepBlockedData});
 * other modules add `packet.created`, `guard.decision`, `result.recorded`.
 */
export interface RunEvent {
  /** When it happened. */
  ts: Timestamp;
  run_id: RunId;
  /** What happened, e.g. `packet.created`, `guard.decision`, `result.recorded`, `result.checked`. */
  type: string;
  /** Event-specific fields. */
  data: Record<string, unknown>;
}

/** How firmly the host enforced the leaf's boundary while it ran. */
export type GuardStrength = "sandboxed" | "enforced" | "observed" | "unavailable" | "unverified" | "bypassed";

/** The validator's verdict on a result. */
export type Verdict = "accepted" | "rejected" | "gate";

/** `data` of `step.intent`: the engine's promise to dispatch one attempt of one step, recorded before the effect. */
export interface StepIntentData {
  journey_id: JourneyId;
  step_id: StepId;
  /**
   * @minimum 1
   * @maximum 3
   * @asType integer
   */
  attempt: number;
  role: RoleName;
  rite: string;
  phase: Phase;
  /** The objective as sent, including the quoted defect of the previous attempt on a retry. */
  objective: string;
}

/** `data` of `result.checked`: the validator's verdict on one attempt. */
export interface ResultCheckedData {
  verdict: Verdict;
  guard_strength?: GuardStrength;
  step_id?: StepId;
  /**
   * @minimum 1
   * @asType integer
   */
  attempt?: number;
  /** True when the envelope itself was malformed (schema or JSON defect), as opposed to stale or out of scope. */
  malformed?: boolean;
  /** The defects, exactly as the validator reported them. */
  diagnostics?: { code: string; message: string; path?: string }[];
}

/** `data` of `step.blocked`: a technical blocker. Never a human question. */
export interface StepBlockedData {
  step_id: StepId;
  /**
   * @minimum 1
   * @asType integer
   */
  attempt: number;
  kind: "technical";
  reason: "fingerprint-exhausted" | "malformed-twice" | "attempts-exhausted" | "leaf-escalated";
  /** `role|step|sorted diagnostic codes`. */
  fingerprint: string;
  detail: string;
}

/** Why a human must decide. Objective failures never raise a question; they end in a technical blocker. */
export type QuestionKind = "product" | "scope" | "policy" | "irreversible" | "human-only";

/** A human gate as raised: one line of `.devrites/questions.jsonl` with `type: "raised"`. */
export interface QuestionRaised {
  type: "raised";
  qid: QuestionId;
  kind: QuestionKind;
  /** @minLength 1 */
  question: string;
  /** Suggested answers; empty when the answer is free text. */
  options: string[];
  raised_at: Timestamp;
  /** The journey step that waits on the answer. */
  step_id?: StepId;
  /** The engine journey that raised it. */
  journey_id?: JourneyId;
  /** The run whose result carried the gate. */
  run_id?: RunId;
  /**
   * The gate's own id inside that result.
   * @pattern ^[a-z0-9][a-z0-9-]*$
   */
  gate_id?: string;
}

/** An answer: one line of `.devrites/questions.jsonl` with `type: "answered"`, after the question's `raised` line. */
export interface QuestionAnswered {
  type: "answered";
  qid: QuestionId;
  /** @minLength 1 */
  answer: string;
  answered_at: Timestamp;
}

/**
 * One line of `.devrites/questions.jsonl`.
 * @discriminator type
 */
export type QuestionLine = QuestionRaised | QuestionAnswered;

/** A question folded from its lines: the raised fields plus the answer, once given. */
export interface Question {
  qid: QuestionId;
  kind: QuestionKind;
  question: string;
  options: string[];
  raised_at: Timestamp;
  step_id?: StepId;
  journey_id?: JourneyId;
  run_id?: RunId;
  gate_id?: string;
  answered_at?: Timestamp;
  answer?: string;
}

/**
 * A decision id: `d-` + UTC date + `-` + sequence number, e.g. `d-20261129-001`.
 * @pattern ^d-[0-9]{8}-[0-9]{3,}$
 */
export type DecisionId = string;

/** One accepted decision: one line of `.devrites/decisions.jsonl`. */
export interface DecisionRecord {
  id: DecisionId;
  decided_at: Timestamp;
  /** `human`: the answer to a question; `leaf`: a decision a leaf took within its remit, accepted with its result. */
  source: "human" | "leaf";
  /** @minLength 1 */
  decision: string;
  rationale: string;
  /** The answered question, for `human` decisions. */
  qid?: QuestionId;
  /** The run whose accepted result carried it, for `leaf` decisions. */
  run_id?: RunId;
  step_id?: StepId;
  journey_id?: JourneyId;
}
