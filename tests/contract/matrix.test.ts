/**
 * The contract matrix: every way a leaf's result can be wrong, built as a real repository, asserting the
 * *specific* diagnostic code and exit code — plus near-miss positives that must be accepted.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/hash.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { raiseQuestion } from "../../src/run/questions.js";
import { codes, Repo } from "./harness.js";

const FILES = {
  "src/app.ts": "export const app = 1;\n",
  "src/util.ts": "export const util = 1;\n",
  "src/legacy.ts": "export const legacy = 1;\n",
  "docs/spec.md": "# spec\n",
};

let repo: Repo;
beforeEach(() => {
  repo = Repo.create(FILES);
});
afterEach(() => repo.cleanup());

function activeRuns(): string[] {
  const state = JSON.parse(repo.read(".devrites/state.json")) as { active_runs: { run_id: string }[] };
  return state.active_runs.map((r) => r.run_id);
}

function events(p: AgentPacket): { type: string; data: Record<string, unknown> }[] {
  return readFileSync(join(repo.root, `.devrites/runs/${p.run_id}/events.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

async function wrightPacket(allow = ["src/app.ts"]) {
  return repo.packet("devrites-slice-wright", { allow, inputs: ["docs/spec.md"] });
}

describe("accepted", () => {
  it("a valid scout result: exit 0, ledger updated, run retired", async () => {
    const p = await repo.packet("devrites-evidence-scout", { inputs: ["docs/spec.md", "src/app.ts"] });
    expect(activeRuns()).toEqual([p.run_id]);
    expect((await repo.record(p, repo.resultFor(p))).code).toBe(0);
    const r = await repo.check(p);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.json.data).toEqual({
      verdict: "accepted",
      run_id: p.run_id,
      role: "devrites-evidence-scout",
      guard_strength: "unavailable",
      receipts: {
        verified: false,
        transcript: null,
        calls: 0,
        unreceipted: [],
        why: "no transcript was recorded for the run",
      },
      changed_paths: [],
      status: "complete",
    });
    expect(activeRuns()).toEqual([]);
    expect(events(p).map((e) => e.type)).toEqual(["packet.created", "result.recorded", "result.checked"]);
    expect(events(p)[2]!.data).toEqual({ verdict: "accepted", codes: [], guard_strength: "unavailable" });
  });

  it("a valid wright result: create, modify and delete exactly on the allowlist", async () => {
    const p = await wrightPacket(["src/app.ts", "src/new.ts", "src/legacy.ts"]);
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    const n = repo.write("src/new.ts", "export const fresh = 1;\n");
    repo.remove("src/legacy.ts");
    await repo.record(
      p,
      repo.resultFor(p, [
        { path: "src/app.ts", op: "modify", sha256_after: a },
        { path: "src/new.ts", op: "create", sha256_after: n },
        { path: "src/legacy.ts", op: "delete", sha256_after: null },
      ]),
    );
    const r = await repo.check(p);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.json.data?.changed_paths).toEqual(["src/app.ts", "src/legacy.ts", "src/new.ts"]);
  });

  it("a scout on a dirty tree that stays as it was frozen", async () => {
    repo.write("src/util.ts", "export const util = 'dirty before';\n");
    repo.write("untracked.txt", "user's own notes\n");
    const p = await repo.packet("devrites-evidence-scout");
    await repo.record(p, repo.resultFor(p));
    expect((await repo.check(p)).code).toBe(0);
  });

  it("a change to the CLI's own .devrites/ records (state, ledgers, other runs) does not make a scout stale", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const other = await repo.packet("devrites-evidence-scout");
    await repo.record(other, repo.resultFor(other));
    const raised = raiseQuestion(
      repo.root,
      { kind: "scope", question: "Which module first?" },
      new Date().toISOString(),
    );
    expect(raised.ok).toBe(true);
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("an accepted run checked again after later writes of the CLI is not judged on its records again", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    await repo.record(p, repo.resultFor(p));
    expect((await repo.check(p)).code).toBe(0);
    // retired: later writes are not journaled for it, and need not be
    await repo.packet("devrites-evidence-scout");
    raiseQuestion(repo.root, { kind: "scope", question: "Which module first?" }, new Date().toISOString());
    const again = await repo.check(p);
    expect(again.json.diagnostics).toEqual([]);
    expect(again.code).toBe(0);
  });

  // Changed (documented in docs/tree-check.md, "The records journal"): the CLI's own records are bound by the
  // run's records journal, so one changed other than by the CLI is rejected. Before, a line written into
  // questions.jsonl by anyone passed as the CLI's.
  it("a CLI record changed other than by the CLI → result.record-tampered on that file", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    repo.write(".devrites/questions.jsonl", '{"type":"raised"}\n');
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.record-tampered"]);
    expect(r.json.diagnostics[0]!.path).toBe(".devrites/questions.jsonl");
  });

  // Changed (documented in docs/tree-check.md): other .devrites/ files — plan.md, spec.md, a note — are
  // records a leaf must not touch, so a scout that changed one is stale. Before, every .devrites/ path was
  // excluded from the tree check.
  it("a .devrites/ record other than the CLI's (plan.md) changed → result.stale", async () => {
    repo.write(".devrites/plan.md", "# plan\n");
    const p = await repo.packet("devrites-evidence-scout");
    repo.write(".devrites/plan.md", "# plan, rewritten by a leaf\n");
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.stale"]);
    expect(r.json.diagnostics[0]!.path).toBe(".devrites/plan.md");
  });

  it("a gate raised by an otherwise valid result pauses with exit 3 and keeps the run active", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.gates = [{ id: "format", kind: "product", question: "YAML or TOML?", options: ["yaml", "toml"] }];
    await repo.record(p, res);
    const r = await repo.check(p);
    expect(r.code).toBe(3);
    expect(codes(r)).toEqual(["result.gate"]);
    expect(r.json.data?.verdict).toBe("gate");
    expect(activeRuns()).toEqual([p.run_id]);
  });

  it("guard strength comes from the run's ledger", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const ev = join(repo.root, `.devrites/runs/${p.run_id}/events.jsonl`);
    const line = (type: string) =>
      `${JSON.stringify({ ts: p.created_at, run_id: p.run_id, type, data: {} })}\n`;
    repo.write(
      `.devrites/runs/${p.run_id}/events.jsonl`,
      readFileSync(ev, "utf8") + line("hook.subagent-stop"),
    );
    await repo.record(p, repo.resultFor(p));
    expect((await repo.check(p)).json.data?.guard_strength).toBe("observed");
  });
});

describe("receipts: every call in the leaf's transcript was decided by the guard", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "devrites-receipts-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A Claude-shaped transcript of tool calls `ids`, and the ledger lines the hooks would have written. */
  async function run(opts: { calls: string[]; receipts: string[]; transcript?: string }) {
    const p = await repo.packet("devrites-evidence-scout", { inputs: ["docs/spec.md"] });
    const path = join(dir, "agent.jsonl");
    const lines = opts.calls.map((id) =>
      JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", id, name: "Read" }] } }),
    );
    writeFileSync(
      path,
      opts.transcript ??
        `${JSON.stringify({ type: "user", message: { content: "go" } })}\n${lines.join("\n")}\n`,
    );
    const ev = `.devrites/runs/${p.run_id}/events.jsonl`;
    const line = (type: string, data: Record<string, unknown>) =>
      `${JSON.stringify({ ts: p.created_at, run_id: p.run_id, type, data })}\n`;
    repo.write(
      ev,
      readFileSync(join(repo.root, ev), "utf8") +
        opts.receipts
          .map((id) =>
            line("guard.decision", { tool: "Read", tool_use_id: id, decision: "allow", agent_id: "a1" }),
          )
          .join("") +
        line("hook.transcript", { agent_id: "a1", path }),
    );
    await repo.record(p, repo.resultFor(p));
    return repo.check(p);
  }

  it("every call receipted: accepted, verified, strength as the ledger says", async () => {
    const r = await run({ calls: ["toolu_1", "toolu_2"], receipts: ["toolu_1", "toolu_2"] });
    expect(r.code).toBe(0);
    expect(r.json.data?.guard_strength).toBe("enforced");
    expect(r.json.data?.receipts).toMatchObject({ verified: true, calls: 2, unreceipted: [] });
  });

  it("a call without a receipt (a skipped or crashed hook) → result.unreceipted-call, naming the call", async () => {
    const r = await run({ calls: ["toolu_1", "toolu_2"], receipts: ["toolu_1"] });
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.unreceipted-call"]);
    expect(r.json.diagnostics[0]?.message).toContain("toolu_2");
    expect(r.json.data?.receipts).toMatchObject({ verified: false, unreceipted: ["toolu_2"] });
  });

  it("an unreadable or unknown transcript is not a rejection, but the strength is unverified", async () => {
    const r = await run({ calls: [], receipts: ["toolu_1"], transcript: '{"kind":"other"}\n' });
    expect(r.code).toBe(0);
    expect(r.json.data?.guard_strength).toBe("unverified");
    expect(r.json.data?.receipts).toMatchObject({
      verified: false,
      why: "it is in no format devrites knows",
    });
  });
});

