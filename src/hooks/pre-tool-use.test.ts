import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fnv1a64Hex } from "../core/fnv.js";
import { decide, type GuardDecision } from "../guard/index.js";
import { readJsonLines, workspacePaths } from "../run/workspace.js";
import type { RunEvent } from "../run/workspace-types.js";
import { claudeInput, codexInput, makeRepo, runId, type TestRepo } from "./fixtures.js";
import { AGENT_GENERATED_NOTE } from "./installed.js";
import { handlePreToolUse, type PreToolUseDeps } from "./pre-tool-use.js";
import type { StdinRead } from "./stdin.js";

const NOW = new Date("2026-11-29T23:00:00.000Z");
let repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});
function repo(...args: Parameters<typeof makeRepo>): TestRepo {
  const r = makeRepo(...args);
  repos.push(r);
  return r;
}

const ok = (v: unknown): StdinRead => ({ kind: "ok", bytes: Buffer.from(JSON.stringify(v)) });
const env = (cwd = "/nonexistent-cwd") => ({ env: {}, cwd });

/** A decide stub recording what it was given. */
function stub(answer: GuardDecision | (() => GuardDecision)) {
  const seen: { input: unknown; packets: unknown }[] = [];
  const deps: PreToolUseDeps = {
    decide: (input, ctx) => {
      seen.push({ input, packets: ctx.activePackets });
      return typeof answer === "function" ? answer() : answer;
    },
    now: () => NOW,
  };
  return { deps, seen };
}

function events(root: string, id: string): RunEvent[] {
  return readJsonLines<RunEvent>(join(root, workspacePaths.events(id)), "events").values;
}

const SCOUT = "devrites:devrites-evidence-scout";
const leafWrite = (root: string) =>
  claudeInput(root, {
    agent_id: "a1",
    agent_type: SCOUT,
    tool_name: "Write",
    tool_input: { file_path: join(root, "x.ts"), content: "" },
  });
const denyReadonly: GuardDecision = {
  decision: "deny",
  rule: "guard.readonly-write",
  reason: "devrites-evidence-scout is read-only; return findings instead of writing x.ts",
  role: "devrites-evidence-scout",
  input: "x.ts",
};

describe("handlePreToolUse: answers", () => {
  it("a deny is exit 2, the reason on stderr and a JSON deny on stdout", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const a = handlePreToolUse(ok(leafWrite(root)), env(), stub(denyReadonly).deps);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("read-only; return findings");
    expect(a.stderr).toContain("[guard.readonly-write]");
    expect(JSON.parse(a.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: a.stderr.trim(),
      },
    });
  });

  it("an allow is exit 0 with no output at all", () => {
    const { root } = repo();
    const a = handlePreToolUse(
      ok(codexInput(root, { tool_name: "Bash", tool_input: { command: "ls" } })),
      env(),
      stub({ decision: "allow", caller: "root" }).deps,
    );
    expect(a).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  it("passes the parsed input and the active packets to the guard", () => {
    const { root } = repo([
      { role: "devrites-slice-wright", run_id: runId(1), allowed_repo_writes: ["src/a.ts"] },
    ]);
    const s = stub({ decision: "allow", caller: "leaf", role: "devrites-slice-wright" });
    const input = leafWrite(root);
    handlePreToolUse(ok(input), env(), s.deps);
    expect(s.seen).toEqual([
      {
        input,
        packets: [{ run_id: runId(1), role: "devrites-slice-wright", allowed_repo_writes: ["src/a.ts"] }],
      },
    ]);
  });

  it("finds the repository from the process cwd when the input has no usable cwd", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const s = stub(denyReadonly);
    const input = { ...leafWrite(root), cwd: 42 };
    handlePreToolUse(ok(input), env(join(root, "src")), s.deps);
    expect(s.seen[0]?.packets).toHaveLength(1);
  });
});

