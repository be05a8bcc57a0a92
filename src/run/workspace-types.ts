/**
 * Types of the `.devrites/` workspace records. The records with a JSON Schema (`devrites-state.v1`,
 * `run-event.v1`, `question-line.v1`, `decision.v1`) are inferred from their zod schemas in
 * `../envelope/zod.ts`, the one source of parser, type and schema; the rest are the engine's own shapes.
 *
 * Every `*.jsonl` file is append-only: a line is never rewritten or removed. A change of mind is a new line
 * (an answer to a question is an `answered` line after its `raised` line).
 */

import type { z } from "zod";
import type { RoleName } from "../envelope/roles.js";
import type { Phase, RunId, Timestamp } from "../envelope/types.js";
import type * as S from "../envelope/zod.js";

export const STATE_SCHEMA = "devrites-state/v1";

/** A composite step id `<rite>/<actor>#<n>` (a leaf role or `human`). */
export type StepId = string;

export type JourneyId = string;

export type QuestionId = string;

export type ActiveRun = z.infer<typeof S.ActiveRunSchema>;

export type JourneyStatus = z.infer<typeof S.JourneyStatusSchema>;

export type JourneyRef = z.infer<typeof S.JourneyRefSchema>;

export type WorkspaceState = z.infer<typeof S.WorkspaceStateSchema>;

export type RunEvent = z.infer<typeof S.RunEventSchema>;

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

export type QuestionKind = z.infer<typeof S.QuestionKindSchema>;

export type QuestionRaised = z.infer<typeof S.QuestionRaisedSchema>;

export type QuestionAnswered = z.infer<typeof S.QuestionAnsweredSchema>;

export type QuestionLine = z.infer<typeof S.QuestionLineSchema>;

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

export type DecisionId = string;

export type DecisionRecord = z.infer<typeof S.DecisionRecordSchema>;
