/**
 * Differential test: the zod schemas (runtime parsing) and the generated JSON Schemas compiled by ajv must
 * give the same verdict on every document. Hand-written fixtures pin the expected verdict too; fast-check
 * generates valid envelopes and mutates them.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { REPO_ROOT, SCHEMA_TABLE } from "../../scripts/gen-schemas.js";
import { packetArb, resultArb } from "./arbitraries.js";
import { samplePacket, sampleResult, sampleSha } from "./fixtures.js";
import { parsePacket, parseResult } from "./parse.js";
import { PAYLOAD_TYPES } from "./roles.js";
import { AgentPacketSchema, AgentResultSchema, RunEventSchema, WorkspaceStateSchema } from "./zod.js";

type Kind = "packet" | "result" | "state" | "event";
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const ZOD: Record<Kind, z.ZodType> = {
  packet: AgentPacketSchema,
  result: AgentResultSchema,
  state: WorkspaceStateSchema,
  event: RunEventSchema,
};
const TYPE_OF: Record<Kind, string> = {
  packet: "AgentPacket",
  result: "AgentResult",
  state: "WorkspaceState",
  event: "RunEvent",
};

const ajv = new Ajv({ strict: true, allErrors: false });
const AJV = Object.fromEntries(
  (Object.keys(TYPE_OF) as Kind[]).map((kind) => {
    const target = SCHEMA_TABLE.find((t) => t.type === TYPE_OF[kind]);
    if (!target) throw new Error(`no schema for ${TYPE_OF[kind]}`);
    return [kind, ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, target.output), "utf8")))];
  }),
) as Record<Kind, ValidateFunction>;

/** Every document exercised, canonical JSON, to count distinct ones. */
const seen = new Set<string>();

interface Verdicts {
  zod: boolean;
  ajv: boolean;
}

/** Both verdicts on the document as JSON would carry it. */
function judge(kind: Kind, doc: unknown): Verdicts {
  const text = JSON.stringify(doc);
  seen.add(`${kind}:${text}`);
  const json: unknown = JSON.parse(text);
  const verdicts = { zod: ZOD[kind].safeParse(json).success, ajv: AJV[kind](json) };
  // parse.ts adds a version short-circuit in front of zod; it must not change the verdict.
  if (kind === "packet") expect(parsePacket(json).ok).toBe(verdicts.zod);
  if (kind === "result") expect(parseResult(json).ok).toBe(verdicts.zod);
  return verdicts;
}

function expectVerdict(kind: Kind, doc: unknown, valid: boolean): void {
  expect(judge(kind, doc), JSON.stringify(doc).slice(0, 300)).toEqual({ zod: valid, ajv: valid });
}

const clone = <T>(x: T): T => structuredClone(x);

/** Set a value at a dotted path like `scope.in.0`; returns the changed copy. */
function withValue<T>(doc: T, path: string, value: unknown): T {
  const copy = clone(doc) as Record<string, unknown>;
  const keys = path.split(".");
  let cur: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
  Object.defineProperty(cur, keys[keys.length - 1] as string, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy as T;
}

function without<T>(doc: T, path: string): T {
  const copy = clone(doc) as Record<string, unknown>;
  const keys = path.split(".");
  let cur: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
  delete cur[keys[keys.length - 1] as string];
  return copy as T;
}

type Step = string | number;

/** Paths of every plain object inside a JSON value (the root included). */
function objectPaths(value: unknown, path: Step[] = []): Step[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...path, i]));
  if (value !== null && typeof value === "object") {
    return [path, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...path, k]))];
  }
  return [];
}

/** Paths of every value inside a JSON value (the root excluded). */
function valuePaths(value: unknown, path: Step[] = []): Step[][] {
  const here = path.length > 0 ? [path] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => valuePaths(v, [...path, i]))];
  if (value !== null && typeof value === "object") {
    return [...here, ...Object.entries(value).flatMap(([k, v]) => valuePaths(v, [...path, k]))];
  }
  return here;
}

function at(root: unknown, path: Step[]): unknown {
  let cur = root;
  for (const s of path) cur = (cur as Record<Step, unknown>)[s];
  return cur;
}

/** Fields that may be absent, and (for `path`) only in a review finding. */
function isOptional(parent: Record<string, unknown>, key: string): boolean {
  if (["expires_at", "lines", "excerpt", "line", "suggestion", "recommendation"].includes(key)) return true;
  // a result may leave out what is empty, and the ceilings it would only echo from its packet
  if (
    ["gates", "decisions_stood", "escalation", "side_effects", "repo_writes", "scratch_writes"].includes(key)
  )
    return true;
  if (key.startsWith("max_") && "files_used" in parent) return true;
  return key === "path" && "severity" in parent;
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (Number.isInteger(v)) return "integer";
  return typeof v;
}

