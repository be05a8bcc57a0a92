import { describe, expect, it } from "vitest";
import { samplePacket, sampleResult, sampleSha } from "../envelope/fixtures.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import {
  checkBudgets,
  checkDeclaredWrites,
  checkExpiry,
  checkIdentity,
  checkPayloadType,
  checkStatus,
  resultLines,
} from "./rules.js";

const RP = ".devrites/runs/x/result.json";

function scout(): { packet: AgentPacket; result: AgentResult } {
  return { packet: samplePacket("devrites-evidence-scout"), result: sampleResult("evidence-dossier") };
}
function wright(): { packet: AgentPacket; result: AgentResult } {
  return { packet: samplePacket("devrites-slice-wright"), result: sampleResult("wright-report") };
}
const codes = (ds: { code: string }[]) => ds.map((d) => d.code);

describe("checkIdentity", () => {
  it("passes when run id, role and baseline id match", () => {
    const { packet, result } = scout();
    expect(checkIdentity(result, packet, RP)).toEqual([]);
  });

  it("reports every mismatch, each with its own code and the result path", () => {
    const { packet, result } = scout();
    result.run_id = "run-20261129T221500Z-ffffffff";
    result.role = "devrites-plan-drafter";
    result.baseline_id = sampleSha(1);
    const ds = checkIdentity(result, packet, RP);
    expect(codes(ds)).toEqual(["result.run-id-mismatch", "result.role-mismatch", "result.baseline-mismatch"]);
    for (const d of ds) expect(d).toMatchObject({ severity: "error", path: RP });
    expect(ds[0]!.message).toContain("run-20261129T221500Z-ffffffff");
  });

  it("a one-character difference in the baseline id is a mismatch", () => {
    const { packet, result } = scout();
    result.baseline_id = `${packet.baseline.id.slice(0, -1)}${packet.baseline.id.endsWith("0") ? "1" : "0"}`;
    expect(codes(checkIdentity(result, packet, RP))).toEqual(["result.baseline-mismatch"]);
  });
});