describe("rejected: the envelope", () => {
  it("malformed JSON → envelope.malformed-json", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    repo.writeResult(p, '{"result_version": "agent-result/v1",');
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["envelope.malformed-json"]);
  });

  it("wrong version → envelope.version", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = { ...repo.resultFor(p), result_version: "agent-result/v2" };
    repo.writeResult(p, JSON.stringify(res));
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["envelope.version"]);
  });

  it("schema-invalid but with a wrong run id → both are reported", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = { ...repo.resultFor(p), run_id: "run-20200101T000000Z-00000000", status: "done" };
    repo.writeResult(p, JSON.stringify(res));
    expect(codes(await repo.check(p))).toEqual(["envelope.schema", "result.run-id-mismatch"]);
  });

  it("wrong run id → result.run-id-mismatch", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.run_id = "run-20200101T000000Z-00000000";
    // `result record` refuses it (record.run-mismatch); stored by other means, the check still rejects it
    repo.writeResult(p, JSON.stringify(res));
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.run-id-mismatch"]);
  });

  it("role mismatch → result.role-mismatch", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.role = "devrites-plan-drafter";
    await repo.record(p, res);
    expect(codes(await repo.check(p))).toEqual(["result.role-mismatch"]);
  });

  it("a result for another baseline → result.baseline-mismatch", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.baseline_id = sha256Hex("another candidate");
    await repo.record(p, res);
    expect(codes(await repo.check(p))).toEqual(["result.baseline-mismatch"]);
  });

  it("budget exceeded → result.budget-exceeded", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.budget.files_used = p.budgets.max_files + 1;
    await repo.record(p, res);
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.budget-exceeded"]);
  });

  it("payload type wrong for the role → result.payload-type", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.payload = {
      type: "plan-candidate",
      content: { slices: [], risks: [], assumptions: [] },
    };
    await repo.record(p, res);
    expect(codes(await repo.check(p))).toEqual(["result.payload-type"]);
  });

  it("cannot_verify dressed as complete → result.cannot-verify-as-complete", async () => {
    const p = await repo.packet("devrites-proof-runner");
    const res = repo.resultFor(p);
    if (res.payload.type !== "proof-report") throw new Error("fixture");
    res.payload.content.verdict = "inconclusive";
    await repo.record(p, res);
    expect(codes(await repo.check(p))).toEqual(["result.cannot-verify-as-complete"]);
  });

  it("cannot_verify is never a pass → result.cannot-verify", async () => {
    const p = await repo.packet("devrites-proof-runner");
    const res = repo.resultFor(p);
    res.status = "cannot_verify";
    res.escalation = { reason: "tooling", detail: "no test runner installed" };
    await repo.record(p, res);
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.cannot-verify"]);
  });

  it("blocked without an escalation → result.escalation-missing", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const res = repo.resultFor(p);
    res.status = "blocked";
    await repo.record(p, res);
    expect(codes(await repo.check(p))).toEqual(["result.escalation-missing"]);
  });

  it("sha256_after on a delete is a schema error", async () => {
    const p = await wrightPacket(["src/legacy.ts"]);
    repo.remove("src/legacy.ts");
    const res = repo.resultFor(p) as unknown as { side_effects: { repo_writes: unknown[] } };
    res.side_effects.repo_writes = [{ path: "src/legacy.ts", op: "delete", sha256_after: sha256Hex("x") }];
    repo.writeResult(p, JSON.stringify(res));
    expect(codes(await repo.check(p))).toEqual(["envelope.schema"]);
  });
});

