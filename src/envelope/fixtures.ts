/**
 * Valid sample envelopes for tests. Every call returns a fresh object, so a test may mutate its copy.
 * A sample result pairs with `samplePacket(result.role)`: same run id, baseline and budgets.
 */

import { type PayloadType, ROLES, type RoleName } from "./roles.js";
import {
  type AgentPacket,
  type AgentResult,
  type Baseline,
  PACKET_VERSION,
  type Payload,
  RESULT_VERSION,
} from "./types.js";

export const SAMPLE_RUN_ID = "run-20261129T221500Z-1a2b3c4d";
export const SAMPLE_CREATED_AT = "2026-11-29T22:15:00.000Z";

/** Deterministic, distinct digests for samples: `sampleSha(1)` = `0000…0001`. */
export function sampleSha(n: number): string {
  return n.toString(16).padStart(64, "0");
}

function sampleBaseline(): Baseline {
  return {
    id: sampleSha(0xb0),
    head: "3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a",
    dirty_sha256: sampleSha(0xd1),
    touched_sha256: sampleSha(0x70),
  };
}

/** The role that returns each payload type (reviews: the code reviewer). */
export const SAMPLE_ROLE_FOR_PAYLOAD: Readonly<Record<PayloadType, RoleName>> = {
  "evidence-dossier": "devrites-evidence-scout",
  "plan-candidate": "devrites-plan-drafter",
  "proof-report": "devrites-proof-runner",
  "review-findings": "devrites-code-reviewer",
  "wright-report": "devrites-slice-wright",
};

/** The files the sample wright may write (and that its sample result reports). */
export const SAMPLE_ALLOWED_WRITES = ["src/parser.ts", "src/parser.test.ts", "src/legacy-parser.ts"];

/**
 * A valid `agent-packet/v1`. Default role: the slice wright, with a write allowlist; any read-only role
 * gets an empty allowlist.
 */
export function samplePacket(role: RoleName = "devrites-slice-wright"): AgentPacket {
  const writer = ROLES[role].mode === "writer";
  return {
    packet_version: PACKET_VERSION,
    run_id: SAMPLE_RUN_ID,
    role,
    rite: "rite-build",
    phase: "build",
    attempt: 1,
    step_id: `rite-build/${role}#1`,
    workspace: ".devrites",
    baseline: sampleBaseline(),
    objective: "Add a tolerant parser for the settings file and prove it with tests.",
    inputs: [
      { path: "docs/settings.md", purpose: "the format to parse", sha256: sampleSha(0x11) },
      { path: "src/parser.ts", purpose: "the file to replace", sha256: null },
    ],
    scope: {
      in: ["src", "docs/settings.md"],
      out: ["src/cli"],
      allowed_repo_writes: writer ? [...SAMPLE_ALLOWED_WRITES] : [],
    },
    budgets: { max_files: 40, max_loaded_lines: 20000, max_result_lines: 400 },
    result_path: `.devrites/runs/${SAMPLE_RUN_ID}/result.json`,
    result_schema: RESULT_VERSION,
    created_at: SAMPLE_CREATED_AT,
    expires_at: "2026-11-30T22:15:00Z",
  };
}

function samplePayload(type: PayloadType): Payload {
  switch (type) {
    case "evidence-dossier":
      return {
        type,
        content: {
          findings: [
            {
              claim: "Settings are read in one place.",
              evidence: [
                { path: "src/config.ts", lines: "12-40", excerpt: "export function loadSettings" },
                { path: "docs/settings.md" },
              ],
              confidence: "high",
            },
          ],
          open_questions: ["Should unknown keys warn or fail?"],
        },
      };
    case "plan-candidate":
      return {
        type,
        content: {
          slices: [
            {
              id: "tolerant-parser",
              title: "Tolerant settings parser",
              goal: "Parse settings with comments and trailing commas.",
              files: ["src/parser.ts", "src/parser.test.ts"],
              tests: ["src/parser.test.ts"],
              acceptance: ["comments are ignored", "a trailing comma is accepted"],
              depends_on: [],
            },
          ],
          risks: ["the old parser is used by the CLI"],
          assumptions: ["settings files are UTF-8"],
        },
      };
    case "proof-report":
      return {
        type,
        content: {
          checks: [
            {
              name: "unit tests",
              command: "npm test",
              exit_code: 0,
              outcome: "pass",
              summary: "212 passed",
            },
            {
              name: "lint",
              command: "npm run lint",
              exit_code: null,
              outcome: "skipped",
              summary: "no linter",
            },
          ],
          verdict: "pass",
        },
      };
    case "review-findings":
      return {
        type,
        content: {
          findings: [
            {
              severity: "minor",
              title: "Error message lacks the offending key",
              detail: "The parser reports `bad key` without naming it.",
              path: "src/parser.ts",
              line: 42,
              suggestion: "Include the key in the message.",
            },
          ],
          verdict: "approve",
          coverage: "Read src/parser.ts and src/parser.test.ts in full.",
        },
      };
    case "wright-report":
      return {
        type,
        content: {
          slice_id: "tolerant-parser",
          summary: "Replaced the parser and added tests.",
          tests_added: ["src/parser.test.ts"],
          commands_run: [
            { command: "npm test", exit_code: 0 },
            { command: "npm run lint", exit_code: 1 },
          ],
        },
      };
  }
}

/**
 * A valid `agent-result/v1` carrying the given payload type, returned by the role that produces it.
 * Only the wright's result reports repository writes (one create, one modify, one delete).
 */
export function sampleResult(payloadType: PayloadType): AgentResult {
  const role = SAMPLE_ROLE_FOR_PAYLOAD[payloadType];
  const packet = samplePacket(role);
  const writer = ROLES[role].mode === "writer";
  return {
    result_version: RESULT_VERSION,
    run_id: packet.run_id,
    role,
    status: "complete",
    baseline_id: packet.baseline.id,
    budget: { files_used: 7, loaded_lines_used: 1200, ...packet.budgets },
    side_effects: {
      repo_writes: writer
        ? [
            { path: "src/parser.ts", op: "modify", sha256_after: sampleSha(0xa1) },
            { path: "src/parser.test.ts", op: "create", sha256_after: sampleSha(0xa2) },
            { path: "src/legacy-parser.ts", op: "delete", sha256_after: null },
          ]
        : [],
      scratch_writes: [{ path: "notes.md", sha256: sampleSha(0x5c) }],
    },
    payload: samplePayload(payloadType),
    gates: [],
    decisions_stood: [
      {
        decision: "Kept the public function name.",
        rationale: "The CLI imports it; renaming is out of scope.",
      },
    ],
    escalation: null,
  };
}