describe("checkStatus", () => {
  const esc = { reason: "underspecified" as const, detail: "which file format?" };
  const gate = {
    id: "format",
    kind: "product" as const,
    question: "YAML or TOML?",
    options: ["yaml", "toml"],
  };

  // [status, escalation, gates, expected codes]
  const table: [AgentResult["status"], boolean, boolean, string[]][] = [
    ["complete", false, false, []],
    ["complete", false, true, ["result.gate"]],
    ["complete", true, false, ["result.status-contradiction"]],
    ["complete", true, true, ["result.status-contradiction", "result.gate"]],
    ["partial", false, false, ["result.partial"]],
    ["partial", true, true, ["result.partial", "result.gate"]],
    ["blocked", false, false, ["result.escalation-missing"]],
    ["blocked", false, true, ["result.escalation-missing", "result.gate"]],
    ["blocked", true, false, ["result.blocked"]],
    ["blocked", true, true, ["result.gate"]],
    ["failed", false, false, ["result.escalation-missing", "result.failed"]],
    ["failed", true, false, ["result.failed"]],
    ["failed", true, true, ["result.failed", "result.gate"]],
    ["cannot_verify", false, false, ["result.cannot-verify"]],
    ["cannot_verify", true, true, ["result.cannot-verify", "result.gate"]],
  ];
  it.each(table)("status %s, escalation %s, gates %s → %j", (status, withEsc, withGate, expected) => {
    const { result } = scout();
    result.status = status;
    result.escalation = withEsc ? esc : null;
    result.gates = withGate ? [gate] : [];
    expect(codes(checkStatus(result, RP))).toEqual(expected);
  });

  it("a gate is a warning carrying its question; everything else is an error", () => {
    const { result } = scout();
    result.status = "failed";
    result.escalation = esc;
    result.gates = [gate];
    const ds = checkStatus(result, RP);
    expect(ds.find((d) => d.code === "result.gate")).toMatchObject({ severity: "warning" });
    expect(ds.find((d) => d.code === "result.gate")!.message).toContain("YAML or TOML?");
    expect(ds.find((d) => d.code === "result.failed")).toMatchObject({ severity: "error" });
    expect(ds.find((d) => d.code === "result.failed")!.message).toContain("which file format?");
  });

  describe("cannot_verify dressed as complete", () => {
    function proof(
      verdict: "pass" | "fail" | "inconclusive",
      outcomes: ("pass" | "fail" | "skipped" | "error")[],
    ) {
      const r = sampleResult("proof-report");
      if (r.payload.type !== "proof-report") throw new Error("fixture");
      r.payload.content.verdict = verdict;
      r.payload.content.checks = outcomes.map((outcome, i) => ({
        name: `c${i}`,
        command: "npm test",
        exit_code: outcome === "pass" ? 0 : 1,
        outcome,
        summary: "",
      }));
      return r;
    }
    it.each([
      ["pass", ["pass"], []],
      ["pass", ["pass", "skipped"], []],
      ["fail", ["fail"], []],
      ["fail", [], []],
      ["inconclusive", ["pass"], ["result.cannot-verify-as-complete"]],
      ["pass", [], ["result.cannot-verify-as-complete"]],
      ["pass", ["skipped", "skipped"], ["result.cannot-verify-as-complete"]],
      ["pass", ["pass", "fail"], ["result.verdict-contradiction"]],
      ["pass", ["pass", "error"], ["result.verdict-contradiction"]],
      ["pass", ["error"], ["result.cannot-verify-as-complete", "result.verdict-contradiction"]],
    ] as const)("proof verdict %s with checks %j → %j", (verdict, outcomes, expected) => {
      expect(codes(checkStatus(proof(verdict, [...outcomes]), RP))).toEqual(expected);
    });

    it("only a complete result is judged on its payload's honesty", () => {
      const r = proof("inconclusive", []);
      r.status = "cannot_verify";
      expect(codes(checkStatus(r, RP))).toEqual(["result.cannot-verify"]);
    });

    function review(
      verdict: "approve" | "changes_requested",
      severities: ("blocker" | "minor")[],
      coverage: string,
    ) {
      const r = sampleResult("review-findings");
      if (r.payload.type !== "review-findings") throw new Error("fixture");
      r.payload.content.verdict = verdict;
      r.payload.content.coverage = coverage;
      r.payload.content.findings = severities.map((severity) => ({ severity, title: "t", detail: "d" }));
      return r;
    }
    it.each([
      ["approve", [], "read all of src/", []],
      ["approve", ["minor"], "", []],
      ["changes_requested", ["blocker"], "read it", []],
      ["approve", ["blocker"], "read it", ["result.verdict-contradiction"]],
      ["approve", [], "   ", ["result.cannot-verify-as-complete"]],
      ["changes_requested", [], "", ["result.cannot-verify-as-complete"]],
    ] as const)("review %s with %j, coverage %j → %j", (verdict, sev, coverage, expected) => {
      expect(codes(checkStatus(review(verdict, [...sev], coverage), RP))).toEqual(expected);
    });
  });
});

