/**
 * The generated JSON Schemas of the workspace records (and the routing corpus) and their zod mirrors agree:
 * on the lines a real journey writes, on hand-made near misses, and on fast-check mutations of valid lines.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { REPO_ROOT, SCHEMA_TABLE } from "../../scripts/gen-schemas.js";
import { loadCorpora, routingCorpusSchema } from "../route/corpus.js";
import { decisionRecordSchema, questionLineSchema, workspaceStateSchema } from "./workspace-zod.js";

const ajv = new Ajv({ strict: true, allErrors: false });
function compiled(type: string): ValidateFunction {
  const target = SCHEMA_TABLE.find((t) => t.type === type);
  if (!target) throw new Error(`no schema for ${type}`);
  return ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, target.output), "utf8")));
}

const PAIRS: Record<string, { zod: z.ZodType; ajv: ValidateFunction }> = {
  question: { zod: questionLineSchema, ajv: compiled("QuestionLine") },
  decision: { zod: decisionRecordSchema, ajv: compiled("DecisionRecord") },
  state: { zod: workspaceStateSchema, ajv: compiled("WorkspaceState") },
  routing: { zod: routingCorpusSchema, ajv: compiled("RoutingCorpus") },
};

function verdicts(kind: string, doc: unknown) {
  const p = PAIRS[kind];
  if (!p) throw new Error(kind);
  const json: unknown = JSON.parse(JSON.stringify(doc));
  return { zod: p.zod.safeParse(json).success, ajv: p.ajv(json) };
}
const expectVerdict = (kind: string, doc: unknown, valid: boolean) =>
  expect(verdicts(kind, doc), JSON.stringify(doc)).toEqual({ zod: valid, ajv: valid });

const T = "2026-11-29T22:15:00.000Z";
const raised = {
  type: "raised",
  qid: "q-20261129-001",
  kind: "irreversible",
  question: "Drop the table?",
  options: ["drop", "keep"],
  raised_at: T,
  step_id: "rite-ship/human#1",
  journey_id: "j-20261129T221500Z-0a1b2c3d",
  run_id: "run-20261129T221500Z-0a1b2c3d",
  gate_id: "drop-table",
};
const answered = { type: "answered", qid: "q-20261129-001", answer: "keep", answered_at: T };
const decision = {
  id: "d-20261129-001",
  decided_at: T,
  source: "human",
  decision: "keep",
  rationale: "Drop the table?",
  qid: "q-20261129-001",
  step_id: "rite-ship/human#1",
};
const state = {
  schema: "devrites-state/v1",
  active_rite: "rite-build",
  phase: "build",
  active_runs: [],
  journey: {
    id: "j-20261129T221500Z-0a1b2c3d",
    name: "demo",
    driver: "scripted",
    status: "paused-gate",
    started_at: T,
  },
  updated_at: T,
};

describe("workspace record schemas: zod and ajv agree", () => {
  it("accept valid lines", () => {
    expectVerdict("question", raised, true);
    expectVerdict(
      "question",
      { type: "raised", qid: "q-20261129-1000", kind: "scope", question: "?", options: [], raised_at: T },
      true,
    );
    expectVerdict("question", answered, true);
    expectVerdict("decision", decision, true);
    expectVerdict(
      "decision",
      { id: "d-20261129-002", decided_at: T, source: "leaf", decision: "x", rationale: "" },
      true,
    );
    expectVerdict("state", state, true);
    expectVerdict("state", { ...state, journey: null }, true);
    const { journey: _j, ...noJourney } = state;
    expectVerdict("state", noJourney, true);
  });

  it("reject near misses", () => {
    for (const bad of [
      { ...raised, type: "asked" },
      { ...raised, qid: "q-2026-11-29-001" },
      { ...raised, kind: "technical" },
      { ...raised, question: "" },
      { ...raised, step_id: "rite-ship/human#0" },
      { ...raised, gate_id: "Drop Table" },
      { ...raised, extra: 1 },
      { ...answered, kind: "scope" },
      { ...answered, answer: "" },
      { ...answered, answered_at: "today" },
      { qid: "q-20261129-001", answer: "x", answered_at: T },
    ])
      expectVerdict("question", bad, false);
    for (const bad of [
      { ...decision, id: "d-1" },
      { ...decision, source: "model" },
      { ...decision, decision: "" },
      { ...decision, run_id: "run-1" },
      { ...decision, note: "x" },
    ])
      expectVerdict("decision", bad, false);
    for (const bad of [
      { ...state, journey: { ...state.journey, status: "paused" } },
      { ...state, journey: { ...state.journey, id: "j-1" } },
      { ...state, journey: { ...state.journey, name: "Demo" } },
      { ...state, journey: { ...state.journey, extra: true } },
    ])
      expectVerdict("state", bad, false);
  });

  it("agree on every pack routing corpus and on broken ones", () => {
    const { corpora } = loadCorpora(join(REPO_ROOT, "pack/.claude"));
    expect(corpora.length).toBeGreaterThan(0);
    for (const c of corpora) {
      expectVerdict("routing", c, true);
      expectVerdict("routing", { ...c, positive: c.positive.slice(0, 5) }, false);
      expectVerdict("routing", { ...c, negative: [] }, false);
      expectVerdict("routing", { ...c, rite: "build" }, false);
      expectVerdict("routing", { ...c, negative: [{ text: "x", expect: "rite", why: "?" }] }, false);
    }
  });

  it("agree on mutated lines (property)", () => {
    const docs: [string, Record<string, unknown>][] = [
      ["question", raised],
      ["question", answered],
      ["decision", decision],
      ["state", state],
    ];
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.constantFrom("q-20261129-001", "rite-ship/human#1", "j-20261129T221500Z-0a1b2c3d", T, "", "raised"),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...docs),
        fc.string({ maxLength: 12 }),
        value,
        fc.boolean(),
        ([kind, doc], key, v, drop) => {
          const keys = Object.keys(doc);
          const k =
            drop && keys.length > 0 ? (keys[Math.abs(key.length) % keys.length] as string) : key || "type";
          const mutated: Record<string, unknown> = { ...doc };
          if (drop) delete mutated[k];
          else mutated[k] = v;
          const r = verdicts(kind, mutated);
          expect(r.zod, JSON.stringify(mutated)).toBe(r.ajv);
        },
      ),
      { numRuns: 600 },
    );
  });
});
