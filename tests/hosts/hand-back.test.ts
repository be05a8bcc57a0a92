/**
 * The "no result stored" fallback through each real host's hand-back: a devrites leaf ends with its
 * agent-result/v1 as its final message (pretty-printed, so Claude's indentation matters); the scripted root
 * takes exactly what its host handed it (Claude: the Agent tool result; Codex: the `wait_agent` output) and
 * pipes it into `.devrites/bin/devrites result record <run-id>` as dispatch.md says, with the SubagentStop hook
 * taken out (the case the fallback is for). The stored bytes must be the leaf's own, never the wrapper, and
 * `result check` must accept them.
 *
 * Skips with the reason when a host is unavailable (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { sampleResult } from "../../src/envelope/fixtures.js";
import { ROLES } from "../../src/envelope/roles.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { unwrapHandBack } from "../../src/result/hand-back.js";
import { ensureHosts } from "./harness/install.js";
import { runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import { cleanupAllSandboxes, killAllHostProcesses, makeSandbox, type Sandbox } from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "bin", "devrites.js");
const ROLE = "devrites-evidence-scout";
const hosts = await ensureHosts();
afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
});

async function devrites(cwd: string, args: string[]) {
  const r = await execa("node", [CLI, ...args], { cwd, reject: false, stdin: "ignore" });
  expect(r.exitCode, `devrites ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** A project installed with `devrites init --host <host>`, one scout packet, and the scout's final message. */
async function project(host: "claude" | "codex") {
  const s: Sandbox = await makeSandbox();
  await execa(
    "git",
    ["-c", "user.email=e@x.invalid", "-c", "user.name=e", "commit", "-q", "--allow-empty", "-m", "i"],
    {
      cwd: s.project,
    },
  );
  await devrites(s.project, ["init", "--host", host]);
  // The fallback is for a leaf whose SubagentStop hook did not run: take it out of the host's wiring.
  const wiring = join(s.project, host === "claude" ? ".claude/settings.json" : ".codex/hooks.json");
  const settings = JSON.parse(readFileSync(wiring, "utf8")) as { hooks: Record<string, unknown> };
  expect(settings.hooks.SubagentStop).toBeDefined();
  delete settings.hooks.SubagentStop;
  writeFileSync(wiring, `${JSON.stringify(settings, null, 2)}\n`);
  const out = await devrites(s.project, [
    "packet",
    "new",
    "--role",
    ROLE,
    "--rite",
    "rite-spec",
    "--objective",
    "Say where a lives.",
    "--json",
  ]);
  const packet = (JSON.parse(out).data as { packet: AgentPacket }).packet;
  const r = sampleResult(ROLES[ROLE].payload);
  r.run_id = packet.run_id;
  r.role = packet.role;
  r.baseline_id = packet.baseline.id;
  r.budget = { files_used: 1, loaded_lines_used: 10, ...packet.budgets };
  r.side_effects = { repo_writes: [], scratch_writes: [] };
  r.decisions_stood = [];
  const message = JSON.stringify(r, null, 2);
  return { s, packet, message };
}

/** The root's fallback, as dispatch.md writes it: the host's hand-back, verbatim, into result record. */
const recordCommand = (runId: string, handBack: string) =>
  `.devrites/bin/devrites result record ${runId} --json <<'DEVRITES_EOF'\n${handBack}\nDEVRITES_EOF`;