describe("checkBudgets", () => {
  it("passes at exactly the ceilings", () => {
    const { packet, result } = scout();
    result.budget.files_used = packet.budgets.max_files;
    result.budget.loaded_lines_used = packet.budgets.max_loaded_lines;
    packet.budgets.max_result_lines = resultLines(result);
    result.budget.max_result_lines = packet.budgets.max_result_lines;
    expect(checkBudgets(result, packet, RP)).toEqual([]);
  });

  it("rejects one over each ceiling, naming the field", () => {
    const { packet, result } = scout();
    result.budget.files_used = packet.budgets.max_files + 1;
    result.budget.loaded_lines_used = packet.budgets.max_loaded_lines + 1;
    const ds = checkBudgets(result, packet, RP);
    expect(codes(ds)).toEqual(["result.budget-exceeded", "result.budget-exceeded"]);
    expect(ds[0]!.message).toContain("files_used");
    expect(ds[1]!.message).toContain("loaded_lines_used");
  });

  it("rejects ceilings that do not echo the packet's", () => {
    const { packet, result } = scout();
    result.budget.max_files = packet.budgets.max_files + 1;
    result.budget.max_loaded_lines = packet.budgets.max_loaded_lines - 1;
    result.budget.max_result_lines = packet.budgets.max_result_lines + 5;
    const ds = checkBudgets(result, packet, RP);
    expect(codes(ds)).toEqual(["result.budget-mismatch", "result.budget-mismatch", "result.budget-mismatch"]);
    expect(ds.map((d) => d.message.split(" ")[0])).toEqual([
      "budget.max_files",
      "budget.max_loaded_lines",
      "budget.max_result_lines",
    ]);
  });

  it("accepts a result that echoes no ceiling, or only some, and still rejects the one that differs", () => {
    const { packet, result } = scout();
    const { files_used, loaded_lines_used } = result.budget;
    result.budget = { files_used, loaded_lines_used };
    expect(checkBudgets(result, packet, RP)).toEqual([]);
    result.budget = { files_used, loaded_lines_used, max_files: packet.budgets.max_files };
    expect(checkBudgets(result, packet, RP)).toEqual([]);
    result.budget = { files_used, loaded_lines_used, max_result_lines: packet.budgets.max_result_lines - 1 };
    const ds = checkBudgets(result, packet, RP);
    expect(codes(ds)).toEqual(["result.budget-mismatch"]);
    expect(ds[0]!.message).toContain("budget.max_result_lines");
  });

  it("measures usage against the packet's ceilings when the result echoes none", () => {
    const { packet, result } = scout();
    result.budget = { files_used: packet.budgets.max_files + 1, loaded_lines_used: 0 };
    expect(codes(checkBudgets(result, packet, RP))).toEqual(["result.budget-exceeded"]);
  });

  it("rejects a result one line longer than max_result_lines, measured pretty-printed", () => {
    const { packet, result } = scout();
    const lines = resultLines(result);
    packet.budgets.max_result_lines = lines - 1;
    result.budget.max_result_lines = lines - 1;
    const ds = checkBudgets(result, packet, RP);
    expect(codes(ds)).toEqual(["result.too-long"]);
    expect(ds[0]!.message).toContain(String(lines));
  });

  it("counts lines of the two-space pretty print", () => {
    expect(resultLines({})).toBe(1);
    expect(resultLines({ a: 1 })).toBe(3);
    expect(resultLines({ a: [1, 2] })).toBe(6);
  });
});

describe("checkPayloadType", () => {
  it("accepts the role's payload; reviewers share review-findings", () => {
    const { packet, result } = scout();
    expect(checkPayloadType(result, packet, RP)).toEqual([]);
    expect(
      checkPayloadType(sampleResult("review-findings"), samplePacket("devrites-spec-reviewer"), RP),
    ).toEqual([]);
  });

  it("rejects another role's payload, naming both", () => {
    const packet = samplePacket("devrites-evidence-scout");
    const result = sampleResult("plan-candidate");
    const ds = checkPayloadType(result, packet, RP);
    expect(codes(ds)).toEqual(["result.payload-type"]);
    expect(ds[0]!.message).toContain("plan-candidate");
    expect(ds[0]!.message).toContain("evidence-dossier");
  });
});

