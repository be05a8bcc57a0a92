import { describe, expect, it } from "vitest";
import {
  BACKGROUND_ROLE,
  BLOCK_MARK,
  DENY_FILE,
  judge,
  LEAF_ROLE,
  leafSteps,
  type Observation,
  SANDBOX_FILE,
  SANDBOX_OK,
} from "./probes.js";
import type { DoctorHost, ProbeId } from "./types.js";

const denied = (rule: string) => `PreToolUse:Bash hook error: devrites guard denied this call [${rule}]: no`;

/** What a healthy run leaves behind, per host; `over` changes one thing. */
function healthy(host: DoctorHost, over: Partial<Observation> = {}): Observation {
  const s = leafSteps(host);
  const results: Record<string, { text: string; isError: boolean }> = {
    [s.deny.id]: { text: denied("guard.readonly-write"), isError: true },
    [s.write.id]: { text: "Error: EROFS: read-only file system, open 'doctor-sandbox.txt'", isError: true },
    [s.control.id]: { text: SANDBOX_OK, isError: false },
    [s.spawn.id]: { text: denied("guard.spawn"), isError: true },
  };
  const leafCall = { tool_name: "Bash", agent_id: "a1", agent_type: LEAF_ROLE };
  return {
    host,
    version: host === "claude" ? "2.1.328" : "0.169.0",
    runProblem: undefined,
    preToolUse: [leafCall, { tool_name: "Bash", agent_id: "a2", agent_type: BACKGROUND_ROLE }],
    subagentStop: [
      { agent_id: "a1", agent_type: LEAF_ROLE, stop_hook_active: false },
      { agent_id: "a1", agent_type: LEAF_ROLE, stop_hook_active: true },
    ],
    result: (id) => results[id],
    blockSeenByLeaf: true,
    fileExists: () => false,
    spawnToolOffered: false,
    backgroundSpawned: true,
    ...over,
  };
}

const resultOf = (o: Observation, probe: ProbeId) => judge(o).find((r) => r.probe === probe);