function recorded(s: Sandbox, packet: AgentPacket) {
  const events = readFileSync(join(s.project, `.devrites/runs/${packet.run_id}/events.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; data?: Record<string, unknown> });
  return {
    stored: readFileSync(join(s.project, packet.result_path), "utf8"),
    events: events.filter((e) => e.type === "result.recorded"),
  };
}

describeHosts("hand-back: Claude Code's Agent tool result into result record", hosts, ["claude"], () => {
  it("finds the leaf's message in the [Subagent hand-back] frame and stores its bytes", async () => {
    const { s, packet, message } = await project("claude");
    let handBack: string | undefined;
    const fake = await A.startFakeAnthropic((_req, ctx) => {
      if (ctx.isSubagent) return A.text(message);
      if (!ctx.hasToolResult("toolu_spawn"))
        return A.toolUse("toolu_spawn", "Agent", {
          description: `rite-spec: ${ROLE}`,
          prompt: `Packet: ${packet.result_path.replace("result.json", "packet.json")}. Read it first and follow it.`,
          subagent_type: ROLE,
          run_in_background: false,
        });
      if (!ctx.hasToolResult("toolu_record")) {
        handBack = ctx.toolResult("toolu_spawn") ?? "";
        return A.toolUse("toolu_record", "Bash", { command: recordCommand(packet.run_id, handBack) });
      }
      return A.text("done");
    });
    try {
      const run = await runClaude({
        prompt: "/rite-spec",
        fake,
        sandbox: s,
        allowedTools: ["Agent", "Bash"],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(fake.failures).toEqual([]);
      // the real frame, as the root saw it
      expect(handBack).toContain("[Subagent hand-back]");
      expect(handBack).not.toBe(message);
      const u = unwrapHandBack(handBack!);
      expect(u).toEqual({ ok: true, text: message, frame: "claude-hand-back" });
      const last = A.anthropicContextOf(fake.modelRequests().at(-1)!);
      const out = last.toolResultBlock("toolu_record");
      expect(out?.isError, out?.text).toBe(false);
      const { stored, events } = recorded(s, packet);
      expect(stored).toBe(`${message}\n`);
      expect(events.map((e) => [e.data?.source, e.data?.frame])).toEqual([["stdin", "claude-hand-back"]]);
      expect(
        (await execa("node", [CLI, "result", "check", packet.result_path], { cwd: s.project, reject: false }))
          .exitCode,
      ).toBe(0);
    } finally {
      await fake.close();
    }
  });
});

describeHosts("hand-back: Codex's wait_agent output into result record", hosts, ["codex"], () => {
  it("finds the leaf's message in the wait_agent status object and stores its bytes", async () => {
    const { s, packet, message } = await project("codex");
    const ns = { namespace: "multi_agent_v1" };
    let handBack: string | undefined;
    const fake = await R.startFakeResponses((_req, ctx) => {
      if (ctx.isSubagent) return R.text(message);
      if (!ctx.hasToolResult("call_spawn"))
        return R.functionCall(
          "call_spawn",
          "spawn_agent",
          {
            agent_type: ROLE,
            message: `Packet: ${packet.result_path.replace("result.json", "packet.json")}.`,
          },
          ns,
        );
      if (!ctx.hasToolResult("call_wait")) {
        const { agent_id } = JSON.parse(ctx.toolResult("call_spawn")!) as { agent_id: string };
        return R.functionCall("call_wait", "wait_agent", { targets: [agent_id] }, ns);
      }
      if (!ctx.hasToolResult("call_record")) {
        handBack = ctx.toolResult("call_wait") ?? "";
        return R.functionCall("call_record", "exec_command", { cmd: recordCommand(packet.run_id, handBack) });
      }
      return R.text("done");
    });
    try {
      const run = await runCodex({
        prompt: "$rite-spec",
        fake,
        sandbox: s,
        env: { TMPDIR: s.root.startsWith("/tmp/") ? "/var/tmp" : "/tmp" },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(fake.failures).toEqual([]);
      const shape = JSON.parse(handBack!) as {
        status: Record<string, { completed?: string }>;
        timed_out: boolean;
      };
      expect(shape.timed_out).toBe(false);
      expect(Object.values(shape.status).map((v) => v.completed)).toEqual([message]);
      expect(unwrapHandBack(handBack!)).toEqual({ ok: true, text: message, frame: "codex-wait-agent" });
      const last = R.responsesContextOf(fake.modelRequests().at(-1)!);
      expect(last.toolResult("call_record")).toContain("Process exited with code 0");
      const { stored, events } = recorded(s, packet);
      expect(stored).toBe(`${message}\n`);
      expect(events.map((e) => [e.data?.source, e.data?.frame])).toEqual([["stdin", "codex-wait-agent"]]);
      expect(
        (await execa("node", [CLI, "result", "check", packet.result_path], { cwd: s.project, reject: false }))
          .exitCode,
      ).toBe(0);
    } finally {
      await fake.close();
    }
  });
});