describe("checkDeclaredWrites", () => {
  it("a read-only role declaring nothing passes", () => {
    const { packet, result } = scout();
    expect(checkDeclaredWrites(result, packet)).toEqual([]);
  });

  it("a read-only role declaring a write is rejected per path", () => {
    const { packet, result } = scout();
    result.side_effects.repo_writes = [
      { path: "src/a.ts", op: "modify", sha256_after: sampleSha(1) },
      { path: "src/b.ts", op: "delete", sha256_after: null },
    ];
    const ds = checkDeclaredWrites(result, packet);
    expect(ds.map((d) => [d.code, d.path])).toEqual([
      ["result.read-only-write", "src/a.ts"],
      ["result.read-only-write", "src/b.ts"],
    ]);
  });

  it("the wright may declare exactly its allowlisted paths", () => {
    const { packet, result } = wright();
    expect(checkDeclaredWrites(result, packet)).toEqual([]);
  });

  it.each([
    ["a path off the list", "src/other.ts"],
    ["a case variant", "src/Parser.ts"],
    ["an NFD spelling of an NFC path", "src/parse\u0301r.ts"],
    ["a ./ spelling", "./src/parser.ts"],
    ["a parent directory", "src"],
  ])("the wright declaring %s is rejected", (_name, path) => {
    const { packet, result } = wright();
    result.side_effects.repo_writes = [{ path, op: "modify", sha256_after: sampleSha(3) }];
    expect(checkDeclaredWrites(result, packet).map((d) => [d.code, d.path])).toEqual([
      ["result.write-not-allowed", path],
    ]);
  });

  it("a path declared twice is rejected", () => {
    const { packet, result } = wright();
    result.side_effects.repo_writes = [
      { path: "src/parser.ts", op: "modify", sha256_after: sampleSha(3) },
      { path: "src/parser.ts", op: "delete", sha256_after: null },
    ];
    expect(codes(checkDeclaredWrites(result, packet))).toEqual(["result.duplicate-write"]);
  });
});

describe("checkExpiry", () => {
  const at = (iso: string) => new Date(iso);
  it("passes without expires_at and before it", () => {
    const packet = samplePacket();
    packet.expires_at = undefined;
    delete packet.expires_at;
    expect(checkExpiry(packet, at("2999-01-01T00:00:00Z"), RP)).toEqual([]);
    packet.expires_at = "2026-11-30T22:15:00.000Z";
    expect(checkExpiry(packet, at("2026-11-30T22:14:59.999Z"), RP)).toEqual([]);
  });

  it("rejects at exactly expires_at and after", () => {
    const packet = samplePacket();
    packet.expires_at = "2026-11-30T22:15:00.000Z";
    expect(codes(checkExpiry(packet, at("2026-11-30T22:15:00.000Z"), RP))).toEqual(["result.expired"]);
    expect(codes(checkExpiry(packet, at("2026-12-01T00:00:00Z"), RP))).toEqual(["result.expired"]);
  });

  it("fails closed on an expires_at that is not a real instant", () => {
    const packet = samplePacket();
    packet.expires_at = "2026-13-45T99:99:99Z";
    expect(codes(checkExpiry(packet, at("2000-01-01T00:00:00Z"), RP))).toEqual(["result.expired"]);
  });

  it("fails closed on an invalid clock", () => {
    const packet = samplePacket();
    packet.expires_at = "2026-11-30T22:15:00.000Z";
    expect(codes(checkExpiry(packet, new Date(Number.NaN), RP))).toEqual(["result.expired"]);
  });
});