describe("judge: the probe rows of one run", () => {
  it.each(["claude", "codex"] as const)("a healthy %s run passes every row", (host) => {
    const rows = judge(healthy(host));
    expect(rows.map((r) => [r.probe, r.result])).toEqual(
      [
        "host.runs",
        "hooks.subagent",
        ...(host === "claude" ? ["hooks.background"] : []),
        "guard.deny",
        "sandbox.rewrite",
        "guard.spawn",
        "subagent-stop.block",
      ].map((p) => [p, "pass"]),
    );
    expect(rows.every((r) => r.gating && r.fix === "")).toBe(true);
  });

  it("no hook ran: every hook-borne row fails and says how to wire the hooks", () => {
    const o = healthy("claude", {
      preToolUse: [],
      subagentStop: [],
      blockSeenByLeaf: false,
      result: (id) => ({ text: id.endsWith("control") ? SANDBOX_OK : "ok", isError: false }),
      fileExists: (p) => p === DENY_FILE || p === SANDBOX_FILE,
    });
    const rows = judge(o);
    const failed = rows.filter((r) => r.result === "fail").map((r) => r.probe);
    expect(failed).toEqual([
      "hooks.subagent",
      "hooks.background",
      "guard.deny",
      "sandbox.rewrite",
      "guard.spawn",
      "subagent-stop.block",
    ]);
    expect(resultOf(o, "hooks.subagent")?.detail).toBe("no PreToolUse hook ran at all");
    expect(resultOf(o, "sandbox.rewrite")?.fix).toContain("devrites init");
  });

  it("near miss: the hook ran for the leaf but without agent_id", () => {
    const o = healthy("codex", { preToolUse: [{ tool_name: "Bash", agent_type: LEAF_ROLE }] });
    expect(resultOf(o, "hooks.subagent")).toMatchObject({ result: "fail" });
    expect(resultOf(o, "hooks.subagent")?.detail).toContain("without agent_id");
  });

  it("near miss: the hook ran only for the root's calls", () => {
    const o = healthy("codex", { preToolUse: [{ tool_name: "Bash" }] });
    expect(resultOf(o, "hooks.subagent")?.detail).toBe("the hook ran, but never for the subagent's calls");
  });

  it("the background leaf's hook not running fails only hooks.background", () => {
    const o = healthy("claude", {
      preToolUse: [{ tool_name: "Bash", agent_id: "a1", agent_type: LEAF_ROLE }],
    });
    expect(
      judge(o)
        .filter((r) => r.result === "fail")
        .map((r) => r.probe),
    ).toEqual(["hooks.background"]);
    const never = healthy("claude", { preToolUse: [], backgroundSpawned: false });
    expect(resultOf(never, "hooks.background")?.detail).toBe("the background subagent never ran");
  });

  it("a denial that left the file behind still fails guard.deny", () => {
    const o = healthy("claude", { fileExists: (p) => p === DENY_FILE });
    expect(resultOf(o, "guard.deny")).toMatchObject({ result: "fail" });
    expect(resultOf(o, "guard.deny")?.detail).toContain("was written");
  });

  it("Claude's deny must be an error result; a plain result quoting the text is not a deny", () => {
    const s = leafSteps("claude");
    const base = healthy("claude");
    const o = healthy("claude", {
      result: (id) =>
        id === s.deny.id ? { text: denied("guard.readonly-write"), isError: false } : base.result(id),
    });
    expect(resultOf(o, "guard.deny")?.result).toBe("fail");
  });

  it("the sandbox could not start: sandbox.rewrite fails saying so, with the sandbox fix", () => {
    const s = leafSteps("codex");
    const base = healthy("codex");
    const msg = "devrites sandbox: the sandbox could not start here (exit 126)";
    const o = healthy("codex", {
      result: (id) =>
        id === s.control.id || id === s.write.id ? { text: msg, isError: false } : base.result(id),
    });
    const r = resultOf(o, "sandbox.rewrite");
    expect(r?.result).toBe("fail");
    expect(r?.detail).toBe("the sandbox could not start here: every leaf shell call fails (exit 126)");
    expect(r?.fix).toContain("bubblewrap");
  });

  it("the write landing fails sandbox.rewrite even though the control ran", () => {
    const o = healthy("claude", { fileExists: (p) => p === SANDBOX_FILE });
    expect(resultOf(o, "sandbox.rewrite")?.detail).toContain("ran unsandboxed");
  });

  it("near miss: the control's command text quoted in a deny does not count as the sandbox starting", () => {
    const s = leafSteps("codex");
    const base = healthy("codex");
    const o = healthy("codex", {
      result: (id) =>
        id === s.control.id
          ? { text: `Command blocked by PreToolUse hook: x. Command: ${s.control.command}`, isError: false }
          : base.result(id),
    });
    expect(s.control.command).not.toContain(SANDBOX_OK);
    expect(resultOf(o, "sandbox.rewrite")?.result).toBe("fail");
  });

  it("off Linux (no devrites sandbox yet) a sandbox failure is a warning; on Linux it breaks the guarantee", () => {
    const landed = { fileExists: (p: string) => p === SANDBOX_FILE };
    const off = resultOf(healthy("claude", { ...landed, sandboxExpected: false }), "sandbox.rewrite");
    expect(off).toMatchObject({ result: "fail", gating: false });
    expect(off?.detail).toContain("no sandbox for this platform");
    expect(resultOf(healthy("claude", { ...landed, sandboxExpected: true }), "sandbox.rewrite")?.gating).toBe(
      true,
    );
    expect(resultOf(healthy("claude", { sandboxExpected: false }), "sandbox.rewrite")).toMatchObject({
      result: "pass",
      gating: true,
    });
  });

  it("a write that did not fail read-only fails sandbox.rewrite", () => {
    const s = leafSteps("claude");
    const base = healthy("claude");
    const o = healthy("claude", {
      result: (id) => (id === s.write.id ? { text: "", isError: false } : base.result(id)),
    });
    expect(resultOf(o, "sandbox.rewrite")?.detail).toContain("did not fail read-only");
  });

  it("a spawn tool offered to the leaf fails guard.spawn even when the shell spawn was denied", () => {
    const o = healthy("claude", { spawnToolOffered: true });
    expect(resultOf(o, "guard.spawn")).toMatchObject({ result: "fail" });
    expect(resultOf(o, "guard.spawn")?.detail).toContain("spawn tool");
  });

  it("SubagentStop: not fired, or fired without the block reaching the leaf, fails", () => {
    expect(resultOf(healthy("codex", { subagentStop: [] }), "subagent-stop.block")?.detail).toBe(
      "no SubagentStop hook ran for the leaf",
    );
    expect(resultOf(healthy("codex", { blockSeenByLeaf: false }), "subagent-stop.block")?.detail).toContain(
      "did not reach",
    );
    expect(BLOCK_MARK.length).toBeGreaterThan(10);
    const once = healthy("codex", {
      subagentStop: [{ agent_id: "a1", agent_type: LEAF_ROLE, stop_hook_active: false }],
    });
    expect(resultOf(once, "subagent-stop.block")).toMatchObject({ result: "fail" });
    expect(resultOf(once, "subagent-stop.block")?.detail).toContain("stop_hook_active");
  });

  it("a run problem fails host.runs with it", () => {
    const r = resultOf(healthy("claude", { runProblem: "exited 1: boom" }), "host.runs");
    expect(r).toMatchObject({ result: "fail", detail: "exited 1: boom" });
  });
});
