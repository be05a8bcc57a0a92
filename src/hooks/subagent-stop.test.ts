import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Diagnostic, error } from "../core/diagnostics.js";
import type { RoleName } from "../envelope/roles.js";
import { readJsonLines, workspacePaths } from "../run/workspace.js";
import type { ActiveRun, RunEvent } from "../run/workspace-types.js";
import { makeRepo, runId, type TestRepo } from "./fixtures.js";
import { AGENT_GENERATED_NOTE, isInstalledRole } from "./installed.js";
import {
  blockReason,
  type CheckOutcomeLike,
  handleSubagentStop,
  type RecordOutcomeLike,
  type SubagentStopDeps,
  selectRun,
  subagentStopHook,
} from "./subagent-stop.js";

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

interface Calls {
  record: { runId: string; text: string; source: string }[];
  check: { cwd: string; result: string }[];
}

function deps(
  opts: {
    record?: RecordOutcomeLike;
    check?: CheckOutcomeLike | Error;
    installed?: (root: string, role: RoleName) => boolean;
  } = {},
): {
  deps: SubagentStopDeps;
  calls: Calls;
} {
  const calls: Calls = { record: [], check: [] };
  return {
    calls,
    deps: {
      extract: (text) => {
        try {
          const v = JSON.parse(text) as unknown;
          return v && typeof v === "object" && !Array.isArray(v)
            ? { ok: true, value: v as Record<string, unknown> }
            : { ok: false, diagnostics: [error("record.not-object", "not an object")] };
        } catch {
          return { ok: false, diagnostics: [error("record.no-json", "no JSON found")] };
        }
      },
      record: (o) => {
        calls.record.push({ runId: o.runId, text: o.text, source: o.source });
        return opts.record ?? { exitCode: 0, diagnostics: [] };
      },
      check: async (o) => {
        calls.check.push({ cwd: o.cwd, result: o.result });
        if (opts.check instanceof Error) throw opts.check;
        return opts.check ?? { exitCode: 0, diagnostics: [], data: { verdict: "accepted" } };
      },
      isInstalledRole: opts.installed ?? (() => true),
      now: () => NOW,
    },
  };
}

const stale: Diagnostic[] = [
  error("result.stale", "src/a.ts changed since the baseline", {
    path: "src/a.ts",
    hint: "re-read src/a.ts",
  }),
  { code: "packet.superseded", severity: "warning", message: "a warning that is not quoted" },
];
const rejected: CheckOutcomeLike = { exitCode: 1, diagnostics: stale, data: { verdict: "rejected" } };

function stop(root: string, extra: Record<string, unknown> = {}) {
  const input = {
    session_id: "s",
    transcript_path: "/t",
    cwd: root,
    hook_event_name: "SubagentStop",
    agent_id: "a1",
    agent_type: "devrites:devrites-evidence-scout",
    stop_hook_active: false,
    agent_transcript_path: "/a",
    last_assistant_message: JSON.stringify({ result_version: "agent-result/v1", run_id: runId(1) }),
    ...extra,
  };
  return { kind: "ok" as const, bytes: Buffer.from(JSON.stringify(input)) };
}
const env = { env: {}, cwd: "/" };
const events = (root: string, id: string) =>
  readJsonLines<RunEvent>(join(root, workspacePaths.events(id)), "e").values.filter(
    (e) => e.type === "hook.subagent-stop",
  );

