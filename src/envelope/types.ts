/**
 * The dispatch envelopes. These TypeScript types are the single source of truth: `npm run schemas`
 * generates `schemas/agent-packet.v1.schema.json` and `schemas/agent-result.v1.schema.json` from them
 * (JSDoc becomes the schema description), and `./zod.ts` mirrors them for runtime parsing; a differential
 * test keeps the two in agreement. Objects are closed: unknown fields are rejected.
 */

import type { RoleName } from "./roles.js";

export const PACKET_VERSION = "agent-packet/v1";
export const RESULT_VERSION = "agent-result/v1";

/**
 * A lowercase hex SHA-256 digest.
 * @pattern ^[0-9a-f]{64}$
 */
export type Sha256 = string;

/**
 * A run id: `run-` + UTC timestamp + `-` + 8 hex characters, e.g. `run-20261129T221500Z-1a2b3c4d`.
 * @pattern ^run-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$
 */
export type RunId = string;

/**
 * A repository-relative path with forward slashes: not empty, no leading or trailing `/`, no `..` or `.`
 * segments, no empty segments (`a//b`), no backslash, no NUL; at most 4096 characters (code points).
 * Deeper checks (containment, symlinks, `.git`, `.devrites/`) are done by the scope module.
 * @minLength 1
 * @maxLength 4096
 * @pattern ^(?!\/)(?![\s\S]*\/$)(?!([\s\S]*\/)?\.\.?(\/|$))(?![\s\S]*\/\/)[^\u0000\\]+$
 */
export type RepoPath = string;

/**
 * An ISO-8601 UTC timestamp, e.g. `2026-11-29T22:15:00.000Z`.
 * @pattern ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$
 */
export type Timestamp = string;

/**
 * A count that has no natural ceiling, bounded by the largest integer JSON numbers carry exactly.
 * @asType integer
 * @minimum 0
 * @maximum 9007199254740991
 */
export type Count = number;

/**
 * A process exit status as the shell or the OS reports it (32-bit, signed or unsigned).
 * @asType integer
 * @minimum -2147483648
 * @maximum 4294967295
 */
export type ProcessExitCode = number;

/** The lifecycle phase the dispatching rite is in. */
export type Phase = "spec" | "plan" | "build" | "prove" | "review" | "ship" | "quick";

/**
 * The frozen identity of the candidate (the working tree) at the moment the packet was written.
 * A read-only leaf's result is stale when the candidate moves; the wright's result is judged by what changed.
 */
export interface Baseline {
  /** Combined identity: SHA-256 over the length-prefixed `head`, `dirty_sha256` and `touched_sha256`. */
  id: Sha256;
  /**
   * The commit checked out (40 or 64 hex), `unborn` in a repository with no commit yet, or `no-git`
   * outside a git repository.
   * @pattern ^([0-9a-f]{40}|[0-9a-f]{64}|unborn|no-git)$
   */
  head: string;
  /** SHA-256 over the manifest of every changed and untracked-not-ignored path: path, type and content hash. */
  dirty_sha256: Sha256;
  /** SHA-256 over the manifest of the packet's allowlisted and input paths as they are on disk (absent included). */
  touched_sha256: Sha256;
}

/** A file the leaf is pointed at, with the hash it had when the packet was frozen. */
export interface PacketInput {
  path: RepoPath;
  /**
   * Why the leaf should read it.
   * @minLength 1
   */
  purpose: string;
  /** SHA-256 of the file's bytes at freeze time, or null when the file did not exist. */
  sha256: Sha256 | null;
}

/** What the leaf may look at and change. */
export interface PacketScope {
  /** Paths (files or directories) the leaf should work within. Guidance for reading; not a write grant. */
  in: RepoPath[];
  /** Paths the leaf must not touch or rely on. */
  out: RepoPath[];
  /**
   * Exact files the leaf may create, modify or delete. Empty for every read-only role; only the
   * `devrites-slice-wright` may have entries. No globs, no directories.
   */
  allowed_repo_writes: RepoPath[];
}

/** Ceilings the leaf must stay within; the validator rejects a result that reports more. */
export interface PacketBudgets {
  /**
   * Most files the leaf may open.
   * @minimum 1
   * @maximum 100000
   * @asType integer
   */
  max_files: number;
  /**
   * Most lines the leaf may load into its context.
   * @minimum 1
   * @maximum 10000000
   * @asType integer
   */
  max_loaded_lines: number;
  /**
   * Most lines the result file may have (its pretty-printed JSON).
   * @minimum 1
   * @maximum 100000
   * @asType integer
   */
  max_result_lines: number;
}