const WRONG_VALUES: Json[] = [0, -1, 1.5, 1e21, "", "x", true, null, [], {}, [1], { a: 1 }];

const samples: { kind: Kind; name: string; doc: unknown }[] = [
  { kind: "packet", name: "packet (wright)", doc: samplePacket() },
  { kind: "packet", name: "packet (read-only)", doc: samplePacket("devrites-evidence-scout") },
  ...PAYLOAD_TYPES.map((t) => ({ kind: "result" as const, name: `result (${t})`, doc: sampleResult(t) })),
];

const sampleState = {
  schema: "devrites-state/v1",
  active_rite: "rite-build",
  phase: "build",
  active_runs: [
    {
      run_id: "run-20261129T221500Z-1a2b3c4d",
      role: "devrites-slice-wright",
      step_id: "rite-build/devrites-slice-wright#1",
      packet_path: ".devrites/runs/run-20261129T221500Z-1a2b3c4d/packet.json",
      created_at: "2026-11-29T22:15:00.000Z",
    },
  ],
  updated_at: "2026-11-29T22:16:00Z",
};

const sampleEvent = {
  ts: "2026-11-29T22:15:00.000Z",
  run_id: "run-20261129T221500Z-1a2b3c4d",
  type: "packet.created",
  data: { role: "devrites-slice-wright", nested: { any: [1, "x", null] } },
};

