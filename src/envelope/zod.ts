/**
 * Runtime parsers for the envelopes and workspace records. They mirror the TypeScript types in
 * `./types.ts` and `../run/workspace-types.ts` exactly: the compile-time checks at the bottom of this file
 * fail the build if `z.infer` and the type drift apart in either direction, and a differential test keeps
 * these schemas and the generated JSON Schemas (`npm run schemas`) in agreement on real documents.
 *
 * Conventions that keep the two validators identical:
 * - every object is strict (unknown fields rejected), like `additionalProperties: false`;
 * - every pattern is compiled with the `u` flag, as ajv does;
 * - string lengths count code points, as JSON Schema does (zod's own `.min`/`.max` count UTF-16 units);
 * - every integer has explicit bounds within the safe-integer range, which is all `z.int()` accepts.
 */

import { z } from "zod";
import {
  type DecisionRecord,
  type JourneyRef,
  type QuestionAnswered,
  type QuestionLine,
  type QuestionRaised,
  type RunEvent,
  STATE_SCHEMA,
  type WorkspaceState,
} from "../run/workspace-types.js";
import { FORMATS, type StringFormat } from "./formats.js";
import { ROLE_NAMES } from "./roles.js";
import type * as T from "./types.js";
import { PACKET_VERSION, RESULT_VERSION } from "./types.js";

export { FORMATS, type StringFormat } from "./formats.js";

/**
 * Which rule a string breaks as a repository path, or undefined when it is one. Explains a `repoPath`
 * pattern failure; the pattern itself stays the single authority on what is valid.
 */
export function repoPathProblem(s: string): string | undefined {
  if (s.length === 0) return "it is empty";
  if (s.includes("\u0000")) return "it contains a NUL character";
  if (s.includes("\\")) return "it contains a backslash (use forward slashes)";
  if (s.startsWith("/")) return "it is absolute (starts with /)";
  if (s.endsWith("/")) return "it ends with / (name the file, without a trailing slash)";
  if (s.includes("//")) return "it has an empty segment (//)";
  const dots = s.split("/").find((seg) => seg === "." || seg === "..");
  if (dots !== undefined) return `it has a \`${dots}\` segment`;
  if ([...s].length > 4096) return "it is longer than 4096 characters";
  return undefined;
}

/** Length in code points, as JSON Schema's `minLength`/`maxLength` count. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

interface TextRules {
  min?: number;
  max?: number;
  format?: StringFormat;
}

/** A string with JSON Schema semantics: code-point length bounds and a `u`-flag pattern. */
function text(rules: TextRules = {}) {
  let schema = z.string();
  const { min, max, format } = rules;
  if (min !== undefined || max !== undefined) {
    schema = schema.check((ctx) => {
      const n = codePointLength(ctx.value);
      if (min !== undefined && n < min) {
        ctx.issues.push({
          code: "too_small",
          origin: "string",
          minimum: min,
          inclusive: true,
          input: ctx.value,
        });
      }
      if (max !== undefined && n > max) {
        ctx.issues.push({
          code: "too_big",
          origin: "string",
          maximum: max,
          inclusive: true,
          input: ctx.value,
        });
      }
    });
  }
  if (format) schema = schema.regex(new RegExp(format.pattern, "u"), { error: format.expected });
  return schema;
}

/** What an integer field's type error says it expected (zod itself says "number" for a non-number). */
export const INTEGER_EXPECTED = "an integer";