describe("rejected: the real tree", () => {
  it("stale: a file edited after the freeze → result.stale on that path", async () => {
    const p = await repo.packet("devrites-evidence-scout", { inputs: ["docs/spec.md"] });
    repo.write("src/util.ts", "export const util = 2;\n");
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.stale"]);
    expect(r.json.diagnostics[0]!.path).toBe("src/util.ts");
  });

  it("stale: a pre-existing dirty file edited again", async () => {
    repo.write("src/util.ts", "dirty 1\n");
    const p = await repo.packet("devrites-evidence-scout");
    repo.write("src/util.ts", "dirty 2\n");
    await repo.record(p, repo.resultFor(p));
    expect(codes(await repo.check(p))).toEqual(["result.stale"]);
  });

  it("stale: a dirty file reverted to HEAD", async () => {
    repo.write("src/util.ts", "dirty\n");
    const p = await repo.packet("devrites-evidence-scout");
    repo.write("src/util.ts", FILES["src/util.ts"]);
    await repo.record(p, repo.resultFor(p));
    expect(codes(await repo.check(p))).toEqual(["result.stale"]);
  });

  it("stale: an ignored input changed (the touched manifest sees what git status does not)", async () => {
    repo.write(".gitignore", "local/\n");
    repo.commit("ignore local");
    repo.write("local/settings.json", "{}\n");
    const p = await repo.packet("devrites-evidence-scout", { inputs: ["local/settings.json"] });
    repo.write("local/settings.json", '{"changed": true}\n');
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.stale"]);
    expect(r.json.diagnostics[0]!.path).toBe("local/settings.json");
  });

  it("HEAD moved → result.head-moved", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    repo.git("commit", "-q", "--allow-empty", "-m", "moved");
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.head-moved"]);
  });

  it("HEAD moved under the wright → result.head-moved", async () => {
    const p = await wrightPacket();
    const a = repo.write("src/app.ts", "x\n");
    repo.commit("wright committed");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    expect(codes(await repo.check(p))).toContain("result.head-moved");
  });

  it("a read-only role with repo writes → result.read-only-write (and the tree is stale)", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const a = repo.write("src/app.ts", "scout wrote this\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.read-only-write", "result.stale"]);
  });

  it("a read-only role declaring a write it did not make → result.read-only-write", async () => {
    const p = await repo.packet("devrites-code-reviewer");
    await repo.record(
      p,
      repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: sha256Hex("x") }]),
    );
    expect(codes(await repo.check(p))).toEqual(["result.read-only-write"]);
  });

  it("wright write outside the allowlist, declared → result.write-not-allowed + result.out-of-scope", async () => {
    const p = await wrightPacket(["src/app.ts"]);
    const a = repo.write("src/app.ts", "ok\n");
    const u = repo.write("src/util.ts", "not allowed\n");
    await repo.record(
      p,
      repo.resultFor(p, [
        { path: "src/app.ts", op: "modify", sha256_after: a },
        { path: "src/util.ts", op: "modify", sha256_after: u },
      ]),
    );
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.out-of-scope", "result.write-not-allowed"]);
    expect(new Set(r.json.diagnostics.map((d) => d.path))).toEqual(new Set(["src/util.ts"]));
  });

  it("the same write present only on disk → result.out-of-scope + result.undeclared-write", async () => {
    const p = await wrightPacket(["src/app.ts"]);
    const a = repo.write("src/app.ts", "ok\n");
    repo.write("src/util.ts", "sneaky\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.out-of-scope", "result.undeclared-write"]);
    expect(new Set(r.json.diagnostics.map((d) => d.path))).toEqual(new Set(["src/util.ts"]));
  });

  it("an allowlisted write the result does not declare → result.undeclared-write only", async () => {
    const p = await wrightPacket(["src/app.ts", "src/util.ts"]);
    const a = repo.write("src/app.ts", "ok\n");
    repo.write("src/util.ts", "allowed but not declared\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.undeclared-write"]);
    expect(r.json.diagnostics[0]!.path).toBe("src/util.ts");
  });

  it("an untracked new file outside the allowlist → result.out-of-scope", async () => {
    const p = await wrightPacket(["src/app.ts"]);
    const a = repo.write("src/app.ts", "ok\n");
    repo.write("scratch/notes.txt", "left behind\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.out-of-scope", "result.undeclared-write"]);
    expect(r.json.diagnostics.every((d) => d.path === "scratch/notes.txt")).toBe(true);
  });

  it("a case variant of an allowlisted path → result.out-of-scope", async () => {
    const p = await wrightPacket(["src/new.ts"]);
    const n = repo.write("src/New.ts", "wrong case\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/New.ts", op: "create", sha256_after: n }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.out-of-scope", "result.write-not-allowed"]);
  });

  it("sha256_after mismatch → result.hash-mismatch", async () => {
    const p = await wrightPacket(["src/app.ts"]);
    repo.write("src/app.ts", "what is on disk\n");
    await repo.record(
      p,
      repo.resultFor(p, [
        { path: "src/app.ts", op: "modify", sha256_after: sha256Hex("what was claimed\n") },
      ]),
    );
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.hash-mismatch"]);
    expect(r.json.diagnostics[0]!.path).toBe("src/app.ts");
  });

  it("a declared write that did not happen → result.phantom-write", async () => {
    const p = await wrightPacket(["src/app.ts"]);
    await repo.record(
      p,
      repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: sha256Hex(FILES["src/app.ts"]) }]),
    );
    expect(codes(await repo.check(p))).toEqual(["result.phantom-write"]);
  });

  it("create declared for a file that existed → result.op-mismatch", async () => {
    const p = await wrightPacket(["src/app.ts"]);
    const a = repo.write("src/app.ts", "rewritten\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "create", sha256_after: a }]));
    expect(codes(await repo.check(p))).toEqual(["result.op-mismatch"]);
  });

  it("delete declared for a file still present → result.op-mismatch", async () => {
    const p = await wrightPacket(["src/legacy.ts"]);
    repo.write("src/legacy.ts", "emptied but present\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/legacy.ts", op: "delete", sha256_after: null }]));
    expect(codes(await repo.check(p))).toEqual(["result.op-mismatch"]);
  });

  it("a tampered baseline.json → result.baseline-tampered", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const path = `.devrites/runs/${p.run_id}/baseline.json`;
    const b = JSON.parse(repo.read(path));
    b.dirty.push({ path: "src/util.ts", type: "file", exec: false, sha256: sha256Hex("forged") });
    repo.write(path, JSON.stringify(b));
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.baseline-tampered"]);
  });

  it("a deleted baseline.json → result.baseline-missing", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    repo.remove(`.devrites/runs/${p.run_id}/baseline.json`);
    await repo.record(p, repo.resultFor(p));
    expect(codes(await repo.check(p))).toEqual(["result.baseline-missing"]);
  });

  it("an allowlisted path that a symlink now leads outside → result.allowlist-invalid", async () => {
    const p = await wrightPacket(["src/gen/out.ts"]);
    repo.symlink("src/gen", repo.outside("elsewhere"));
    await repo.record(p, repo.resultFor(p));
    const r = await repo.check(p);
    expect(codes(r)).toContain("result.allowlist-invalid");
    expect(r.code).toBe(1);
  });
});