describe("messages say what was found", () => {
  const esc = { reason: "tooling" as const, detail: "no runner installed" };
  function statusMessage(status: AgentResult["status"], escalation: typeof esc | null): string[] {
    const { result } = scout();
    result.status = status;
    result.escalation = escalation;
    return checkStatus(result, RP).map((d) => d.message);
  }

  it("identity messages quote both sides", () => {
    const { packet, result } = scout();
    result.role = "devrites-plan-drafter";
    result.baseline_id = sampleSha(7);
    const [role, base] = checkIdentity(result, packet, RP).map((d) => d.message);
    expect(role).toBe(`result role "devrites-plan-drafter" is not the packet's "devrites-evidence-scout"`);
    expect(base).toBe(
      `result baseline_id "${sampleSha(7)}" is not the packet's baseline.id ${packet.baseline.id}`,
    );
  });

  it.each([
    ["complete", esc, "status complete with an escalation (tooling): no runner installed"],
    ["partial", null, "status partial: the leaf did not finish its objective"],
    ["blocked", null, "status blocked without an escalation"],
    ["blocked", esc, "status blocked (tooling) with no human gate: no runner installed"],
    ["failed", esc, "status failed (tooling): no runner installed"],
    ["cannot_verify", esc, "status cannot_verify (tooling): no runner installed"],
    ["cannot_verify", null, "status cannot_verify"],
  ] as const)("status %s with escalation %j says %j", (status, escalation, message) => {
    expect(statusMessage(status, escalation)).toContain(message);
  });

  it("a failed result without an escalation says both", () => {
    expect(statusMessage("failed", null)).toEqual(["status failed without an escalation", "status failed"]);
  });

  it("payload honesty messages name the check, the verdict and the count", () => {
    const proof = sampleResult("proof-report");
    if (proof.payload.type !== "proof-report") throw new Error("fixture");
    proof.payload.content.verdict = "inconclusive";
    expect(checkStatus(proof, RP)[0]!.message).toBe(
      "status complete with proof verdict inconclusive: nothing was proven",
    );
    proof.payload.content.verdict = "pass";
    proof.payload.content.checks = [
      { name: "unit", command: "npm test", exit_code: 1, outcome: "fail", summary: "" },
    ];
    expect(checkStatus(proof, RP).map((d) => d.message)).toEqual([
      "status complete with proof verdict pass, but no check passed: a vacuous pass",
      'proof verdict pass, but check "unit" has outcome fail',
    ]);
    const review = sampleResult("review-findings");
    if (review.payload.type !== "review-findings") throw new Error("fixture");
    review.payload.content.findings = [
      { severity: "blocker", title: "a", detail: "" },
      { severity: "blocker", title: "b", detail: "" },
    ];
    expect(checkStatus(review, RP)[0]!.message).toBe("review verdict approve with 2 blocker finding(s)");
    review.payload.content.findings = [];
    review.payload.content.coverage = "";
    expect(checkStatus(review, RP)[0]!.message).toBe(
      "review with no findings and no coverage: a bare approval is not a review",
    );
  });

  it("declared-write messages name the role, the op and the path", () => {
    const { packet, result } = scout();
    result.side_effects.repo_writes = [{ path: "src/a.ts", op: "create", sha256_after: sampleSha(1) }];
    expect(checkDeclaredWrites(result, packet)[0]!.message).toBe(
      "read-only role devrites-evidence-scout declares create of src/a.ts",
    );
    const w = wright();
    w.result.side_effects.repo_writes = [
      { path: "x.ts", op: "modify", sha256_after: sampleSha(1) },
      { path: "x.ts", op: "modify", sha256_after: sampleSha(1) },
    ];
    expect(checkDeclaredWrites(w.result, w.packet).map((d) => d.message)).toEqual([
      "declared modify of x.ts, which is not on the allowlist",
      "x.ts is declared more than once",
      "declared modify of x.ts, which is not on the allowlist",
    ]);
  });

  it("expiry messages give both instants", () => {
    const packet = samplePacket();
    packet.expires_at = "2026-11-30T22:15:00.000Z";
    expect(checkExpiry(packet, new Date("2026-12-01T00:00:00.000Z"), RP)[0]!.message).toBe(
      "the packet expired at 2026-11-30T22:15:00.000Z; checked at 2026-12-01T00:00:00.000Z",
    );
    expect(checkExpiry(packet, new Date(Number.NaN), RP)[0]!.message).toBe(
      "the packet expired at 2026-11-30T22:15:00.000Z; checked at an invalid time",
    );
  });
});