describe("handlePreToolUse: fails closed for leaves", () => {
  it.each([
    ["empty", ""],
    ["truncated", '{"agent_type":"devrites-slice-wright","tool_name":"Wri'],
    ["an array", "[1]"],
    ["not UTF-8", "\u00ff"],
  ])("malformed stdin (%s) is denied without asking the guard", (_n, text) => {
    const s = stub({ decision: "allow", caller: "root" });
    const bytes = text === "\u00ff" ? Buffer.from([0xff, 0x7b]) : Buffer.from(text);
    const a = handlePreToolUse({ kind: "ok", bytes }, env(), s.deps);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.malformed-input]");
    expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(s.seen).toHaveLength(0);
  });

  it("an oversized input is denied as guard.input-too-large", () => {
    const a = handlePreToolUse(
      { kind: "too-large", prefix: Buffer.from("{"), maxBytes: 4 },
      env(),
      stub({ decision: "allow", caller: "root" }).deps,
    );
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.input-too-large]");
  });

  it("a guard that throws is a deny for a leaf", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const a = handlePreToolUse(
      ok(leafWrite(root)),
      env(),
      stub(() => {
        throw new TypeError("boom");
      }).deps,
    );
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.internal-error]");
    expect(a.stderr).toContain("TypeError: boom");
  });

  it.each([
    ["undefined", undefined],
    ["a string", "allow"],
    ["an unknown decision", { decision: "maybe" }],
    ["a deny without a rule", { decision: "deny", reason: "x" }],
  ])("a guard answer that is %s is a deny for a leaf", (_n, answer) => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const a = handlePreToolUse(ok(leafWrite(root)), env(), stub(answer as unknown as GuardDecision).deps);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.internal-error]");
  });

  it("an unreadable workspace is a deny for a leaf, naming the file", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    writeFileSync(join(root, workspacePaths.state), "{ torn");
    const s = stub({ decision: "allow", caller: "leaf" });
    const a = handlePreToolUse(ok(leafWrite(root)), env(), s.deps);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.internal-error]");
    expect(a.stderr).toContain(".devrites/state.json");
    expect(s.seen).toHaveLength(0);
  });

  it("a caller marked only by agent_id is still treated as a leaf on failure", () => {
    const { root } = repo();
    writeFileSync(join(root, ".devrites"), "a file where the workspace folder should be");
    mkdirSync(join(root, "w", ".devrites", "state.json"), { recursive: true });
    const input = codexInput(join(root, "w"), {
      agent_id: "t-9",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    const a = handlePreToolUse(ok(input), env(), stub({ decision: "allow", caller: "leaf" }).deps);
    expect(a.exitCode).toBe(2);
  });
});

describe("handlePreToolUse: the root session is never blocked by an internal error", () => {
  const rootCall = (root: string) =>
    claudeInput(root, { tool_name: "Write", tool_input: { file_path: "x" } });

  it("a broken workspace is reported on stderr and the call is allowed", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    writeFileSync(join(root, workspacePaths.state), "{ torn");
    const a = handlePreToolUse(ok(rootCall(root)), env(), stub({ decision: "allow", caller: "root" }).deps);
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toBe("");
    expect(a.stderr).toContain("workspace could not be read");
    expect(a.stderr).toContain("workspace.state-invalid");
  });

  it("a guard that throws is reported and allowed", () => {
    const { root } = repo();
    const a = handlePreToolUse(
      ok(rootCall(root)),
      env(),
      stub(() => {
        throw new Error("bug");
      }).deps,
    );
    expect(a).toMatchObject({ exitCode: 0, stdout: "" });
    expect(a.stderr).toContain("internal error");
  });

  it("the guard can still deny a root call (the policy decides, not the runtime)", () => {
    const { root } = repo();
    const a = handlePreToolUse(
      ok(rootCall(root)),
      env(),
      stub({ decision: "deny", rule: "guard.devrites-write", reason: "no" }).deps,
    );
    expect(a.exitCode).toBe(2);
  });
});