describe("zod and ajv agree: hand-written fixtures", () => {
  it("accept every sample", () => {
    for (const s of samples) expectVerdict(s.kind, s.doc, true);
    expectVerdict("state", sampleState, true);
    expectVerdict("state", { ...sampleState, active_rite: null, phase: null, active_runs: [] }, true);
    expectVerdict("event", sampleEvent, true);
    expectVerdict("event", { ...sampleEvent, data: {} }, true);
  });

  it("reject a non-object document", () => {
    for (const kind of ["packet", "result", "state", "event"] as const) {
      for (const doc of [null, [], [samplePacket()], "x", 1, true]) expectVerdict(kind, doc, false);
    }
  });

  it("reject an unknown field at every nesting level, and a missing required field everywhere", () => {
    let unknown = 0;
    let dropped = 0;
    for (const s of [...samples, { kind: "state" as const, name: "state", doc: sampleState }]) {
      for (const p of objectPaths(s.doc)) {
        const parent = at(s.doc, p) as Record<string, unknown>;
        const copy = clone(s.doc);
        Object.assign(at(copy, p) as object, { zz_unknown: 1 });
        expectVerdict(s.kind, copy, false);
        unknown++;
        for (const key of Object.keys(parent)) {
          const dropCopy = clone(s.doc);
          delete (at(dropCopy, p) as Record<string, unknown>)[key];
          expectVerdict(s.kind, dropCopy, isOptional(parent, key));
          dropped++;
        }
      }
    }
    // An unknown key is rejected even where the schema has an open map elsewhere in the document.
    expectVerdict("event", { ...sampleEvent, extra: 1 }, false);
    expectVerdict("event", withValue(sampleEvent, "data.extra", 1), true);
    expect(unknown).toBeGreaterThan(40);
    expect(dropped).toBeGreaterThan(150);
  });

  it("reject a wrong type in place of every value", () => {
    for (const s of samples) {
      for (const p of valuePaths(s.doc)) {
        const original = at(s.doc, p);
        for (const wrong of [5, "x", null, [], {}] as Json[]) {
          if (jsonType(wrong) === jsonType(original)) continue;
          const copy = clone(s.doc);
          (at(copy, p.slice(0, -1)) as Record<Step, unknown>)[p[p.length - 1] as Step] = wrong;
          const v = judge(s.kind, copy);
          expect(v.zod, JSON.stringify(p)).toBe(v.ajv);
        }
      }
    }
    // Spot checks with the expected verdict.
    const packet = samplePacket();
    expectVerdict("packet", withValue(packet, "run_id", 5), false);
    expectVerdict("packet", withValue(packet, "attempt", "1"), false);
    expectVerdict("packet", withValue(packet, "inputs", {}), false);
    expectVerdict("packet", withValue(packet, "scope", []), false);
    expectVerdict("packet", withValue(packet, "inputs.0.sha256", null), true);
    const result = sampleResult("proof-report");
    expectVerdict("result", withValue(result, "escalation", "none"), false);
    expectVerdict("result", withValue(result, "gates", null), false);
    expectVerdict("result", withValue(result, "payload.content.checks.0.exit_code", null), true);
    expectVerdict("result", withValue(result, "payload.content.checks.0.exit_code", "0"), false);
  });

  it("check run ids, digests, timestamps and heads by pattern", () => {
    const packet = samplePacket();
    for (const [value, valid] of [
      ["run-20261129T221500Z-1a2b3c4d", true],
      ["run-20261129T221500Z-1A2B3C4D", false],
      ["run-20261129T221500-1a2b3c4d", false],
      ["run-20261129T221500Z-1a2b3c4", false],
      ["run-20261129T221500Z-1a2b3c4d\n", false],
      [" run-20261129T221500Z-1a2b3c4d", false],
    ] as const) {
      expectVerdict("packet", withValue(packet, "run_id", value), valid);
    }
    for (const [value, valid] of [
      [sampleSha(1), true],
      [sampleSha(1).toUpperCase().replace(/0/g, "A"), false],
      ["a".repeat(63), false],
      ["a".repeat(65), false],
      ["g".repeat(64), false],
    ] as const) {
      expectVerdict("packet", withValue(packet, "baseline.dirty_sha256", value), valid);
      expectVerdict("result", withValue(sampleResult("wright-report"), "baseline_id", value), valid);
    }
    for (const [value, valid] of [
      ["2026-11-29T22:15:00Z", true],
      ["2026-11-29T22:15:00.123456789Z", true],
      ["2026-11-29T22:15:00.1234567890Z", false],
      ["2026-11-29T22:15:00+00:00", false],
      ["2026-11-29 22:15:00Z", false],
      ["2026-11-29", false],
    ] as const) {
      expectVerdict("packet", withValue(packet, "created_at", value), valid);
    }
    for (const [value, valid] of [
      ["a".repeat(40), true],
      ["a".repeat(64), true],
      ["unborn", true],
      ["no-git", true],
      ["a".repeat(41), false],
      ["HEAD", false],
      ["", false],
    ] as const) {
      expectVerdict("packet", withValue(packet, "baseline.head", value), valid);
    }
    expectVerdict("packet", withValue(packet, "rite", "rite"), true);
    expectVerdict("packet", withValue(packet, "rite", "build"), false);
    expectVerdict("packet", withValue(packet, "step_id", "rite-build/devrites-slice-wright"), false);
    expectVerdict(
      "result",
      withValue(sampleResult("wright-report"), "payload.content.slice_id", "-x"),
      false,
    );
    expectVerdict(
      "result",
      withValue(sampleResult("evidence-dossier"), "payload.content.findings.0.evidence.0.lines", "12-"),
      false,
    );
  });

  it("check repository paths: traversal, absolute, empty segments and their near misses", () => {
    const cases: [string, boolean][] = [
      ["src/a.ts", true],
      ["a", true],
      ["..a", true],
      [".a", true],
      ["a..b/c", true],
      ["a/.b/c", true],
      ["a b/ü/😀", true],
      ["..", false],
      [".", false],
      ["../a", false],
      ["a/../b", false],
      ["a/..", false],
      ["./a", false],
      ["a/./b", false],
      ["/abs", false],
      ["/", false],
      ["a//b", false],
      ["a/", false],
      ["a\\b", false],
      ["a\u0000b", false],
      ["", false],
      ["a\n/../b", false],
      ["a\n//b", false],
      ["a\u2028/..", false],
    ];
    for (const [p, valid] of cases) {
      expectVerdict("packet", withValue(samplePacket(), "scope.allowed_repo_writes.0", p), valid);
      expectVerdict("packet", withValue(samplePacket(), "result_path", p), valid);
      expectVerdict(
        "result",
        withValue(sampleResult("wright-report"), "side_effects.repo_writes.0.path", p),
        valid,
      );
      expectVerdict("state", withValue(sampleState, "active_runs.0.packet_path", p), valid);
    }
  });

  it("count string lengths in code points, as JSON Schema does", () => {
    const astral = "😀";
    const packet = samplePacket();
    expectVerdict("packet", withValue(packet, "objective", astral.repeat(4000)), true);
    expectVerdict("packet", withValue(packet, "objective", astral.repeat(2001)), true);
    expectVerdict("packet", withValue(packet, "objective", astral.repeat(4001)), false);
    expectVerdict("packet", withValue(packet, "objective", "x".repeat(4001)), false);
    expectVerdict("packet", withValue(packet, "objective", ""), false);
    expectVerdict("packet", withValue(packet, "result_path", `d/${astral.repeat(4094)}`), true);
    expectVerdict("packet", withValue(packet, "result_path", `d/${astral.repeat(4095)}`), false);
    expectVerdict("packet", withValue(packet, "inputs.0.purpose", ""), false);
    expectVerdict(
      "result",
      withValue(sampleResult("plan-candidate"), "payload.content.slices.0.title", ""),
      false,
    );
  });

  it("check integer ranges at both edges", () => {
    const packet = samplePacket();
    const intCases: [string, number, boolean][] = [
      ["attempt", 1, true],
      ["attempt", 3, true],
      ["attempt", 0, false],
      ["attempt", 4, false],
      ["attempt", 1.5, false],
      ["attempt", -1, false],
      ["budgets.max_files", 100000, true],
      ["budgets.max_files", 100001, false],
      ["budgets.max_files", 0, false],
      ["budgets.max_loaded_lines", 10000000, true],
      ["budgets.max_loaded_lines", 10000001, false],
      ["budgets.max_result_lines", 100001, false],
    ];
    for (const [p, v, valid] of intCases) expectVerdict("packet", withValue(packet, p, v), valid);
    const result = sampleResult("review-findings");
    const resultCases: [string, number, boolean][] = [
      ["budget.files_used", 0, true],
      ["budget.files_used", Number.MAX_SAFE_INTEGER, true],
      ["budget.files_used", Number.MAX_SAFE_INTEGER + 1, false],
      ["budget.files_used", 1e21, false],
      ["budget.files_used", -1, false],
      ["budget.loaded_lines_used", 2.5, false],
      ["budget.max_files", 100001, false],
      ["payload.content.findings.0.line", 1, true],
      ["payload.content.findings.0.line", 0, false],
      ["payload.content.findings.0.line", 2 ** 53, false],
    ];
    for (const [p, v, valid] of resultCases) expectVerdict("result", withValue(result, p, v), valid);
    const wright = sampleResult("wright-report");
    for (const [v, valid] of [
      [-2147483648, true],
      [4294967295, true],
      [-2147483649, false],
      [4294967296, false],
      [0.5, false],
    ] as const) {
      expectVerdict("result", withValue(wright, "payload.content.commands_run.0.exit_code", v), valid);
    }
  });

  it("check constants, enums and the version fields", () => {
    const packet = samplePacket();
    expectVerdict("packet", withValue(packet, "packet_version", "agent-packet/v2"), false);
    expectVerdict("packet", withValue(packet, "packet_version", "agent-result/v1"), false);
    expectVerdict("packet", withValue(packet, "result_schema", "agent-packet/v1"), false);
    expectVerdict("packet", withValue(packet, "phase", "buld"), false);
    expectVerdict("packet", withValue(packet, "role", "devrites-slice-wright "), false);
    expectVerdict("packet", withValue(packet, "role", "plugin:devrites-slice-wright"), false);
    const result = sampleResult("evidence-dossier");
    expectVerdict("result", withValue(result, "result_version", "agent-result/v0"), false);
    expectVerdict("result", withValue(result, "status", "done"), false);
    expectVerdict("result", withValue(result, "escalation", { reason: "budget", detail: "ran out" }), true);
    expectVerdict("result", withValue(result, "escalation", { reason: "bored", detail: "x" }), false);
    expectVerdict("state", withValue(sampleState, "schema", "devrites-state/v2"), false);
    expectVerdict("state", withValue(sampleState, "phase", "later"), false);
  });

  it("tie sha256_after to op: null exactly when the file was deleted", () => {
    const result = sampleResult("wright-report");
    const w = (i: number, op: string, sha: string | null) =>
      withValue(result, `side_effects.repo_writes.${i}`, { path: "src/x.ts", op, sha256_after: sha });
    expectVerdict("result", w(0, "create", sampleSha(2)), true);
    expectVerdict("result", w(0, "modify", sampleSha(2)), true);
    expectVerdict("result", w(0, "delete", null), true);
    expectVerdict("result", w(0, "delete", sampleSha(2)), false);
    expectVerdict("result", w(0, "modify", null), false);
    expectVerdict("result", w(0, "create", null), false);
    expectVerdict("result", w(0, "rename", sampleSha(2)), false);
    expectVerdict("result", w(0, "delete", "not-a-hash"), false);
    expectVerdict("result", without(w(0, "delete", null), "side_effects.repo_writes.0.op"), false);
    expectVerdict("result", without(w(0, "delete", null), "side_effects.repo_writes.0.sha256_after"), false);
  });

  it("tie the payload content to its type", () => {
    const dossier = sampleResult("evidence-dossier");
    const plan = sampleResult("plan-candidate");
    expectVerdict("result", withValue(dossier, "payload.type", "plan-candidate"), false);
    expectVerdict("result", withValue(dossier, "payload.content", plan.payload.content), false);
    expectVerdict("result", withValue(dossier, "payload.type", "summary"), false);
    expectVerdict("result", without(dossier, "payload.type"), false);
    expectVerdict("result", without(dossier, "payload.content"), false);
    expectVerdict("result", withValue(dossier, "payload", plan.payload), true);
  });
});

