/**
 * Runtime checks of the workspace records. The records themselves are defined with the envelopes in
 * `../envelope/zod.ts` (one source of parser, type and JSON Schema, differentially tested against the
 * generated schemas); this module re-exports them under the run's names and adds the shapes of the event
 * payloads the engine depends on.
 */

import { z } from "zod";
import {
  DecisionRecordSchema,
  FORMATS,
  JourneyRefSchema,
  PhaseSchema,
  QuestionLineSchema,
  RoleNameSchema,
  RunEventSchema,
  WorkspaceStateSchema,
} from "../envelope/zod.js";
import type { ResultCheckedData, StepBlockedData, StepIntentData } from "./workspace-types.js";

export const workspaceStateSchema = WorkspaceStateSchema;
export const journeyRefSchema = JourneyRefSchema;
export const runEventSchema = RunEventSchema;
export const questionLineSchema = QuestionLineSchema;
export const decisionRecordSchema = DecisionRecordSchema;

const pattern = (f: { pattern: string; expected: string }) =>
  z.string().regex(new RegExp(f.pattern, "u"), { error: `expected ${f.expected}` });
const stepId = pattern(FORMATS.journeyStepId);

/** Known event payloads. Loose: other modules may add fields to the events they share with the engine. */
export const stepIntentDataSchema = z.looseObject({
  journey_id: pattern(FORMATS.journeyId),
  step_id: stepId,
  attempt: z.int().min(1).max(3),
  role: RoleNameSchema,
  rite: pattern(FORMATS.rite),
  phase: PhaseSchema,
  objective: z.string(),
});

export const resultCheckedDataSchema = z.looseObject({
  verdict: z.enum(["accepted", "rejected", "gate"]),
  guard_strength: z
    .enum(["sandboxed", "enforced", "observed", "unavailable", "unverified", "bypassed"])
    .optional(),
  step_id: stepId.optional(),
  attempt: z.int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  malformed: z.boolean().optional(),
  diagnostics: z
    .array(z.looseObject({ code: z.string(), message: z.string(), path: z.string().optional() }))
    .optional(),
});

export const stepBlockedDataSchema = z.looseObject({
  step_id: stepId,
  attempt: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
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

// Compile-time: the known payload schemas produce (at least) the documented types.
type Known<T> = { [K in keyof T]: T[K] };
const agree = <T extends true>(): T => true as T;
agree<Known<z.infer<typeof stepIntentDataSchema>> extends StepIntentData ? true : false>();
agree<Known<z.infer<typeof resultCheckedDataSchema>> extends ResultCheckedData ? true : false>();
agree<Known<z.infer<typeof stepBlockedDataSchema>> extends StepBlockedData ? true : false>();