/** An integer within [min, max]; both bounds are required so zod's safe-integer limit never differs. */
function integer(min: number, max: number) {
  return z.int({ error: INTEGER_EXPECTED }).min(min).max(max);
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export const Sha256Schema = text({ format: FORMATS.sha256 });
export const RunIdSchema = text({ format: FORMATS.runId });
export const RepoPathSchema = text({ min: 1, max: 4096, format: FORMATS.repoPath });
export const TimestampSchema = text({ format: FORMATS.timestamp });
export const RoleNameSchema = z.enum(ROLE_NAMES);
export const PHASES = ["spec", "plan", "build", "prove", "review", "ship", "quick"] as const;
export const PhaseSchema = z.enum(PHASES);
const CountSchema = integer(0, MAX_SAFE);
const ProcessExitCodeSchema = integer(-2147483648, 4294967295);

export const BaselineSchema = z.strictObject({
  id: Sha256Schema,
  head: text({ format: FORMATS.head }),
  dirty_sha256: Sha256Schema,
  touched_sha256: Sha256Schema,
});

export const PacketInputSchema = z.strictObject({
  path: RepoPathSchema,
  purpose: text({ min: 1 }),
  sha256: Sha256Schema.nullable(),
});

export const PacketScopeSchema = z.strictObject({
  in: z.array(RepoPathSchema),
  out: z.array(RepoPathSchema),
  allowed_repo_writes: z.array(RepoPathSchema),
});

export const PacketBudgetsSchema = z.strictObject({
  max_files: integer(1, 100000),
  max_loaded_lines: integer(1, 10000000),
  max_result_lines: integer(1, 100000),
});

export const AgentPacketSchema = z.strictObject({
  packet_version: z.literal(PACKET_VERSION),
  run_id: RunIdSchema,
  role: RoleNameSchema,
  rite: text({ format: FORMATS.rite }),
  phase: PhaseSchema,
  attempt: integer(1, 3),
  step_id: text({ format: FORMATS.stepId }),
  workspace: RepoPathSchema,
  baseline: BaselineSchema,
  objective: text({ min: 1, max: 4000 }),
  inputs: z.array(PacketInputSchema),
  scope: PacketScopeSchema,
  budgets: PacketBudgetsSchema,
  result_path: RepoPathSchema,
  result_schema: z.literal(RESULT_VERSION),
  created_at: TimestampSchema,
  expires_at: TimestampSchema.optional(),
});

export const ResultStatusSchema = z.enum(["complete", "partial", "blocked", "cannot_verify", "failed"]);

export const ResultBudgetSchema = z.strictObject({
  files_used: CountSchema,
  loaded_lines_used: CountSchema,
  max_files: integer(1, 100000),
  max_loaded_lines: integer(1, 10000000),
  max_result_lines: integer(1, 100000),
});

export const RepoWriteSchema = z.discriminatedUnion("op", [
  z.strictObject({ path: RepoPathSchema, op: z.enum(["create", "modify"]), sha256_after: Sha256Schema }),
  z.strictObject({ path: RepoPathSchema, op: z.literal("delete"), sha256_after: z.null() }),
]);

export const ScratchWriteSchema = z.strictObject({
  path: text({ min: 1 }),
  sha256: Sha256Schema,
});

export const SideEffectsSchema = z.strictObject({
  repo_writes: z.array(RepoWriteSchema),
  scratch_writes: z.array(ScratchWriteSchema),
});

export const EvidenceRefSchema = z.strictObject({
  path: RepoPathSchema,
  lines: text({ format: FORMATS.lines }).optional(),
  excerpt: z.string().optional(),
});

export const EvidenceDossierSchema = z.strictObject({
  findings: z.array(
    z.strictObject({
      claim: text({ min: 1 }),
      evidence: z.array(EvidenceRefSchema),
      confidence: z.enum(["high", "medium", "low"]),
    }),
  ),
  open_questions: z.array(z.string()),
});

export const PlanSliceSchema = z.strictObject({
  id: text({ format: FORMATS.slug }),
  title: text({ min: 1 }),
  goal: text({ min: 1 }),
  files: z.array(RepoPathSchema),
  tests: z.array(z.string()),
  acceptance: z.array(z.string()),
  depends_on: z.array(z.string()),
});

export const PlanCandidateSchema = z.strictObject({
  slices: z.array(PlanSliceSchema),
  risks: z.array(z.string()),
  assumptions: z.array(z.string()),
});

export const ProofReportSchema = z.strictObject({
  checks: z.array(
    z.strictObject({
      name: text({ min: 1 }),
      command: z.string(),
      exit_code: ProcessExitCodeSchema.nullable(),
      outcome: z.enum(["pass", "fail", "skipped", "error"]),
      summary: z.string(),
    }),
  ),
  verdict: z.enum(["pass", "fail", "inconclusive"]),
});

export const ReviewFindingsSchema = z.strictObject({
  findings: z.array(
    z.strictObject({
      severity: z.enum(["blocker", "major", "minor", "nit"]),
      title: text({ min: 1 }),
      detail: z.string(),
      path: RepoPathSchema.optional(),
      line: integer(1, MAX_SAFE).optional(),
      suggestion: z.string().optional(),
    }),
  ),
  verdict: z.enum(["approve", "changes_requested"]),
  coverage: z.string(),
});

export const WrightReportSchema = z.strictObject({
  slice_id: text({ format: FORMATS.slug }),
  summary: text({ min: 1 }),
  tests_added: z.array(RepoPathSchema),
  commands_run: z.array(
    z.strictObject({
      command: z.string(),
      exit_code: ProcessExitCodeSchema.nullable(),
    }),
  ),
});

export const PayloadSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("evidence-dossier"), content: EvidenceDossierSchema }),
  z.strictObject({ type: z.literal("plan-candidate"), content: PlanCandidateSchema }),
  z.strictObject({ type: z.literal("proof-report"), content: ProofReportSchema }),
  z.strictObject({ type: z.literal("review-findings"), content: ReviewFindingsSchema }),
  z.strictObject({ type: z.literal("wright-report"), content: WrightReportSchema }),
]);