describe("handleSubagentStop", () => {
  it("stores, checks and lets an accepted result end, recording the outcome", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const d = deps();
    const a = await handleSubagentStop(stop(root), env, d.deps);
    expect(a).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(d.calls.record).toEqual([
      { runId: runId(1), text: expect.stringContaining(runId(1)), source: "subagent-stop" },
    ]);
    expect(d.calls.check).toEqual([{ cwd: root, result: join(root, workspacePaths.result(runId(1))) }]);
    expect(events(root, runId(1))).toEqual([
      {
        ts: NOW.toISOString(),
        run_id: runId(1),
        type: "hook.subagent-stop",
        data: {
          agent_id: "a1",
          agent_type: "devrites:devrites-evidence-scout",
          stop_hook_active: false,
          outcome: "accepted",
          blocked: false,
          codes: [],
        },
      },
    ]);
  });

  it("records where the host keeps the leaf's transcript, before the check reads the receipts", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const d = deps();
    await handleSubagentStop(stop(root), env, d.deps);
    const all = readJsonLines<RunEvent>(join(root, workspacePaths.events(runId(1))), "e").values;
    expect(all.map((e) => e.type)).toEqual(["hook.transcript", "hook.subagent-stop"]);
    expect(all[0]?.data).toEqual({ agent_id: "a1", path: "/a" });
    // near miss: no agent_transcript_path (an older host): nothing recorded, the strength will be unverified
    const other = repo([{ role: "devrites-evidence-scout", run_id: runId(2) }]);
    await handleSubagentStop(
      stop(other.root, {
        agent_transcript_path: undefined,
        last_assistant_message: JSON.stringify({ result_version: "agent-result/v1", run_id: runId(2) }),
      }),
      env,
      deps().deps,
    );
    const none = readJsonLines<RunEvent>(join(other.root, workspacePaths.events(runId(2))), "e").values;
    expect(none.map((e) => e.type)).toEqual(["hook.subagent-stop"]);
  });

  it("blocks a rejected result once, quoting the errors with their fixes", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const a = await handleSubagentStop(stop(root), env, deps({ check: rejected }).deps);
    expect(a.exitCode).toBe(0);
    const out = JSON.parse(a.stdout) as { decision: string; reason: string };
    expect(out.decision).toBe("block");
    expect(out.reason).toContain(`run ${runId(1)}`);
    expect(out.reason).toContain(
      "- result.stale src/a.ts: src/a.ts changed since the baseline (fix: re-read src/a.ts)",
    );
    expect(out.reason).not.toContain("a warning that is not quoted");
    expect(events(root, runId(1)).map((e) => [e.data.outcome, e.data.blocked, e.data.codes])).toEqual([
      ["rejected", true, ["packet.superseded", "result.stale"]],
    ]);
  });

  it("after one block (stop_hook_active) it records the outcome and lets the leaf end", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const a = await handleSubagentStop(
      stop(root, { stop_hook_active: true }),
      env,
      deps({ check: rejected }).deps,
    );
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toBe("");
    expect(a.stderr).toContain("still rejected");
    expect(
      events(root, runId(1)).map((e) => [e.data.outcome, e.data.blocked, e.data.stop_hook_active]),
    ).toEqual([["rejected", false, true]]);
  });

  it("a gate ends the leaf (the root asks the human)", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const a = await handleSubagentStop(
      stop(root),
      env,
      deps({ check: { exitCode: 3, diagnostics: [], data: { verdict: "gate" } } }).deps,
    );
    expect(a.stdout).toBe("");
    expect(events(root, runId(1))[0]?.data.outcome).toBe("gate");
  });

  it("a message the store cannot use (no JSON) is blocked once; a second time it ends", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const noJson = { exitCode: 1, diagnostics: [error("record.no-json", "no JSON object found")] };
    const first = await handleSubagentStop(
      stop(root, { last_assistant_message: "done!" }),
      env,
      deps({ record: noJson }).deps,
    );
    expect(JSON.parse(first.stdout).reason).toContain("record.no-json");
    const second = await handleSubagentStop(
      stop(root, { last_assistant_message: "done!", stop_hook_active: true }),
      env,
      deps({ record: noJson }).deps,
    );
    expect(second.stdout).toBe("");
    expect(events(root, runId(1)).map((e) => [e.data.outcome, e.data.blocked])).toEqual([
      ["unrecorded", true],
      ["unrecorded", false],
    ]);
  });

  it("a store failure the leaf cannot fix does not block", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const d = deps({
      record: { exitCode: 1, diagnostics: [error("record.result-exists", "a different result exists")] },
    });
    const a = await handleSubagentStop(stop(root), env, d.deps);
    expect(a.stdout).toBe("");
    expect(a.stderr).toContain("record.result-exists");
    expect(d.calls.check).toEqual([]);
  });

  it("is a no-op for the root session and for agents that are not devrites roles", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    for (const extra of [
      { agent_type: undefined, agent_id: undefined },
      { agent_type: "general-purpose" },
      { agent_type: 3 },
    ]) {
      const d = deps();
      const input = JSON.parse(stop(root, extra).bytes.toString()) as Record<string, unknown>;
      const a = await handleSubagentStop(
        { kind: "ok", bytes: Buffer.from(JSON.stringify(input)) },
        env,
        d.deps,
      );
      expect(a).toEqual({ exitCode: 0, stdout: "", stderr: "" });
      expect(d.calls.record).toEqual([]);
    }
  });

  it("does nothing for a foreign agent, even one named like a role, with a run of that role active", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    // the real check: this repository holds no generated agent files, so no bare name is devrites'
    for (const agentType of [
      "Explore",
      "explorer",
      "devrites-evidence-scout",
      "evil:devrites-evidence-scout",
      "Devrites:devrites-evidence-scout",
      "devrites:devrites-evidence-scout:x",
      " devrites-evidence-scout",
    ]) {
      const d = deps({ installed: isInstalledRole });
      const a = await handleSubagentStop(stop(root, { agent_type: agentType }), env, d.deps);
      expect(a, agentType).toEqual({ exitCode: 0, stdout: "", stderr: "" });
      expect(d.calls.record, agentType).toEqual([]);
      expect(d.calls.check, agentType).toEqual([]);
    }
    expect(events(root, runId(1))).toEqual([]);
  });

  it("handles a bare role name once devrites' generated agent file is installed (near miss: the plugin form always)", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    mkdirSync(join(root, ".codex", "agents"), { recursive: true });
    writeFileSync(
      join(root, ".codex", "agents", "devrites-evidence-scout.toml"),
      `# ${AGENT_GENERATED_NOTE}\nname = "devrites-evidence-scout"\n`,
    );
    const d = deps({ installed: isInstalledRole });
    await handleSubagentStop(stop(root, { agent_type: "devrites-evidence-scout" }), env, d.deps);
    expect(d.calls.record.map((r) => r.runId)).toEqual([runId(1)]);
    expect(events(root, runId(1)).map((e) => e.data.agent_type)).toEqual(["devrites-evidence-scout"]);
  });

  it("steps aside on malformed input or an unreadable workspace", async () => {
    const d = deps();
    expect((await handleSubagentStop({ kind: "ok", bytes: Buffer.from("{") }, env, d.deps)).stdout).toBe("");
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(root, workspacePaths.state), "nope");
    const a = await handleSubagentStop(stop(root), env, d.deps);
    expect(a).toMatchObject({ exitCode: 0, stdout: "" });
    expect(a.stderr).toContain("workspace cannot be read");
    expect(d.calls.record).toEqual([]);
  });

  it("a check that throws becomes the hook's crash answer: exit 0, the root checks", async () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const d = deps({ check: new Error("git exploded") });
    await expect(handleSubagentStop(stop(root), env, d.deps)).rejects.toThrow("git exploded");
    const spec = subagentStopHook(d.deps);
    expect(spec.onCrash(new Error("git exploded"))).toMatchObject({ exitCode: 0, stdout: "" });
    expect(spec.onDeadline({ kind: "timeout", prefix: Buffer.alloc(0), afterMs: 1 })).toMatchObject({
      exitCode: 0,
      stdout: "",
    });
  });
});