describe("handlePreToolUse: guard.decision events", () => {
  it("records a leaf's decisions in every active run of its role, and only there", () => {
    const { root } = repo([
      { role: "devrites-evidence-scout", run_id: runId(1) },
      { role: "devrites-evidence-scout", run_id: runId(2) },
      { role: "devrites-code-reviewer", run_id: runId(3) },
    ]);
    handlePreToolUse(ok(leafWrite(root)), env(), stub(denyReadonly).deps);
    handlePreToolUse(
      ok({ ...leafWrite(root), tool_name: "Read" }),
      env(),
      stub({ decision: "allow", caller: "leaf", role: "devrites-evidence-scout" }).deps,
    );
    for (const id of [runId(1), runId(2)]) {
      expect(events(root, id)).toEqual([
        {
          ts: NOW.toISOString(),
          run_id: id,
          type: "guard.decision",
          data: {
            tool: "Write",
            tool_use_id: "toolu_01",
            input_digest: `fnv1a64:${fnv1a64Hex(JSON.stringify({ file_path: join(root, "x.ts"), content: "" }))}`,
            decision: "deny",
            rule: "guard.readonly-write",
            input: "x.ts",
            agent_id: "a1",
            agent_type: SCOUT,
          },
        },
        {
          ts: NOW.toISOString(),
          run_id: id,
          type: "guard.decision",
          data: {
            tool: "Read",
            tool_use_id: "toolu_01",
            input_digest: `fnv1a64:${fnv1a64Hex(JSON.stringify({ file_path: join(root, "x.ts"), content: "" }))}`,
            decision: "allow",
            agent_id: "a1",
            agent_type: SCOUT,
          },
        },
      ]);
    }
    expect(events(root, runId(3))).toEqual([]);
  });

  it("names the input each receipt answered by its digest: another input, another digest; no input, null", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const read = (tool_input: unknown) =>
      handlePreToolUse(
        ok({ ...leafWrite(root), tool_name: "Read", tool_input }),
        env(),
        stub({ decision: "allow", caller: "leaf", role: "devrites-evidence-scout" }).deps,
      );
    read({ file_path: "a.ts" });
    read({ file_path: "b.ts" });
    read(undefined);
    expect(events(root, runId(1)).map((e) => (e.data as { input_digest: unknown }).input_digest)).toEqual([
      `fnv1a64:${fnv1a64Hex('{"file_path":"a.ts"}')}`,
      `fnv1a64:${fnv1a64Hex('{"file_path":"b.ts"}')}`,
      null,
    ]);
  });

  it("takes the role from agent_type when the guard names none", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    handlePreToolUse(ok(leafWrite(root)), env(), stub({ ...denyReadonly, role: undefined }).deps);
    expect(events(root, runId(1))).toHaveLength(1);
  });

  it("records nothing for the root session or for agents that are not devrites roles", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    handlePreToolUse(
      ok(claudeInput(root, { tool_name: "Write" })),
      env(),
      stub({ decision: "allow", caller: "root" }).deps,
    );
    handlePreToolUse(
      ok({ ...leafWrite(root), agent_type: "general-purpose" }),
      env(),
      stub({ decision: "deny", rule: "guard.foreign-write-during-run", reason: "r", caller: "foreign" }).deps,
    );
    // named like a role, but not devrites' (no generated agent file here; another plugin's prefix)
    for (const agentType of [
      "devrites-evidence-scout",
      "evil:devrites-evidence-scout",
      "Devrites:devrites-evidence-scout",
    ]) {
      handlePreToolUse(
        ok({ ...leafWrite(root), agent_type: agentType }),
        env(),
        stub({ decision: "deny", rule: "guard.internal-error", reason: "r" }).deps,
      );
      handlePreToolUse(
        ok({ ...leafWrite(root), agent_type: agentType }),
        env(),
        stub({ decision: "allow", caller: "foreign" }).deps,
      );
    }
    expect(events(root, runId(1))).toEqual([]);
  });

  it("a failure to record keeps a deny a deny and an allow an allow, with a note on stderr", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    mkdirSync(join(root, workspacePaths.events(runId(1)))); // a folder where the ledger file goes
    const deny = handlePreToolUse(ok(leafWrite(root)), env(), stub(denyReadonly).deps);
    expect(deny.exitCode).toBe(2);
    expect(deny.stderr).toContain("ledger.append-failed");
    expect(JSON.parse(deny.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const allow = handlePreToolUse(
      ok(leafWrite(root)),
      env(),
      stub({ decision: "allow", caller: "leaf", role: "devrites-evidence-scout" }).deps,
    );
    expect(allow).toMatchObject({ exitCode: 0, stdout: "" });
    expect(allow.stderr).toContain("ledger.append-failed");
  });

  it("appends, never rewrites", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const file = join(root, workspacePaths.events(runId(1)));
    writeFileSync(file, '{"ts":"x","run_id":"r","type":"packet.created","data":{}}\n');
    handlePreToolUse(ok(leafWrite(root)), env(), stub(denyReadonly).deps);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("packet.created");
  });
});