describe("zod and ajv agree: generated documents", () => {
  const runs = { numRuns: 100 };

  it("accept every generated valid packet and result", () => {
    const payloads = new Set<string>();
    fc.assert(
      fc.property(packetArb, (p) => {
        expect(judge("packet", p)).toEqual({ zod: true, ajv: true });
      }),
      runs,
    );
    fc.assert(
      fc.property(resultArb, (r) => {
        payloads.add(r.payload.type);
        expect(judge("result", r)).toEqual({ zod: true, ajv: true });
      }),
      { numRuns: 150 },
    );
    expect([...payloads].sort()).toEqual([...PAYLOAD_TYPES].sort());
  });

  const envelopeArb = fc.oneof(
    packetArb.map((doc) => ({ kind: "packet" as const, doc: doc as unknown })),
    resultArb.map((doc) => ({ kind: "result" as const, doc: doc as unknown })),
  );

  it("agree after dropping a key, and reject when it was required", () => {
    let rejected = 0;
    fc.assert(
      fc.property(envelopeArb, fc.nat(), fc.nat(), ({ kind, doc }, i, j) => {
        const withKeys = objectPaths(doc).filter((p) => Object.keys(at(doc, p) as object).length > 0);
        const p = withKeys[i % withKeys.length] as Step[];
        const parent = at(doc, p) as Record<string, unknown>;
        const keys = Object.keys(parent);
        const key = keys[j % keys.length] as string;
        const copy = clone(doc);
        delete (at(copy, p) as Record<string, unknown>)[key];
        const v = judge(kind, copy);
        expect(v.zod).toBe(v.ajv);
        expect(v.zod).toBe(isOptional(parent, key));
        if (!v.zod) rejected++;
      }),
      runs,
    );
    expect(rejected).toBeGreaterThan(0);
  });

  it("agree after adding an unknown key anywhere, and reject it", () => {
    let rejected = 0;
    const keyArb = fc.oneof(
      fc.constantFrom("__proto__", "constructor", "toString", "zz"),
      fc.string({ maxLength: 8 }).map((s) => `x-${s}`),
    );
    fc.assert(
      fc.property(envelopeArb, fc.nat(), keyArb, fc.jsonValue(), ({ kind, doc }, i, key, value) => {
        const paths = objectPaths(doc);
        const p = paths[i % paths.length] as Step[];
        const copy = clone(doc);
        Object.defineProperty(at(copy, p), key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        const v = judge(kind, copy);
        expect(v).toEqual({ zod: false, ajv: false });
        rejected++;
      }),
      runs,
    );
    expect(rejected).toBeGreaterThan(0);
  });

  it("agree after replacing a value with one of another type", () => {
    let rejected = 0;
    fc.assert(
      fc.property(envelopeArb, fc.nat(), fc.constantFrom(...WRONG_VALUES), ({ kind, doc }, i, wrong) => {
        const paths = valuePaths(doc).filter((p) => jsonType(at(doc, p)) !== jsonType(wrong));
        const p = paths[i % paths.length] as Step[];
        const copy = clone(doc);
        (at(copy, p.slice(0, -1)) as Record<Step, unknown>)[p[p.length - 1] as Step] = clone(wrong);
        const v = judge(kind, copy);
        expect(v.zod).toBe(v.ajv);
        if (!v.zod) rejected++;
      }),
      runs,
    );
    expect(rejected).toBeGreaterThan(0);
  });
});

describe("zod and ajv agree: coverage", () => {
  // Runs last (tests in a file run in order): the bar for the suite is 200 distinct documents.
  it("exercised at least 200 distinct documents through both validators", () => {
    expect(seen.size).toBeGreaterThanOrEqual(200);
  });
});
