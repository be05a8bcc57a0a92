/**
 * fast-check arbitraries that generate VALID envelopes, for property tests (test support only: this module
 * imports fast-check, a dev dependency; production code must not import it). Strings deliberately include
 * any Unicode code point (astral characters, newlines, lone dots inside names) so validators that differ on
 * code points, `u`-flag regexes or line terminators are caught.
 */

import fc from "fast-check";
import { ROLE_NAMES } from "./roles.js";
import type {
  AgentPacket,
  AgentResultInput,
  Baseline,
  EvidenceDossier,
  Payload,
  PlanCandidate,
  ProofReport,
  RepoWrite,
  ReviewFindings,
  WrightReport,
} from "./types.js";
import { PHASES } from "./zod.js";

const HEX = [..."0123456789abcdef"];

export function hexArb(length: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...HEX), minLength: length, maxLength: length });
}

export const sha256Arb = hexArb(64);

const pad = (n: number, width: number) => String(n).padStart(width, "0");

export const runIdArb: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 0, max: 99999999 }), fc.integer({ min: 0, max: 999999 }), hexArb(8))
  .map(([date, time, suffix]) => `run-${pad(date, 8)}T${pad(time, 6)}Z-${suffix}`);

export const timestampArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2099-12-31T23:59:59Z"),
      noInvalidDate: true,
    }),
    fc.constantFrom("ms", "none", "ns"),
  )
  .map(([d, fraction]) => {
    const iso = d.toISOString();
    if (fraction === "none") return iso.replace(/\.\d{3}Z$/, "Z");
    if (fraction === "ns") return iso.replace(/Z$/, "123456Z");
    return iso;
  });

/** Any code point, including newlines and astral characters. */
const anyText = (minLength: number, maxLength: number) => fc.string({ unit: "binary", minLength, maxLength });

const segmentArb: fc.Arbitrary<string> = fc
  .oneof(fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/), anyText(1, 6))
  .filter((s) => !/[/\\\u0000]/.test(s) && s !== "." && s !== "..");

/** A valid repository-relative path: 1–4 segments, none empty, `.` or `..`; no backslash, NUL or edge `/`. */
export const repoPathArb: fc.Arbitrary<string> = fc
  .array(segmentArb, { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join("/"));

export const slugArb = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/);
const riteArb = fc.stringMatching(/^rite(-[a-z0-9]{1,6}){0,2}$/);
const nonEmptyText = anyText(1, 24);
const freeText = anyText(0, 24);
const exitCodeArb = fc.option(fc.integer({ min: -2147483648, max: 4294967295 }), { nil: null });
const list = <T>(arb: fc.Arbitrary<T>, maxLength = 3) => fc.array(arb, { maxLength });
const closed = { noNullPrototype: true } as const;

const baselineArb: fc.Arbitrary<Baseline> = fc.record(
  {
    id: sha256Arb,
    head: fc.oneof(hexArb(40), hexArb(64), fc.constantFrom("unborn", "no-git")),
    dirty_sha256: sha256Arb,
    touched_sha256: sha256Arb,
  },
  closed,
);

export const packetArb: fc.Arbitrary<AgentPacket> = fc
  .record(
    {
      packet_version: fc.constant("agent-packet/v1" as const),
      run_id: runIdArb,
      role: fc.constantFrom(...ROLE_NAMES),
      rite: riteArb,
      phase: fc.constantFrom(...PHASES),
      attempt: fc.integer({ min: 1, max: 3 }),
      step_n: fc.nat({ max: 99 }),
      workspace: repoPathArb,
      baseline: baselineArb,
      objective: anyText(1, 60),
      inputs: list(
        fc.record(
          { path: repoPathArb, purpose: nonEmptyText, sha256: fc.option(sha256Arb, { nil: null }) },
          closed,
        ),
      ),
      scope: fc.record(
        { in: list(repoPathArb), out: list(repoPathArb), allowed_repo_writes: list(repoPathArb) },
        closed,
      ),
      budgets: fc.record(
        {
          max_files: fc.integer({ min: 1, max: 100000 }),
          max_loaded_lines: fc.integer({ min: 1, max: 10000000 }),
          max_result_lines: fc.integer({ min: 1, max: 100000 }),
        },
        closed,
      ),
      result_path: repoPathArb,
      result_schema: fc.constant("agent-result/v1" as const),
      created_at: timestampArb,
      expires_at: timestampArb,
    },
    {
      ...closed,
      requiredKeys: [
        "packet_version",
        "run_id",
        "role",
        "rite",
        "phase",
        "attempt",
        "step_n",
        "workspace",
        "baseline",
        "objective",
        "inputs",
        "scope",
        "budgets",
        "result_path",
        "result_schema",
        "created_at",
      ],
    },
  )
  .map(({ step_n, ...p }) => ({ ...p, step_id: `${p.rite}/${p.role}#${step_n}` }));

const repoWriteArb: fc.Arbitrary<RepoWrite> = fc.oneof(
  fc.record(
    { path: repoPathArb, op: fc.constantFrom("create" as const, "modify" as const), sha256_after: sha256Arb },
    closed,
  ),
  fc.record(
    { path: repoPathArb, op: fc.constant("delete" as const), sha256_after: fc.constant(null) },
    closed,
  ),
);