/** `agent-packet/v1`: what a root rite hands a leaf. Written by `devrites packet new`; never edited. */
export interface AgentPacket {
  /** Envelope version. */
  packet_version: "agent-packet/v1";
  /** The run this packet starts. */
  run_id: RunId;
  /** The leaf role that must execute the packet. */
  role: RoleName;
  /**
   * The rite that dispatched it, e.g. `rite-build`.
   * @pattern ^rite(-[a-z0-9]+)*$
   */
  rite: string;
  /** The lifecycle phase. */
  phase: Phase;
  /**
   * Attempt number for this step; a retry quotes the previous defect and increments it.
   * @minimum 1
   * @maximum 3
   * @asType integer
   */
  attempt: number;
  /**
   * Composite step id `<rite>/<role>#<n>`, stable across retries of the same step.
   * @pattern ^rite(-[a-z0-9]+)*\/devrites-[a-z0-9-]+#[0-9]+$
   */
  step_id: string;
  /** The workspace folder, repository-relative (normally `.devrites`). */
  workspace: RepoPath;
  /** The candidate identity frozen when the packet was written. */
  baseline: Baseline;
  /**
   * What the leaf must achieve, in one paragraph.
   * @minLength 1
   * @maxLength 4000
   */
  objective: string;
  /** Files to read first. */
  inputs: PacketInput[];
  /** Reading focus and the exact write allowlist. */
  scope: PacketScope;
  /** Ceilings. */
  budgets: PacketBudgets;
  /** Where the leaf writes its `agent-result/v1`, repository-relative, under the run folder. */
  result_path: RepoPath;
  /** The schema the result must satisfy. */
  result_schema: "agent-result/v1";
  /** When the packet was frozen. */
  created_at: Timestamp;
  /** After this instant a result for this packet is rejected as expired. */
  expires_at?: Timestamp;
}

/** Terminal status of a leaf run. `cannot_verify` is never a pass; `blocked` and `failed` need an escalation. */
export type ResultStatus = "complete" | "partial" | "blocked" | "cannot_verify" | "failed";

/** Budget consumption, with the packet's ceilings echoed so a result can be read on its own. */
export interface ResultBudget {
  /** Files the leaf opened. Over the ceiling is the validator's verdict, not a schema error. */
  files_used: Count;
  /** Lines the leaf loaded into its context. */
  loaded_lines_used: Count;
  /**
   * The packet's `budgets.max_files`.
   * @minimum 1
   * @maximum 100000
   * @asType integer
   */
  max_files: number;
  /**
   * The packet's `budgets.max_loaded_lines`.
   * @minimum 1
   * @maximum 10000000
   * @asType integer
   */
  max_loaded_lines: number;
  /**
   * The packet's `budgets.max_result_lines`.
   * @minimum 1
   * @maximum 100000
   * @asType integer
   */
  max_result_lines: number;
}

/**
 * One repository file the leaf created, modified or deleted. Tagged by `op`: `sha256_after` is null
 * exactly when `op` is `delete`.
 * @discriminator op
 */
export type RepoWrite = RepoWriteChange | RepoWriteDelete;

/** A file the leaf created or modified. */
export interface RepoWriteChange {
  path: RepoPath;
  op: "create" | "modify";
  /** SHA-256 of the file's bytes after the write. */
  sha256_after: Sha256;
}

/** A file the leaf deleted. */
export interface RepoWriteDelete {
  path: RepoPath;
  op: "delete";
  /** Always null: a deleted file has no content. */
  sha256_after: null;
}

/** A file the leaf wrote outside the repository (its scratch space), for the record. */
export interface ScratchWrite {
  /**
   * Absolute or scratch-relative path.
   * @minLength 1
   */
  path: string;
  sha256: Sha256;
}

/** Everything the leaf changed. Read-only roles must report none in `repo_writes`. */
export interface SideEffects {
  repo_writes: RepoWrite[];
  scratch_writes: ScratchWrite[];
}

/** A pointer into the repository that backs a claim. */
export interface EvidenceRef {
  path: RepoPath;
  /**
   * Line or range, e.g. `12` or `12-40`.
   * @pattern ^[0-9]+(-[0-9]+)?$
   */
  lines?: string;
  /** A short quotation. */
  excerpt?: string;
}