describe("rejected: expiry", () => {
  it("an expired packet → result.expired, at exactly expires_at too", async () => {
    const p = await repo.packet("devrites-evidence-scout", { extra: ["--expires-in", "5"] });
    await repo.record(p, repo.resultFor(p));
    const expires = new Date(p.expires_at!);
    const before = await repo.checkAt(p, new Date(expires.getTime() - 1));
    expect(before.diagnostics).toEqual([]);
    const at = await repo.checkAt(p, expires);
    expect(at.exitCode).toBe(1);
    expect(at.diagnostics.map((d) => d.code)).toEqual(["result.expired"]);
  });
});

describe("packet new: bad allowlists", () => {
  it("a symlink escape in an allowlist → exit 2, scope.symlink-escape, naming the path", async () => {
    repo.symlink("src/link", repo.outside("etc"));
    const r = await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "x",
      "--allow",
      "src/link/passwd",
    ]);
    expect(r.code).toBe(2);
    expect(codes(r)).toEqual(["scope.symlink-escape"]);
    expect(r.json.diagnostics[0]!.path).toBe("src/link/passwd");
  });

  it("a .devrites/ path in an allowlist → exit 2, scope.devrites", async () => {
    const r = await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "x",
      "--allow",
      ".devrites/state.json",
    ]);
    expect(r.code).toBe(2);
    expect(codes(r)).toEqual(["scope.devrites"]);
  });

  it("nothing is written when the command line is refused", async () => {
    await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "x",
      "--allow",
      "../outside.ts",
    ]);
    expect(() => repo.read(".devrites/state.json")).toThrow();
  });
});