describe("handlePreToolUse with the real guard: foreign agents", () => {
  const deps: PreToolUseDeps = { decide, now: () => NOW };
  const write = (root: string, agentType: string, host: "claude" | "codex" = "claude") =>
    (host === "claude" ? claudeInput : codexInput)(root, {
      agent_id: "a1",
      agent_type: agentType,
      tool_name: host === "claude" ? "Write" : "Bash",
      tool_input:
        host === "claude"
          ? { file_path: join(root, "src", "x.ts"), content: "x" }
          : { command: "echo x > src/x.ts" },
    });
  const allEvents = (root: string, ids: string[]) => ids.flatMap((id) => events(root, id));

  it("with no run active, the host's own agents are untouched on both hosts: exit 0, nothing printed", () => {
    const { root } = repo([]);
    for (const [agentType, host] of [
      ["Explore", "claude"],
      ["general-purpose", "claude"],
      ["explorer", "codex"],
      ["worker", "codex"],
      ["evil:devrites-slice-wright", "claude"],
      ["devrites-slice-wright", "codex"], // a bare name devrites did not install here
    ] as const) {
      expect(handlePreToolUse(ok(write(root, agentType, host)), env(), deps), agentType).toEqual({
        exitCode: 0,
        stdout: "",
        stderr: "",
      });
    }
  });

  it("with a run active, a foreign agent's write is denied naming the run, and no ledger records it", () => {
    const ids = [runId(1), runId(2)];
    const { root } = repo([
      { role: "devrites-slice-wright", run_id: ids[0]!, allowed_repo_writes: ["src/x.ts"] },
      { role: "devrites-evidence-scout", run_id: ids[1]! },
    ]);
    for (const [agentType, host] of [
      ["Explore", "claude"],
      ["explorer", "codex"],
      ["evil:devrites-slice-wright", "claude"],
      ["devrites-slice-wright", "codex"], // named like the wright, not installed: no allowlist for it
    ] as const) {
      const a = handlePreToolUse(ok(write(root, agentType, host)), env(), deps);
      expect(a.exitCode, agentType).toBe(2);
      expect(a.stderr).toContain("[guard.foreign-write-during-run]");
      expect(a.stderr).toContain(ids[0]);
      expect(a.stderr).toContain(`devrites result check .devrites/runs/${ids[0]}/result.json`);
      const read = handlePreToolUse(
        ok(
          claudeInput(root, {
            agent_id: "a1",
            agent_type: agentType,
            tool_name: "Read",
            tool_input: { file_path: join(root, "src", "a.ts") },
          }),
        ),
        env(),
        deps,
      );
      expect(read, agentType).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    }
    expect(allEvents(root, ids)).toEqual([]);
  });

  it("a bare role name gets its role once devrites' agent file is installed (the near miss above)", () => {
    const id = runId(1);
    const { root } = repo([{ role: "devrites-slice-wright", run_id: id, allowed_repo_writes: ["src/x.ts"] }]);
    mkdirSync(join(root, ".codex", "agents"), { recursive: true });
    writeFileSync(
      join(root, ".codex", "agents", "devrites-slice-wright.toml"),
      `# ${AGENT_GENERATED_NOTE}\nname = "devrites-slice-wright"\n`,
    );
    expect(handlePreToolUse(ok(write(root, "devrites-slice-wright", "codex")), env(), deps).exitCode).toBe(0);
    expect(events(root, id).map((e) => [e.type, e.data.decision, e.data.agent_type])).toEqual([
      ["guard.decision", "allow", "devrites-slice-wright"],
    ]);
  });
});
