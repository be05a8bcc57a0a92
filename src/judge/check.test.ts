import { describe, expect, it } from "vitest";
import { samplePacket, sampleResult, sampleSha } from "../envelope/fixtures.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import { BASELINE_RECORD_SCHEMA, type BaselineRead } from "./baseline-record.js";
import { type CheckInput, checkResult, evaluateResult } from "./check.js";

const RP = ".devrites/runs/x/result.json";

function input(packet: AgentPacket, result: unknown, over: Partial<CheckInput> = {}): CheckInput {
  const baseline: BaselineRead = {
    ok: true,
    record: {
      schema: BASELINE_RECORD_SCHEMA,
      run_id: packet.run_id,
      head: packet.baseline.head,
      dirty: [],
      touched: [],
    },
  };
  return {
    resultText: typeof result === "string" ? result : JSON.stringify(result),
    resultPath: RP,
    packet,
    baseline,
    current: { head: packet.baseline.head, entries: [], touched: [] },
    allowlistViolations: [],
    now: new Date("2026-11-29T23:00:00Z"),
    ...over,
  };
}

function scoutPair(): { packet: AgentPacket; result: AgentResult } {
  const packet = samplePacket("devrites-evidence-scout");
  const result = sampleResult("evidence-dossier");
  return { packet, result };
}

const codes = (ds: { code: string }[]) => ds.map((d) => d.code);

describe("evaluateResult", () => {
  it("accepts a valid result on an unchanged candidate, and hands back the parsed result", () => {
    const { packet, result } = scoutPair();
    const r = evaluateResult(input(packet, result));
    expect(r).toEqual({ diagnostics: [], verdict: "accepted", changedPaths: [], result });
    expect(checkResult(input(packet, result))).toEqual([]);
  });

  it("runs every stage and reports every violation, in stage order", () => {
    const { packet, result } = scoutPair();
    result.status = "partial";
    result.budget.files_used = 999;
    result.side_effects.repo_writes = [{ path: "src/a.ts", op: "modify", sha256_after: sampleSha(1) }];
    const r = evaluateResult(
      input(packet, result, {
        current: {
          head: packet.baseline.head,
          entries: [{ path: "src/a.ts", type: "file", exec: false, sha256: sampleSha(1) }],
          touched: [],
        },
        now: new Date("2027-01-01T00:00:00Z"),
      }),
    );
    expect(codes(r.diagnostics)).toEqual([
      "result.partial",
      "result.budget-exceeded",
      "result.read-only-write",
      "result.stale",
      "result.expired",
    ]);
    expect(r.changedPaths).toEqual(["src/a.ts"]);
  });

  it.each([
    ["null", "null"],
    ["an array", "[]"],
    ["a number", "5"],
    ["a string", '"x"'],
  ])("a result that is %s is rejected without a crash and without a parsed result", (_name, text) => {
    const { packet } = scoutPair();
    const r = evaluateResult(input(packet, text));
    expect(codes(r.diagnostics)).toEqual(["envelope.not-object"]);
    expect(r.verdict).toBe("rejected");
    expect(Object.hasOwn(r, "result")).toBe(false);
  });

  it("checks the identity of a schema-invalid result field by field", () => {
    const { packet, result } = scoutPair();
    const bad = { ...result, status: "done", role: "devrites-plan-drafter", baseline_id: sampleSha(3) };
    expect(codes(checkResult(input(packet, bad)))).toEqual([
      "envelope.schema",
      "result.role-mismatch",
      "result.baseline-mismatch",
    ]);
    const onlyRun = { ...result, status: "done", run_id: "run-20200101T000000Z-00000000" };
    expect(codes(checkResult(input(packet, onlyRun)))).toEqual(["envelope.schema", "result.run-id-mismatch"]);
    const nonStrings = { ...result, run_id: 1, role: null, baseline_id: [] };
    expect(codes(checkResult(input(packet, nonStrings))).filter((c) => c.startsWith("result."))).toEqual([]);
  });

  it("malformed JSON still gets the tree and expiry checks, nothing else", () => {
    const { packet } = scoutPair();
    const r = evaluateResult(
      input(packet, "{", {
        current: { head: "f".repeat(40), entries: [], touched: [] },
        now: new Date("2027-01-01T00:00:00Z"),
      }),
    );
    expect(codes(r.diagnostics)).toEqual(["envelope.malformed-json", "result.head-moved", "result.expired"]);
  });

  it("an untrusted baseline stops the tree stage and reports no changed paths", () => {
    const { packet, result } = scoutPair();
    const r = evaluateResult(
      input(packet, result, {
        baseline: {
          ok: false,
          diagnostics: [{ code: "result.baseline-tampered", severity: "error", message: "m" }],
        },
        current: {
          head: "f".repeat(40),
          entries: [{ path: "a", type: "file", exec: false, sha256: sampleSha(1) }],
          touched: [],
        },
      }),
    );
    expect(codes(r.diagnostics)).toEqual(["result.baseline-tampered"]);
    expect(r.changedPaths).toEqual([]);
  });

  it("reports each allowlist entry the scope rules now reject, with the rule and hint", () => {
    const packet = samplePacket("devrites-slice-wright");
    const result = sampleResult("wright-report");
    result.side_effects.repo_writes = [];
    const r = evaluateResult(
      input(packet, result, {
        allowlistViolations: [
          {
            rule: "scope.symlink-escape",
            input: "src/parser.ts",
            message: "it leads outside",
            hint: "name the real file",
          },
        ],
      }),
    );
    expect(r.diagnostics).toEqual([
      {
        code: "result.allowlist-invalid",
        severity: "error",
        message: "scope.symlink-escape: it leads outside",
        path: "src/parser.ts",
        hint: "name the real file",
      },
    ]);
  });

  it("a gate on an otherwise valid result is the gate verdict", () => {
    const { packet, result } = scoutPair();
    result.gates = [{ id: "g", kind: "scope", question: "Which?", options: [] }];
    expect(evaluateResult(input(packet, result)).verdict).toBe("gate");
  });
});
