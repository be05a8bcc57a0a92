/**
 * The real SubagentStop bundle on a real repository: `packet new` through the CLI, then the bundle spawned
 * directly or loaded by the generated launcher (its answer is a promise there), with the leaf's final message
 * in the hook input.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentPacket } from "../../src/envelope/types.js";
import { installAgents } from "../../src/hooks/fixtures.js";
import { Repo } from "../contract/harness.js";
import { runBundle } from "./spawn.js";

let repo: Repo;
let p: AgentPacket;
/** How the bundle runs: spawned directly, or loaded in process by the generated launcher (what hosts run). */
let via: "socket" | "launcher" = "socket";
beforeEach(async () => {
  via = "socket";
  repo = Repo.create({ "src/app.ts": "export const app = 1;\n" });
  installAgents(repo.root); // as `devrites init` does: Codex names project agents by their bare name
  p = await repo.packet("devrites-evidence-scout");
});
afterEach(() => repo.cleanup());

type Host = "claude" | "codex";

function input(host: Host, message: string, extra: Record<string, unknown> = {}): string {
  const common =
    host === "claude"
      ? {
          session_id: "s",
          transcript_path: "/t",
          cwd: repo.root,
          permission_mode: "acceptEdits",
          agent_id: "a95813fe30b80300e",
          agent_type: "devrites:devrites-evidence-scout",
          effort: { level: "medium" },
          hook_event_name: "SubagentStop",
          agent_transcript_path: "/a",
          background_tasks: [],
          session_crons: [],
        }
      : {
          session_id: "s",
          turn_id: "t",
          transcript_path: null,
          cwd: repo.root,
          hook_event_name: "SubagentStop",
          model: "fake-model",
          permission_mode: "default",
          agent_transcript_path: "/a",
          agent_id: "019a-thread",
          agent_type: "devrites-evidence-scout",
        };
  return JSON.stringify({ ...common, stop_hook_active: false, last_assistant_message: message, ...extra });
}

const stop = (stdin: string) => runBundle("subagent-stop", stdin, { cwd: repo.root, via });

function events(): { type: string; data: Record<string, unknown> }[] {
  return repo
    .read(`.devrites/runs/${p.run_id}/events.jsonl`)
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}
const activeRuns = () =>
  (JSON.parse(repo.read(".devrites/state.json")) as { active_runs: unknown[] }).active_runs;

describe.each([
  ["claude", "socket"],
  ["codex", "socket"],
  ["claude", "launcher"],
  ["codex", "launcher"],
] as const)("subagent-stop bundle (%s input, via %s)", (host, how) => {
  beforeEach(() => {
    via = how;
  });

  it("stores and accepts a valid result, lets the leaf end and retires the run", async () => {
    const result = JSON.stringify(repo.resultFor(p));
    const r = await stop(input(host, `Done.\n\n\`\`\`json\n${result}\n\`\`\``));
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
    expect(repo.read(p.result_path)).toBe(`${result}\n`);
    expect(events().map((e) => e.type)).toEqual([
      "packet.created",
      "hook.transcript",
      "result.recorded",
      "result.checked",
      "hook.subagent-stop",
    ]);
    expect(events().at(-1)?.data).toMatchObject({
      outcome: "accepted",
      blocked: false,
      stop_hook_active: false,
    });
    expect(activeRuns()).toEqual([]);
  });

  it("blocks a rejected result once, quoting the diagnostics; the fix is accepted on the next stop", async () => {
    const bad = { ...repo.resultFor(p), status: "partial" };
    const first = await stop(input(host, JSON.stringify(bad)));
    expect(first.status).toBe(0);
    const out = JSON.parse(first.stdout) as { decision: string; reason: string };
    expect(out.decision).toBe("block");
    expect(out.reason).toContain("result.partial");
    expect(out.reason).toContain(p.run_id);
    expect(activeRuns()).toHaveLength(1);

    const fixed = await stop(input(host, JSON.stringify(repo.resultFor(p)), { stop_hook_active: true }));
    expect(fixed.stdout).toBe("");
    expect(fixed.status).toBe(0);
    expect(
      events()
        .filter((e) => e.type === "hook.subagent-stop")
        .map((e) => [e.data.outcome, e.data.blocked]),
    ).toEqual([
      ["rejected", true],
      ["accepted", false],
    ]);
    expect(activeRuns()).toEqual([]);
  });

  it("the second stop of a still-rejected result is recorded and lets the leaf end", async () => {
    const bad = JSON.stringify({ ...repo.resultFor(p), status: "partial" });
    expect(JSON.parse((await stop(input(host, bad))).stdout).decision).toBe("block");
    const again = await stop(input(host, bad, { stop_hook_active: true }));
    expect(again.stdout).toBe("");
    expect(again.status).toBe(0);
    expect(again.stderr).toContain("still rejected");
    expect(events().at(-1)?.data).toMatchObject({
      outcome: "rejected",
      blocked: false,
      stop_hook_active: true,
    });
    expect(activeRuns()).toHaveLength(1);
  });

  it("blocks a final message with no JSON once", async () => {
    const r = await stop(input(host, "I looked around and everything is fine."));
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: "block" });
    expect(JSON.parse(r.stdout).reason).toContain("record.no-json");
  });
});

describe("subagent-stop bundle: not ours", () => {
  it("is a no-op for the root session and for other agents", async () => {
    const result = JSON.stringify(repo.resultFor(p));
    const root = JSON.parse(input("claude", result)) as Record<string, unknown>;
    delete root.agent_id;
    delete root.agent_type;
    for (const stdin of [
      JSON.stringify(root),
      input("claude", result, { agent_type: "general-purpose" }),
      "not json",
      "",
    ]) {
      const r = await stop(stdin);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe("");
    }
    expect(() => repo.read(p.result_path)).toThrow();
  });
});
