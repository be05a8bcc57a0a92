/**
 * The envelopes and workspace records, defined once. Each shape here is the single source of three things:
 * - the runtime parser (these zod schemas);
 * - the TypeScript type (`z.infer`, exported by `./types.ts` and `../run/workspace-types.ts`);
 * - the JSON Schema in `schemas/` (`npm run schemas` renders these with `z.toJSONSchema`; `.describe()` text
 *   becomes each field's `description`).
 * A differential test (`./differential.test.ts`) keeps the generated JSON Schemas, compiled by ajv, and these
 * parsers in agreement on real and generated documents.
 *
 * Conventions that keep the two validators identical:
 * - every object is strict (unknown fields rejected), like `additionalProperties: false`;
 * - every pattern is compiled with the `u` flag, as ajv does;
 * - string lengths count code points, as JSON Schema does (zod's own `.min`/`.max` count UTF-16 units), and
 *   are carried into the JSON Schema as `minLength`/`maxLength` metadata;
 * - every integer has explicit bounds within the safe-integer range, which is all `z.int()` accepts.
 */

import { z } from "zod";
import { STATE_SCHEMA } from "../run/workspace-types.js";
import { FORMATS, type StringFormat } from "./formats.js";
import { ROLE_NAMES } from "./roles.js";
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
  // The check above is invisible to z.toJSONSchema; the bounds go into the generated schema as metadata.
  if (min !== undefined || max !== undefined)
    schema = schema.meta({
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
    });
  return schema;
}

/** What an integer field's type error says it expected (zod itself says "number" for a non-number). */
export const INTEGER_EXPECTED = "an integer";