export const GateSchema = z.strictObject({
  id: text({ format: FORMATS.slug }),
  kind: z.enum(["product", "scope", "policy", "irreversible", "human-only"]),
  question: text({ min: 1 }),
  options: z.array(z.string()),
  recommendation: z.string().optional(),
});

export const DecisionStoodSchema = z.strictObject({
  decision: text({ min: 1 }),
  rationale: text({ min: 1 }),
});

export const EscalationSchema = z.strictObject({
  reason: z.enum([
    "underspecified",
    "new-dependency",
    "plan-wrong",
    "irreversible-risk",
    "out-of-scope",
    "budget",
    "tooling",
    "other",
  ]),
  detail: text({ min: 1 }),
});

export const AgentResultSchema = z.strictObject({
  result_version: z.literal(RESULT_VERSION),
  run_id: RunIdSchema,
  role: RoleNameSchema,
  status: ResultStatusSchema,
  baseline_id: Sha256Schema,
  budget: ResultBudgetSchema,
  side_effects: SideEffectsSchema,
  payload: PayloadSchema,
  gates: z.array(GateSchema),
  decisions_stood: z.array(DecisionStoodSchema),
  escalation: EscalationSchema.nullable(),
});

export const ActiveRunSchema = z.strictObject({
  run_id: RunIdSchema,
  role: RoleNameSchema,
  step_id: text({ format: FORMATS.stepId }),
  packet_path: RepoPathSchema,
  created_at: TimestampSchema,
});

export const JourneyRefSchema = z.strictObject({
  id: text({ format: FORMATS.journeyId }),
  name: text({ format: FORMATS.slug }),
  driver: text({ format: FORMATS.slug }),
  status: z.enum(["running", "paused-gate", "paused-await", "blocked", "done"]),
  started_at: TimestampSchema,
});

export const WorkspaceStateSchema = z.strictObject({
  schema: z.literal(STATE_SCHEMA),
  active_rite: z.string().nullable(),
  phase: PhaseSchema.nullable(),
  active_runs: z.array(ActiveRunSchema),
  journey: JourneyRefSchema.nullable().optional(),
  updated_at: TimestampSchema,
});

const JourneyStepIdSchema = text({ format: FORMATS.journeyStepId });
const QuestionIdSchema = text({ format: FORMATS.questionId });
const JourneyIdSchema = text({ format: FORMATS.journeyId });

export const QuestionRaisedSchema = z.strictObject({
  type: z.literal("raised"),
  qid: QuestionIdSchema,
  kind: z.enum(["product", "scope", "policy", "irreversible", "human-only"]),
  question: text({ min: 1 }),
  options: z.array(z.string()),
  raised_at: TimestampSchema,
  step_id: JourneyStepIdSchema.optional(),
  journey_id: JourneyIdSchema.optional(),
  run_id: RunIdSchema.optional(),
  gate_id: text({ format: FORMATS.slug }).optional(),
});