describe("selectRun", () => {
  const run = (n: number, role: ActiveRun["role"]): ActiveRun => ({
    run_id: runId(n),
    role,
    step_id: `rite-build/${role}#${n}`,
    packet_path: workspacePaths.packet(runId(n)),
    created_at: NOW.toISOString(),
  });
  const active = [
    run(1, "devrites-evidence-scout"),
    run(2, "devrites-evidence-scout"),
    run(3, "devrites-slice-wright"),
  ];

  it("takes the run the result names when it is an active run of the role", () => {
    expect(selectRun("devrites-evidence-scout", runId(2), active)).toEqual({ ok: true, run: active[1] });
  });
  it("a named run of another role is the leaf's to fix", () => {
    const r = selectRun("devrites-evidence-scout", runId(3), active);
    expect(r).toMatchObject({ ok: false, fixable: true });
    if (!r.ok) expect(r.message).toContain("belongs to devrites-slice-wright");
  });
  it("a named run that is not active is the leaf's to fix while its role has a run", () => {
    const r = selectRun("devrites-slice-wright", runId(9), active);
    expect(r).toMatchObject({ ok: false, fixable: true });
    if (!r.ok) expect(r.message).toContain(runId(3));
  });
  it("without a name: the single run of the role, else ambiguous", () => {
    expect(selectRun("devrites-slice-wright", undefined, active)).toEqual({ ok: true, run: active[2] });
    expect(selectRun("devrites-evidence-scout", undefined, active)).toMatchObject({
      ok: false,
      fixable: true,
    });
  });
  it("no run of the role: nothing to record, not the leaf's fault", () => {
    expect(selectRun("devrites-code-reviewer", undefined, active)).toMatchObject({
      ok: false,
      fixable: false,
    });
    expect(selectRun("devrites-code-reviewer", runId(1), active)).toMatchObject({
      ok: false,
      fixable: false,
    });
  });
});

describe("blockReason", () => {
  it("quotes at most 20 errors and counts the rest", () => {
    const many = Array.from({ length: 25 }, (_, i) => error("result.stale", `m${i}`));
    const text = blockReason("rejected", runId(1), many);
    expect(text.split("\n").filter((l) => l.startsWith("- result."))).toHaveLength(20);
    expect(text).toContain("… and 5 more");
  });
  it("quotes warnings when there are no errors", () => {
    expect(
      blockReason("x", runId(1), [{ code: "packet.superseded", severity: "warning", message: "hm" }]),
    ).toContain("- packet.superseded: hm");
  });
});