/** An integer within [min, max]; both bounds are required so zod's safe-integer limit never differs. */
function integer(min: number, max: number) {
  return z.int({ error: INTEGER_EXPECTED }).min(min).max(max);
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export const Sha256Schema = text({ format: FORMATS.sha256 }).describe("A lowercase hex SHA-256 digest.");
export const RunIdSchema = text({ format: FORMATS.runId }).describe(
  "A run id: `run-` + UTC timestamp + `-` + 8 hex characters, e.g. `run-20261129T221500Z-1a2b3c4d`.",
);
export const RepoPathSchema = text({ min: 1, max: 4096, format: FORMATS.repoPath }).describe(
  "A repository-relative path with forward slashes: not empty, no leading or trailing `/`, no `..` or `.` " +
    "segments, no empty segments (`a//b`), no backslash, no NUL; at most 4096 characters (code points). Deeper " +
    "checks (containment, symlinks, `.git`, `.devrites/`) are done by the scope module.",
);
export const TimestampSchema = text({ format: FORMATS.timestamp }).describe(
  "An ISO-8601 UTC timestamp, e.g. `2026-11-29T22:15:00.000Z`.",
);
export const RoleNameSchema = z.enum(ROLE_NAMES).describe("A leaf role.");
export const PHASES = ["spec", "plan", "build", "prove", "review", "ship", "quick"] as const;
export const PhaseSchema = z.enum(PHASES).describe("The lifecycle phase the dispatching rite is in.");
const CountSchema = integer(0, MAX_SAFE).describe(
  "A count that has no natural ceiling, bounded by the largest integer JSON numbers carry exactly.",
);
const ProcessExitCodeSchema = integer(-2147483648, 4294967295).describe(
  "A process exit status as the shell or the OS reports it (32-bit, signed or unsigned).",
);
const MaxFiles = () => integer(1, 100000);
const MaxLoadedLines = () => integer(1, 10000000);
const MaxResultLines = () => integer(1, 100000);
const Slug = () => text({ format: FORMATS.slug });
const NonEmpty = () => text({ min: 1 });
const Rite = () => text({ format: FORMATS.rite });
const LeafStepId = () => text({ format: FORMATS.stepId });

export const BaselineSchema = z
  .strictObject({
    id: Sha256Schema.describe(
      "Combined identity: SHA-256 over the length-prefixed `head`, `dirty_sha256` and `touched_sha256`.",
    ),
    head: text({ format: FORMATS.head }).describe(
      "The commit checked out (40 or 64 hex), `unborn` in a repository with no commit yet, or `no-git` outside " +
        "a git repository.",
    ),
    dirty_sha256: Sha256Schema.describe(
      "SHA-256 over the manifest of every changed and untracked-not-ignored path: path, type and content hash.",
    ),
    touched_sha256: Sha256Schema.describe(
      "SHA-256 over the manifest of the packet's allowlisted and input paths as they are on disk (absent included).",
    ),
  })
  .describe(
    "The frozen identity of the candidate (the working tree) at the moment the packet was written. A read-only " +
      "leaf's result is stale when the candidate moves; the wright's result is judged by what changed.",
  );

export const PacketInputSchema = z
  .strictObject({
    path: RepoPathSchema,
    purpose: NonEmpty().describe("Why the leaf should read it."),
    sha256: Sha256Schema.nullable().describe(
      "SHA-256 of the file's bytes at freeze time, or null when the file did not exist.",
    ),
  })
  .describe("A file the leaf is pointed at, with the hash it had when the packet was frozen.");

export const PacketScopeSchema = z
  .strictObject({
    in: z
      .array(RepoPathSchema)
      .describe(
        "Paths (files or directories) the leaf should work within. Guidance for reading; not a write grant.",
      ),
    out: z.array(RepoPathSchema).describe("Paths the leaf must not touch or rely on."),
    allowed_repo_writes: z
      .array(RepoPathSchema)
      .describe(
        "Exact files the leaf may create, modify or delete. Empty for every read-only role; only the " +
          "`devrites-slice-wright` may have entries. No globs, no directories.",
      ),
  })
  .describe("What the leaf may look at and change.");

export const PacketBudgetsSchema = z
  .strictObject({
    max_files: MaxFiles().describe("Most files the leaf may open."),
    max_loaded_lines: MaxLoadedLines().describe("Most lines the leaf may load into its context."),
    max_result_lines: MaxResultLines().describe(
      "Most lines the result file may have (its pretty-printed JSON).",
    ),
  })
  .describe("Ceilings the leaf must stay within; the validator rejects a result that reports more.");

export const AgentPacketSchema = z
  .strictObject({
    packet_version: z.literal(PACKET_VERSION).describe("Envelope version."),
    run_id: RunIdSchema.describe("The run this packet starts."),
    role: RoleNameSchema.describe("The leaf role that must execute the packet."),
    rite: Rite().describe("The rite that dispatched it, e.g. `rite-build`."),
    phase: PhaseSchema.describe("The lifecycle phase."),
    attempt: integer(1, 3).describe(
      "Attempt number for this step; a retry quotes the previous defect and increments it.",
    ),
    step_id: LeafStepId().describe(
      "Composite step id `<rite>/<role>#<n>`, stable across retries of the same step.",
    ),
    workspace: RepoPathSchema.describe("The workspace folder, repository-relative (normally `.devrites`)."),
    baseline: BaselineSchema.describe("The candidate identity frozen when the packet was written."),
    objective: text({ min: 1, max: 4000 }).describe("What the leaf must achieve, in one paragraph."),
    inputs: z.array(PacketInputSchema).describe("Files to read first."),
    scope: PacketScopeSchema.describe("Reading focus and the exact write allowlist."),
    budgets: PacketBudgetsSchema.describe("Ceilings."),
    result_path: RepoPathSchema.describe(
      "Where the leaf writes its `agent-result/v1`, repository-relative, under the run folder.",
    ),
    result_schema: z.literal(RESULT_VERSION).describe("The schema the result must satisfy."),
    created_at: TimestampSchema.describe("When the packet was frozen."),
    expires_at: TimestampSchema.describe(
      "After this instant a result for this packet is rejected as expired.",
    ).optional(),
  })
  .describe(
    "`agent-packet/v1`: what a root rite hands a leaf. Written by `devrites packet new`; never edited.",
  );

export const ResultStatusSchema = z
  .enum(["complete", "partial", "blocked", "cannot_verify", "failed"])
  .describe(
    "Terminal status of a leaf run. `cannot_verify` is never a pass; `blocked` and `failed` need an escalation.",
  );

export const ResultBudgetSchema = z
  .strictObject({
    files_used: CountSchema.describe(
      "Files the leaf opened. Over the ceiling is the validator's verdict, not a schema error.",
    ),
    loaded_lines_used: CountSchema.describe("Lines the leaf loaded into its context."),
    max_files: MaxFiles()
      .describe("The packet's `budgets.max_files`; optional, and when given must match.")
      .optional(),
    max_loaded_lines: MaxLoadedLines()
      .describe("The packet's `budgets.max_loaded_lines`; optional, and when given must match.")
      .optional(),
    max_result_lines: MaxResultLines()
      .describe("The packet's `budgets.max_result_lines`; optional, and when given must match.")
      .optional(),
  })
  .describe(
    "Budget consumption. The packet's ceilings may be echoed (each must then equal the packet's); the packet " +
      "holds them either way.",
  );

export const RepoWriteChangeSchema = z
  .strictObject({
    path: RepoPathSchema,
    op: z.enum(["create", "modify"]),
    sha256_after: Sha256Schema.describe("SHA-256 of the file's bytes after the write."),
  })
  .describe("A file the leaf created or modified.");

export const RepoWriteDeleteSchema = z
  .strictObject({
    path: RepoPathSchema,
    op: z.literal("delete"),
    sha256_after: z.null().describe("Always null: a deleted file has no content."),
  })
  .describe("A file the leaf deleted.");

export const RepoWriteSchema = z
  .discriminatedUnion("op", [RepoWriteChangeSchema, RepoWriteDeleteSchema])
  .describe(
    "One repository file the leaf created, modified or deleted. Tagged by `op`: `sha256_after` is null exactly " +
      "when `op` is `delete`.",
  );

export const ScratchWriteSchema = z
  .strictObject({
    path: NonEmpty().describe("Absolute or scratch-relative path."),
    sha256: Sha256Schema,
  })
  .describe("A file the leaf wrote outside the repository (its scratch space), for the record.");

export const SideEffectsSchema = z
  .strictObject({
    repo_writes: z.array(RepoWriteSchema).default([]).describe("Absent is none."),
    scratch_writes: z.array(ScratchWriteSchema).default([]).describe("Absent is none."),
  })
  .describe(
    "Everything the leaf changed. Read-only roles must report none in `repo_writes`. Absent (or either list " +
      "absent) is none.",
  );

export const EvidenceRefSchema = z
  .strictObject({
    path: RepoPathSchema,
    lines: text({ format: FORMATS.lines }).describe("Line or range, e.g. `12` or `12-40`.").optional(),
    excerpt: z.string().describe("A short quotation.").optional(),
  })
  .describe("A pointer into the repository that backs a claim.");

export const EvidenceDossierSchema = z
  .strictObject({
    findings: z.array(
      z.strictObject({
        claim: NonEmpty(),
        evidence: z.array(EvidenceRefSchema),
        confidence: z.enum(["high", "medium", "low"]),
      }),
    ),
    open_questions: z.array(z.string()),
  })
  .describe("Payload of `devrites-evidence-scout`.");

export const PlanSliceSchema = z
  .strictObject({
    id: Slug(),
    title: NonEmpty(),
    goal: NonEmpty(),
    files: z.array(RepoPathSchema).describe("Exact files the slice's wright would need on its allowlist."),
    tests: z.array(z.string()).describe("Tests that prove the slice."),
    acceptance: z.array(z.string()),
    depends_on: z.array(z.string()),
  })
  .describe("One vertical slice proposed by the plan drafter.");

export const PlanCandidateSchema = z
  .strictObject({
    slices: z.array(PlanSliceSchema),
    risks: z.array(z.string()),
    assumptions: z.array(z.string()),
  })
  .describe("Payload of `devrites-plan-drafter`.");

const EXIT_OR_NULL = "Exit code, or null when the command did not run (or was killed by a signal).";

export const ProofReportSchema = z
  .strictObject({
    checks: z.array(
      z.strictObject({
        name: NonEmpty(),
        command: z.string(),
        exit_code: ProcessExitCodeSchema.nullable().describe(EXIT_OR_NULL),
        outcome: z.enum(["pass", "fail", "skipped", "error"]),
        summary: z.string(),
      }),
    ),
    verdict: z.enum(["pass", "fail", "inconclusive"]),
  })
  .describe("Payload of `devrites-proof-runner`.");

export const ReviewFindingsSchema = z
  .strictObject({
    findings: z.array(
      z.strictObject({
        severity: z.enum(["blocker", "major", "minor", "nit"]),
        title: NonEmpty(),
        detail: z.string(),
        path: RepoPathSchema.optional(),
        line: integer(1, MAX_SAFE).describe("1-based line the finding is about.").optional(),
        suggestion: z.string().optional(),
      }),
    ),
    verdict: z.enum(["approve", "changes_requested"]),
    coverage: z
      .string()
      .describe(
        'Required reading of what was reviewed when there are no findings: a bare "looks good" is not a review.',
      ),
  })
  .describe("Payload of `devrites-spec-reviewer` and `devrites-code-reviewer`.");

export const WrightReportSchema = z
  .strictObject({
    slice_id: Slug(),
    summary: NonEmpty(),
    tests_added: z.array(RepoPathSchema),
    commands_run: z.array(
      z.strictObject({
        command: z.string(),
        exit_code: ProcessExitCodeSchema.nullable().describe(EXIT_OR_NULL),
      }),
    ),
  })
  .describe("Payload of `devrites-slice-wright`.");

export const PayloadSchema = z
  .discriminatedUnion("type", [
    z.strictObject({ type: z.literal("evidence-dossier"), content: EvidenceDossierSchema }),
    z.strictObject({ type: z.literal("plan-candidate"), content: PlanCandidateSchema }),
    z.strictObject({ type: z.literal("proof-report"), content: ProofReportSchema }),
    z.strictObject({ type: z.literal("review-findings"), content: ReviewFindingsSchema }),
    z.strictObject({ type: z.literal("wright-report"), content: WrightReportSchema }),
  ])
  .describe("The role-specific payload, tagged by `type`.");

const QUESTION_KINDS = ["product", "scope", "policy", "irreversible", "human-only"] as const;

export const GateSchema = z
  .strictObject({
    id: Slug(),
    kind: z.enum(QUESTION_KINDS),
    question: NonEmpty(),
    options: z.array(z.string()),
    recommendation: z.string().optional(),
  })
  .describe("A decision only a human may take, raised by the leaf for the root to put to the user.");

export const DecisionStoodSchema = z
  .strictObject({
    decision: NonEmpty(),
    rationale: NonEmpty(),
  })
  .describe("A decision the leaf took within its remit, recorded so the root can review it.");

export const EscalationSchema = z
  .strictObject({
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
    detail: NonEmpty(),
  })
  .describe("Why the leaf stopped short; required for `blocked` and `failed`.");

export const AgentResultSchema = z
  .strictObject({
    result_version: z.literal(RESULT_VERSION).describe("Envelope version."),
    run_id: RunIdSchema.describe("Must equal the packet's `run_id`."),
    role: RoleNameSchema.describe("Must equal the packet's `role`."),
    status: ResultStatusSchema,
    baseline_id: Sha256Schema.describe(
      "Must equal the packet's `baseline.id`: the candidate the leaf started from.",
    ),
    budget: ResultBudgetSchema,
    side_effects: SideEffectsSchema.default(() => ({ repo_writes: [], scratch_writes: [] })),
    payload: PayloadSchema,
    gates: z.array(GateSchema).default([]).describe("Absent is none."),
    decisions_stood: z.array(DecisionStoodSchema).default([]).describe("Absent is none."),
    escalation: EscalationSchema.nullable()
      .default(null)
      .describe("Null (or absent) unless the leaf stopped short."),
  })
  .describe("`agent-result/v1`: what a leaf returns, at the packet's `result_path`.");

// ---- the workspace records (`.devrites/`) ----

const JourneyStepIdSchema = text({ format: FORMATS.journeyStepId }).describe(
  "A composite step id `<rite>/<actor>#<n>`: the rite, then the leaf role (`devrites-…`) or `human` for a " +
    "human gate, then the 1-based occurrence of that actor in the rite's journey. Stable across retries.",
);
const QuestionIdSchema = text({ format: FORMATS.questionId }).describe(
  "A question id: `q-` + the UTC date it was raised + `-` + a sequence number of at least three digits, " +
    "e.g. `q-20261129-001`.",
);
const JourneyIdSchema = text({ format: FORMATS.journeyId }).describe(
  "A journey id: `j-` + UTC timestamp + `-` + 8 hex characters, e.g. `j-20261129T221500Z-1a2b3c4d`.",
);

export const ActiveRunSchema = z
  .strictObject({
    run_id: RunIdSchema,
    role: RoleNameSchema,
    step_id: LeafStepId().describe("Composite step id `<rite>/<role>#<n>`."),
    packet_path: RepoPathSchema.describe("Repository-relative path of the packet."),
    created_at: TimestampSchema,
  })
  .describe("A run between `devrites packet new` and its accepted (or abandoned) result.");

export const JourneyStatusSchema = z
  .enum(["running", "paused-gate", "paused-await", "blocked", "done"])
  .describe("Where an engine-driven journey stands.");

export const JourneyRefSchema = z
  .strictObject({
    id: JourneyIdSchema,
    name: Slug().describe("The registered journey definition, e.g. `demo`."),
    driver: Slug().describe("The registered driver that dispatches its packets, e.g. `scripted` or `host`."),
    status: JourneyStatusSchema,
    started_at: TimestampSchema,
  })
  .describe(
    "The journey the engine is driving: enough to find its definition and driver again on `devrites resume`. " +
      "The history itself lives in the ledgers, never here.",
  );

export const WorkspaceStateSchema = z
  .strictObject({
    schema: z.literal(STATE_SCHEMA),
    active_rite: z.string().nullable().describe("The rite the journey is in, or null when idle."),
    phase: PhaseSchema.nullable(),
    active_runs: z.array(ActiveRunSchema),
    journey: JourneyRefSchema.nullable()
      .describe(
        "The engine-driven journey, when there is one (absent or null for journeys the host model drives).",
      )
      .optional(),
    updated_at: TimestampSchema,
  })
  .describe(
    "`.devrites/state.json`: where the journey stands. Rewritten atomically; the history is in the event logs.",
  );

export const QuestionKindSchema = z
  .enum(QUESTION_KINDS)
  .describe(
    "Why a human must decide. Objective failures never raise a question; they end in a technical blocker.",
  );

export const QuestionRaisedSchema = z
  .strictObject({
    type: z.literal("raised"),
    qid: QuestionIdSchema,
    kind: QuestionKindSchema,
    question: NonEmpty(),
    options: z.array(z.string()).describe("Suggested answers; empty when the answer is free text."),
    raised_at: TimestampSchema,
    step_id: JourneyStepIdSchema.describe("The journey step that waits on the answer.").optional(),
    journey_id: JourneyIdSchema.describe("The engine journey that raised it.").optional(),
    run_id: RunIdSchema.describe("The run whose result carried the gate.").optional(),
    gate_id: Slug().describe("The gate's own id inside that result.").optional(),
  })
  .describe('A human gate as raised: one line of `.devrites/questions.jsonl` with `type: "raised"`.');

export const QuestionAnsweredSchema = z
  .strictObject({
    type: z.literal("answered"),
    qid: QuestionIdSchema,
    answer: NonEmpty(),
    answered_at: TimestampSchema,
  })
  .describe(
    'An answer: one line of `.devrites/questions.jsonl` with `type: "answered"`, after the question\'s `raised` line.',
  );

export const QuestionLineSchema = z
  .discriminatedUnion("type", [QuestionRaisedSchema, QuestionAnsweredSchema])
  .describe("One line of `.devrites/questions.jsonl`.");

export const DecisionRecordSchema = z
  .strictObject({
    id: text({ format: FORMATS.decisionId }).describe(
      "A decision id: `d-` + UTC date + `-` + sequence number, e.g. `d-20261129-001`.",
    ),
    decided_at: TimestampSchema,
    source: z
      .enum(["human", "leaf"])
      .describe(
        "`human`: the answer to a question; `leaf`: a decision a leaf took within its remit, accepted with its result.",
      ),
    decision: NonEmpty(),
    rationale: z.string(),
    qid: QuestionIdSchema.describe("The answered question, for `human` decisions.").optional(),
    run_id: RunIdSchema.describe(
      "The run whose accepted result carried it, for `leaf` decisions.",
    ).optional(),
    step_id: JourneyStepIdSchema.optional(),
    journey_id: JourneyIdSchema.optional(),
  })
  .describe("One accepted decision: one line of `.devrites/decisions.jsonl`.");

export const RunEventSchema = z
  .strictObject({
    ts: TimestampSchema.describe("When it happened."),
    run_id: RunIdSchema,
    type: z
      .string()
      .describe(
        "What happened, e.g. `packet.created`, `guard.decision`, `result.recorded`, `result.checked`.",
      ),
    data: z.record(z.string(), z.unknown()).describe("Event-specific fields."),
  })
  .describe(
    "One line of `.devrites/runs/<run-id>/events.jsonl`. Append-only; never rewritten. Known types and their " +
      "`data`: `step.intent` (always the run's first engine event, written before the packet exists), " +
      "`step.dispatched`, `result.returned`, `result.checked`, `step.accepted`, `step.retry`, `step.blocked`; " +
      "other modules add `packet.created`, `guard.decision`, `result.recorded`.",
  );