/** Payload of `devrites-evidence-scout`. */
export interface EvidenceDossier {
  findings: {
    /** @minLength 1 */
    claim: string;
    evidence: EvidenceRef[];
    confidence: "high" | "medium" | "low";
  }[];
  open_questions: string[];
}

/** One vertical slice proposed by the plan drafter. */
export interface PlanSlice {
  /** @pattern ^[a-z0-9][a-z0-9-]*$ */
  id: string;
  /** @minLength 1 */
  title: string;
  /** @minLength 1 */
  goal: string;
  /** Exact files the slice's wright would need on its allowlist. */
  files: RepoPath[];
  /** Tests that prove the slice. */
  tests: string[];
  acceptance: string[];
  depends_on: string[];
}

/** Payload of `devrites-plan-drafter`. */
export interface PlanCandidate {
  slices: PlanSlice[];
  risks: string[];
  assumptions: string[];
}

/** Payload of `devrites-proof-runner`. */
export interface ProofReport {
  checks: {
    /** @minLength 1 */
    name: string;
    command: string;
    /** Exit code, or null when the command did not run (or was killed by a signal). */
    exit_code: ProcessExitCode | null;
    outcome: "pass" | "fail" | "skipped" | "error";
    summary: string;
  }[];
  verdict: "pass" | "fail" | "inconclusive";
}

/** Payload of `devrites-spec-reviewer` and `devrites-code-reviewer`. */
export interface ReviewFindings {
  findings: {
    severity: "blocker" | "major" | "minor" | "nit";
    /** @minLength 1 */
    title: string;
    detail: string;
    path?: RepoPath;
    /**
     * 1-based line the finding is about.
     * @minimum 1
     * @maximum 9007199254740991
     * @asType integer
     */
    line?: number;
    suggestion?: string;
  }[];
  verdict: "approve" | "changes_requested";
  /** Required reading of what was reviewed when there are no findings: a bare "looks good" is not a review. */
  coverage: string;
}

/** Payload of `devrites-slice-wright`. */
export interface WrightReport {
  /** @pattern ^[a-z0-9][a-z0-9-]*$ */
  slice_id: string;
  /** @minLength 1 */
  summary: string;
  tests_added: RepoPath[];
  commands_run: {
    command: string;
    /** Exit code, or null when the command did not run (or was killed by a signal). */
    exit_code: ProcessExitCode | null;
  }[];
}

/**
 * The role-specific payload, tagged by `type`.
 * @discriminator type
 */
export type Payload =
  | { type: "evidence-dossier"; content: EvidenceDossier }
  | { type: "plan-candidate"; content: PlanCandidate }
  | { type: "proof-report"; content: ProofReport }
  | { type: "review-findings"; content: ReviewFindings }
  | { type: "wright-report"; content: WrightReport };

/** A decision only a human may take, raised by the leaf for the root to put to the user. */
export interface Gate {
  /** @pattern ^[a-z0-9][a-z0-9-]*$ */
  id: string;
  kind: "product" | "scope" | "policy" | "irreversible" | "human-only";
  /** @minLength 1 */
  question: string;
  options: string[];
  recommendation?: string;
}

/** A decision the leaf took within its remit, recorded so the root can review it. */
export interface DecisionStood {
  /** @minLength 1 */
  decision: string;
  /** @minLength 1 */
  rationale: string;
}

/** Why the leaf stopped short; required for `blocked` and `failed`. */
export interface Escalation {
  reason:
    | "underspecified"
    | "new-dependency"
    | "plan-wrong"
    | "irreversible-risk"
    | "out-of-scope"
    | "budget"
    | "tooling"
    | "other";
  /** @minLength 1 */
  detail: string;
}

/** `agent-result/v1`: what a leaf returns, at the packet's `result_path`. */
export interface AgentResult {
  /** Envelope version. */
  result_version: "agent-result/v1";
  /** Must equal the packet's `run_id`. */
  run_id: RunId;
  /** Must equal the packet's `role`. */
  role: RoleName;
  status: ResultStatus;
  /** Must equal the packet's `baseline.id`: the candidate the leaf started from. */
  baseline_id: Sha256;
  budget: ResultBudget;
  side_effects: SideEffects;
  payload: Payload;
  gates: Gate[];
  decisions_stood: DecisionStood[];
  /** Null unless the leaf stopped short. */
  escalation: Escalation | null;
}
