/**
 * The string formats of the envelopes and records, without zod: the hooks read ids and paths on every tool
 * call and must not load a schema library to do it. `./zod.ts` builds its parsers from these, and the
 * generated JSON Schemas carry the same patterns.
 */

/** A named string format: the pattern (JSON Schema `pattern` syntax) and what a human should write. */
export interface StringFormat {
  /** Regular-expression source, as it appears in the generated JSON Schema's `pattern`. */
  pattern: string;
  /** What is expected, for diagnostics: `a run id like run-20261129T221500Z-1a2b3c4d`. */
  expected: string;
}

/**
 * Every pattern the envelopes and records use. The schema-drift test checks that this set equals the set of
 * patterns in the generated JSON Schemas, so a pattern edited on one side only fails the build.
 */
export const FORMATS = {
  sha256: { pattern: "^[0-9a-f]{64}$", expected: "a lowercase hex SHA-256 (64 characters 0-9a-f)" },
  runId: {
    pattern: "^run-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$",
    expected: "a run id like run-20261129T221500Z-1a2b3c4d",
  },
  repoPath: {
    pattern: "^(?!\\/)(?![\\s\\S]*\\/$)(?!([\\s\\S]*\\/)?\\.\\.?(\\/|$))(?![\\s\\S]*\\/\\/)[^\\u0000\\\\]+$",
    expected: "a repository-relative path like src/index.ts",
  },
  timestamp: {
    pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$",
    expected: "an ISO-8601 UTC timestamp like 2026-11-29T22:15:00.000Z",
  },
  head: {
    pattern: "^([0-9a-f]{40}|[0-9a-f]{64}|unborn|no-git)$",
    expected: "a commit id (40 or 64 lowercase hex), `unborn` or `no-git`",
  },
  rite: { pattern: "^rite(-[a-z0-9]+)*$", expected: "a rite name like rite-build" },
  stepId: {
    pattern: "^rite(-[a-z0-9]+)*\\/devrites-[a-z0-9-]+#[0-9]+$",
    expected: "a step id like rite-build/devrites-slice-wright#1",
  },
  /** A journey step: a leaf role or `human` (gates), numbered from 1. */
  journeyStepId: {
    pattern: "^rite(-[a-z0-9]+)*\\/[a-z0-9][a-z0-9-]*#[1-9][0-9]*$",
    expected: "a step id like rite-build/devrites-slice-wright#2 or rite-ship/human#1",
  },
  journeyId: {
    pattern: "^j-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$",
    expected: "a journey id like j-20261129T221500Z-1a2b3c4d",
  },
  questionId: { pattern: "^q-[0-9]{8}-[0-9]{3,}$", expected: "a question id like q-20261129-001" },
  decisionId: { pattern: "^d-[0-9]{8}-[0-9]{3,}$", expected: "a decision id like d-20261129-001" },
  lines: { pattern: "^[0-9]+(-[0-9]+)?$", expected: "a line or a range like 12 or 12-40" },
  slug: { pattern: "^[a-z0-9][a-z0-9-]*$", expected: "a lowercase slug like add-parser (a-z, 0-9, -)" },
} as const satisfies Record<string, StringFormat>;
