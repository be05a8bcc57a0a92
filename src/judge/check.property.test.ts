/**
 * Properties of the validator core: total (never throws, whatever the inputs), deterministic, does not
 * mutate its inputs, and fails closed (only a fully valid result on an unchanged candidate is accepted).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ManifestEntry } from "../baseline/index.js";
import { packetArb, resultArb, sha256Arb } from "../envelope/arbitraries.js";
import { sampleResult } from "../envelope/fixtures.js";
import { ROLES } from "../envelope/roles.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import { BASELINE_RECORD_SCHEMA, type BaselineRead } from "./baseline-record.js";
import { type CheckInput, evaluateResult } from "./check.js";
import { CODES } from "./codes.js";

const pathArb = fc.oneof(
  fc.constantFrom("src/a.ts", "src/b.ts", "docs/x.md", "src/parser.ts", "src/parser.test.ts", ".git/config"),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const entryArb: fc.Arbitrary<ManifestEntry> = fc.oneof(
  fc.record({ path: pathArb, type: fc.constant("file" as const), exec: fc.boolean(), sha256: sha256Arb }),
  fc.record({
    path: pathArb,
    type: fc.constant("symlink" as const),
    exec: fc.constant(false),
    sha256: sha256Arb,
  }),
  fc.record({
    path: pathArb,
    type: fc.constant("missing" as const),
    exec: fc.constant(false),
    sha256: fc.constant(null),
  }),
);
const entriesArb = fc.array(entryArb, { maxLength: 6 });
const headArb = fc.oneof(fc.constantFrom("no-git", "unborn"), fc.stringMatching(/^[0-9a-f]{40}$/));

/** The role's sample result bound to the packet: valid unless the tree or the clock says otherwise. */
function validFor(packet: AgentPacket): AgentResult {
  const r = sampleResult(ROLES[packet.role].payload);
  return {
    ...r,
    run_id: packet.run_id,
    role: packet.role,
    baseline_id: packet.baseline.id,
    budget: { files_used: 1, loaded_lines_used: 1, ...packet.budgets },
    side_effects: { repo_writes: [], scratch_writes: [] },
  };
}

/** A result text: a valid result, a valid-shaped one bound to the packet or not, mangled JSON, or any text. */
function resultTextArb(packet: AgentPacket): fc.Arbitrary<string> {
  const bound = resultArb.map((r) => ({
    ...r,
    run_id: packet.run_id,
    role: packet.role,
    baseline_id: packet.baseline.id,
  }));
  return fc.oneof(
    fc.constant(JSON.stringify(validFor(packet), null, 2)),
    resultArb.map((r) => JSON.stringify(r)),
    bound.map((r) => JSON.stringify(r, null, 2)),
    fc.tuple(bound, fc.string(), fc.jsonValue()).map(([r, k, v]) => JSON.stringify({ ...r, [k]: v })),
    fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
    fc.string(),
    bound.map((r) => JSON.stringify(r).slice(0, -1)),
  );
}

/** Inputs where every part is sometimes right and sometimes wrong, so both verdicts are reached. */
const inputArb: fc.Arbitrary<CheckInput> = packetArb
  .map((p) => ({ ...p, budgets: { ...p.budgets, max_result_lines: 100000 } }))
  .chain((packet) =>
    fc
      .record({
        dirty: entriesArb,
        touched: entriesArb,
        head: fc.oneof(fc.constant(packet.baseline.head), headArb),
      })
      .chain(({ dirty, touched, head }) =>
        fc.record({
          resultText: resultTextArb(packet),
          resultPath: fc.constant(".devrites/runs/x/result.json"),
          packet: fc.constant(packet),
          baseline: fc.oneof(
            fc.constant<BaselineRead>({
              ok: true,
              record: { schema: BASELINE_RECORD_SCHEMA, run_id: packet.run_id, head, dirty, touched },
            }),
            fc.constant<BaselineRead>({
              ok: false,
              diagnostics: [{ code: "result.baseline-tampered", severity: "error", message: "x" }],
            }),
          ),
          current: fc.record({
            head: fc.oneof(fc.constant(head), headArb),
            entries: fc.oneof(fc.constant(dirty), entriesArb),
            touched: fc.oneof(fc.constant(touched), entriesArb),
          }),
          allowlistViolations: fc.constant([]),
          now: fc.oneof(
            fc.constant(new Date(Date.parse(packet.created_at))),
            fc.date(),
            fc.constant(new Date(Number.NaN)),
          ),
        }),
      ),
  );

function deepFreeze<T>(x: T): T {
  if (x !== null && typeof x === "object" && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

const KNOWN = new Set<string>(Object.keys(CODES));

describe("evaluateResult properties", () => {
  it("never throws, never mutates its input, is deterministic and self-consistent", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const frozen = deepFreeze(structuredCloneInput(input));
        const a = evaluateResult(frozen);
        const b = evaluateResult(frozen);
        expect(b).toEqual(a);
        for (const d of a.diagnostics) {
          expect(typeof d.code).toBe("string");
          expect(KNOWN.has(d.code) || d.code.startsWith("envelope.")).toBe(true);
          expect(typeof d.message).toBe("string");
        }
        const errors = a.diagnostics.some((d) => d.severity === "error");
        expect(a.verdict === "rejected").toBe(errors);
        if (a.verdict !== "rejected") expect(a.result).toBeDefined();
      }),
      { numRuns: 400 },
    );
  });

  it("accepts only when the baseline is trusted and nothing changed for a read-only role", () => {
    const seen = { accepted: 0, gate: 0, rejected: 0 };
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = evaluateResult(input);
        seen[r.verdict]++;
        if (r.verdict === "rejected") return;
        expect(input.baseline.ok).toBe(true);
        if (!input.baseline.ok) return;
        expect(input.current.head).toBe(input.baseline.record.head);
        const res = r.result as AgentResult;
        expect(res.run_id).toBe(input.packet.run_id);
        expect(res.role).toBe(input.packet.role);
        expect(res.baseline_id).toBe(input.packet.baseline.id);
        expect(res.status === "complete" || res.status === "blocked").toBe(true);
        if (input.packet.role !== "devrites-slice-wright") expect(r.changedPaths).toEqual([]);
      }),
      { numRuns: 1000 },
    );
    // The property is not vacuous: the generator reaches acceptance as well as rejection.
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.rejected).toBeGreaterThan(0);
  });
});

/** A copy safe to freeze (the Date stays a Date). */
function structuredCloneInput(input: CheckInput): CheckInput {
  return {
    ...structuredClone({ ...input, now: undefined }),
    now: new Date(input.now.getTime()),
  } as CheckInput;
}
