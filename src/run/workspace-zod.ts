/**
 * Runtime mirrors of `./workspace-types.ts`, used by `validateWorkspace` and the readers. The TS types stay
 * the schema source; the two are kept in step by the type assertions at the bottom of this file and by the
 * differential test against the generated JSON Schemas.
 */

import { z } from "zod";
import { ROLE_NAMES } from "../envelope/roles.js";
import { DECISION_ID_RE, JOURNEY_ID_RE, QID_RE, RUN_ID_RE, STEP_ID_RE, TIMESTAMP_RE } from "./ids.js";
import type {
  DecisionRecord,
  QuestionLine,
  ResultCheckedData,
  RunEvent,
  StepBlockedData,
  StepIntentData,
  WorkspaceState,
} from "./workspace-types.js";

const timestamp = z.string().regex(TIMESTAMP_RE, "expected an ISO-8601 UTC timestamp");
const runId = z.string().regex(RUN_ID_RE, "expected a run id run-YYYYMMDDTHHMMSSZ-xxxxxxxx");
const journeyId = z.string().regex(JOURNEY_ID_RE, "expected a journey id j-YYYYMMDDTHHMMSSZ-xxxxxxxx");
const qid = z.string().regex(QID_RE, "expected a question id q-YYYYMMDD-NNN");
const stepId = z.string().regex(STEP_ID_RE, "expected a step id <rite>/<actor>#<n>");
const role = z.enum(ROLE_NAMES);
const phase = z.enum(["spec", "plan", "build", "prove", "review", "ship", "quick"]);
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

export const activeRunSchema = z.strictObject({
  run_id: runId,
  role,
  step_id: z.string(),
  packet_path: z.string(),
  created_at: timestamp,
});

export const journeyRefSchema = z.strictObject({
  id: journeyId,
  name: slug,
  driver: slug,
  status: z.enum(["running", "paused-gate", "paused-await", "blocked", "done"]),
  started_at: timestamp,
});

export const workspaceStateSchema = z.strictObject({
  schema: z.literal("devrites-state/v1"),
  active_rite: z.string().nullable(),
  phase: phase.nullable(),
  active_runs: z.array(activeRunSchema),
  journey: journeyRefSchema.nullable().optional(),
  updated_at: timestamp,
});

export const runEventSchema = z.strictObject({
  ts: timestamp,
  run_id: runId,
  type: z.string().regex(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/, "expected a dotted event type"),
  data: z.record(z.string(), z.unknown()),
});

const questionKind = z.enum(["product", "scope", "policy", "irreversible", "human-only"]);

export const questionRaisedSchema = z.strictObject({
  type: z.literal("raised"),
  qid,
  kind: questionKind,
  question: z.string().min(1),
  options: z.array(z.string()),
  raised_at: timestamp,
  step_id: stepId.optional(),
  journey_id: journeyId.optional(),
  run_id: runId.optional(),
  gate_id: z.string().optional(),
});

export const questionAnsweredSchema = z.strictObject({
  type: z.literal("answered"),
  qid,
  answer: z.string().min(1),
  answered_at: timestamp,
});

export const questionLineSchema = z.discriminatedUnion("type", [
  questionRaisedSchema,
  questionAnsweredSchema,
]);

export const decisionRecordSchema = z.strictObject({
  id: z.string().regex(DECISION_ID_RE, "expected a decision id d-YYYYMMDD-NNN"),
  decided_at: timestamp,
  source: z.enum(["human", "leaf"]),
  decision: z.string().min(1),
  rationale: z.string(),
  qid: qid.optional(),
  run_id: runId.optional(),
  step_id: stepId.optional(),
  journey_id: journeyId.optional(),
});

/** Known event payloads. Loose: other modules may add fields to the events they share with the engine. */
export const stepIntentDataSchema = z.looseObject({
  journey_id: journeyId,
  step_id: stepId,
  attempt: z.int().min(1).max(3),
  role,
  rite: z.string(),
  phase,
  objective: z.string(),
});

export const resultCheckedDataSchema = z.looseObject({
  verdict: z.enum(["accepted", "rejected", "gate"]),
  guard_strength: z.enum(["enforced", "observed", "unavailable", "bypassed"]).optional(),
  step_id: stepId.optional(),
  attempt: z.int().min(1).optional(),
  malformed: z.boolean().optional(),
  diagnostics: z
    .array(z.looseObject({ code: z.string(), message: z.string(), path: z.string().optional() }))
    .optional(),
});

export const stepBlockedDataSchema = z.looseObject({
  step_id: stepId,
  attempt: z.int().min(1),
  kind: z.literal("technical"),
  reason: z.enum(["fingerprint-exhausted", "malformed-twice", "attempts-exhausted", "leaf-escalated"]),
  fingerprint: z.string(),
  detail: z.string(),
});

/** Data schemas by event type, for the types whose shape the workspace depends on. */
export const knownEventData: Readonly<Record<string, z.ZodType>> = {
  "step.intent": stepIntentDataSchema,
  "result.checked": resultCheckedDataSchema,
  "step.blocked": stepBlockedDataSchema,
};

// Compile-time agreement between the zod mirrors and the TS types (both directions).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T => true as T;
agree<Same<z.infer<typeof workspaceStateSchema>, WorkspaceState>>();
agree<Same<z.infer<typeof runEventSchema>, RunEvent>>();
agree<Same<z.infer<typeof questionLineSchema>, QuestionLine>>();
agree<Same<z.infer<typeof decisionRecordSchema>, DecisionRecord>>();
type Known<T> = { [K in keyof T]: T[K] };
agree<Known<z.infer<typeof stepIntentDataSchema>> extends StepIntentData ? true : false>();
agree<Known<z.infer<typeof resultCheckedDataSchema>> extends ResultCheckedData ? true : false>();
agree<Known<z.infer<typeof stepBlockedDataSchema>> extends StepBlockedData ? true : false>();