const dossierArb: fc.Arbitrary<EvidenceDossier> = fc.record(
  {
    findings: list(
      fc.record(
        {
          claim: nonEmptyText,
          evidence: list(
            fc.record(
              {
                path: repoPathArb,
                lines: fc.stringMatching(/^[0-9]{1,4}(-[0-9]{1,4})?$/),
                excerpt: freeText,
              },
              { ...closed, requiredKeys: ["path"] },
            ),
          ),
          confidence: fc.constantFrom("high" as const, "medium" as const, "low" as const),
        },
        closed,
      ),
    ),
    open_questions: list(freeText),
  },
  closed,
);

const planArb: fc.Arbitrary<PlanCandidate> = fc.record(
  {
    slices: list(
      fc.record(
        {
          id: slugArb,
          title: nonEmptyText,
          goal: nonEmptyText,
          files: list(repoPathArb),
          tests: list(freeText),
          acceptance: list(freeText),
          depends_on: list(slugArb),
        },
        closed,
      ),
    ),
    risks: list(freeText),
    assumptions: list(freeText),
  },
  closed,
);

const proofArb: fc.Arbitrary<ProofReport> = fc.record(
  {
    checks: list(
      fc.record(
        {
          name: nonEmptyText,
          command: freeText,
          exit_code: exitCodeArb,
          outcome: fc.constantFrom("pass" as const, "fail" as const, "skipped" as const, "error" as const),
          summary: freeText,
        },
        closed,
      ),
    ),
    verdict: fc.constantFrom("pass" as const, "fail" as const, "inconclusive" as const),
  },
  closed,
);

const reviewArb: fc.Arbitrary<ReviewFindings> = fc.record(
  {
    findings: list(
      fc.record(
        {
          severity: fc.constantFrom("blocker" as const, "major" as const, "minor" as const, "nit" as const),
          title: nonEmptyText,
          detail: freeText,
          path: repoPathArb,
          line: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
          suggestion: freeText,
        },
        { ...closed, requiredKeys: ["severity", "title", "detail"] },
      ),
    ),
    verdict: fc.constantFrom("approve" as const, "changes_requested" as const),
    coverage: freeText,
  },
  closed,
);

const wrightArb: fc.Arbitrary<WrightReport> = fc.record(
  {
    slice_id: slugArb,
    summary: nonEmptyText,
    tests_added: list(repoPathArb),
    commands_run: list(fc.record({ command: freeText, exit_code: exitCodeArb }, closed)),
  },
  closed,
);

export const payloadArb: fc.Arbitrary<Payload> = fc.oneof(
  dossierArb.map((content) => ({ type: "evidence-dossier" as const, content })),
  planArb.map((content) => ({ type: "plan-candidate" as const, content })),
  proofArb.map((content) => ({ type: "proof-report" as const, content })),
  reviewArb.map((content) => ({ type: "review-findings" as const, content })),
  wrightArb.map((content) => ({ type: "wright-report" as const, content })),
);

/** Results as a leaf may write them: what may be left out (empty lists, a null escalation, echoed ceilings) sometimes is. */
export const resultArb: fc.Arbitrary<AgentResultInput> = fc.record(
  {
    result_version: fc.constant("agent-result/v1" as const),
    run_id: runIdArb,
    role: fc.constantFrom(...ROLE_NAMES),
    status: fc.constantFrom(
      "complete" as const,
      "partial" as const,
      "blocked" as const,
      "cannot_verify" as const,
      "failed" as const,
    ),
    baseline_id: sha256Arb,
    budget: fc.record(
      {
        files_used: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        loaded_lines_used: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        max_files: fc.integer({ min: 1, max: 100000 }),
        max_loaded_lines: fc.integer({ min: 1, max: 10000000 }),
        max_result_lines: fc.integer({ min: 1, max: 100000 }),
      },
      { ...closed, requiredKeys: ["files_used", "loaded_lines_used"] },
    ),
    side_effects: fc.record(
      {
        repo_writes: list(repoWriteArb),
        scratch_writes: list(fc.record({ path: nonEmptyText, sha256: sha256Arb }, closed)),
      },
      { ...closed, requiredKeys: [] },
    ),
    payload: payloadArb,
    gates: list(
      fc.record(
        {
          id: slugArb,
          kind: fc.constantFrom(
            "product" as const,
            "scope" as const,
            "policy" as const,
            "irreversible" as const,
            "human-only" as const,
          ),
          question: nonEmptyText,
          options: list(freeText),
          recommendation: freeText,
        },
        { ...closed, requiredKeys: ["id", "kind", "question", "options"] },
      ),
    ),
    decisions_stood: list(fc.record({ decision: nonEmptyText, rationale: nonEmptyText }, closed)),
    escalation: fc.option(
      fc.record(
        {
          reason: fc.constantFrom(
            "underspecified" as const,
            "new-dependency" as const,
            "plan-wrong" as const,
            "irreversible-risk" as const,
            "out-of-scope" as const,
            "budget" as const,
            "tooling" as const,
            "other" as const,
          ),
          detail: nonEmptyText,
        },
        closed,
      ),
      { nil: null },
    ),
  },
  {
    ...closed,
    requiredKeys: [
      "result_version",
      "run_id",
      "role",
      "status",
      "baseline_id",
      "budget",
      "side_effects",
      "payload",
    ],
  },
);