export const QuestionAnsweredSchema = z.strictObject({
  type: z.literal("answered"),
  qid: QuestionIdSchema,
  answer: text({ min: 1 }),
  answered_at: TimestampSchema,
});

export const QuestionLineSchema = z.discriminatedUnion("type", [
  QuestionRaisedSchema,
  QuestionAnsweredSchema,
]);

export const DecisionRecordSchema = z.strictObject({
  id: text({ format: FORMATS.decisionId }),
  decided_at: TimestampSchema,
  source: z.enum(["human", "leaf"]),
  decision: text({ min: 1 }),
  rationale: z.string(),
  qid: QuestionIdSchema.optional(),
  run_id: RunIdSchema.optional(),
  step_id: JourneyStepIdSchema.optional(),
  journey_id: JourneyIdSchema.optional(),
});

export const RunEventSchema = z.strictObject({
  ts: TimestampSchema,
  run_id: RunIdSchema,
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
});

// ---- compile-time drift checks: z.infer must equal the TypeScript type, both directions ----

/** True when A and B are the identical type (not merely mutually assignable). */
type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
/** True when each is assignable to the other. */
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mirrors<S extends z.ZodType, U> =
  MutuallyAssignable<z.infer<S>, U> extends true ? Equals<z.infer<S>, U> : false;
type Expect<X extends true> = X;

/** Exported only so the checks are not reported unused; never used at runtime. */
export type ZodMirrorsTypes = [
  Expect<Mirrors<typeof AgentPacketSchema, T.AgentPacket>>,
  Expect<Mirrors<typeof AgentResultSchema, T.AgentResult>>,
  Expect<Mirrors<typeof BaselineSchema, T.Baseline>>,
  Expect<Mirrors<typeof PacketInputSchema, T.PacketInput>>,
  Expect<Mirrors<typeof PacketScopeSchema, T.PacketScope>>,
  Expect<Mirrors<typeof PacketBudgetsSchema, T.PacketBudgets>>,
  Expect<Mirrors<typeof PhaseSchema, T.Phase>>,
  Expect<Mirrors<typeof ResultStatusSchema, T.ResultStatus>>,
  Expect<Mirrors<typeof ResultBudgetSchema, T.ResultBudget>>,
  Expect<Mirrors<typeof RepoWriteSchema, T.RepoWrite>>,
  Expect<Mirrors<typeof ScratchWriteSchema, T.ScratchWrite>>,
  Expect<Mirrors<typeof SideEffectsSchema, T.SideEffects>>,
  Expect<Mirrors<typeof EvidenceRefSchema, T.EvidenceRef>>,
  Expect<Mirrors<typeof EvidenceDossierSchema, T.EvidenceDossier>>,
  Expect<Mirrors<typeof PlanSliceSchema, T.PlanSlice>>,
  Expect<Mirrors<typeof PlanCandidateSchema, T.PlanCandidate>>,
  Expect<Mirrors<typeof ProofReportSchema, T.ProofReport>>,
  Expect<Mirrors<typeof ReviewFindingsSchema, T.ReviewFindings>>,
  Expect<Mirrors<typeof WrightReportSchema, T.WrightReport>>,
  Expect<Mirrors<typeof PayloadSchema, T.Payload>>,
  Expect<Mirrors<typeof GateSchema, T.Gate>>,
  Expect<Mirrors<typeof DecisionStoodSchema, T.DecisionStood>>,
  Expect<Mirrors<typeof EscalationSchema, T.Escalation>>,
  Expect<Mirrors<typeof WorkspaceStateSchema, WorkspaceState>>,
  Expect<Mirrors<typeof RunEventSchema, RunEvent>>,
  Expect<Mirrors<typeof JourneyRefSchema, JourneyRef>>,
  Expect<Mirrors<typeof QuestionRaisedSchema, QuestionRaised>>,
  Expect<Mirrors<typeof QuestionAnsweredSchema, QuestionAnswered>>,
  Expect<Mirrors<typeof QuestionLineSchema, QuestionLine>>,
  Expect<Mirrors<typeof DecisionRecordSchema, DecisionRecord>>,
];
