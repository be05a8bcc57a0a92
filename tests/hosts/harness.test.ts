/**
 * Smoke suite for the real-host harness: proves, against the pinned Claude Code and Codex binaries, that the
 * install, the fakes, the runners and the offline helpers work, using a tiny hand-written fixture plugin.
 *
 * Skips (with the reason in the suite name) when a host cannot be installed; `DEVRITES_REQUIRE_HOSTS=1` turns
 * that skip into a failure.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { ensureHosts } from "./harness/install.js";
import {
  claudePluginDetails,
  claudePluginValidate,
  permissionDenials,
  runClaude,
} from "./harness/run-claude.js";
import { CATALOG_MODEL, codexPromptInput, runCodex, writeCodexConfig } from "./harness/run-codex.js";
import {
  cleanupAllSandboxes,
  killAllHostProcesses,
  makeSandbox,
  readJsonLinesFile,
} from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const here = dirname(fileURLToPath(import.meta.url));
const PLUGIN = join(here, "fixtures", "probe-plugin");
const CODEX_PROJECT = join(here, "fixtures", "codex-project");
const GUARD = join(PLUGIN, "hooks", "guard.mjs");

const hosts = await ensureHosts();
afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
});

describeHosts("pinned hosts", hosts, ["claude", "codex"], () => {
  it("report their pinned versions", () => {
    expect(hosts.claude?.version).toContain("2.1.328");
    expect(hosts.codex?.version).toContain("0.169.0");
  });
});

describeHosts("Claude Code harness", hosts, ["claude"], () => {
  it("plugin validate passes and lists the fixture's components", async () => {
    const v = await claudePluginValidate(PLUGIN);
    expect(v.exitCode, v.stdout + v.stderr).toBe(0);
    expect(v.report?.success).toBe(true);
    expect(v.report?.provides.agents).toEqual(["probe:scout"]);
    expect(v.report?.provides.skills).toEqual(["probe:probe-skill"]);
    expect(v.report?.provides.hooks.map((h) => h.event)).toEqual(["PreToolUse"]);
  });

  it("plugin validate fails on a broken hook entry (near miss)", async () => {
    const s = await makeSandbox({ projectFrom: PLUGIN });
    writeFileSync(
      join(s.project, "hooks", "hooks.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command" }] }] } }),
    );
    const v = await claudePluginValidate(s.project);
    expect(v.exitCode).toBe(1);
    expect(v.report?.success).toBe(false);
  });

  it("plugin details parses into always-on and per-component costs", async () => {
    const d = await claudePluginDetails(PLUGIN, "probe");
    expect(d.title).toBe("probe 0.1.0");
    expect(d.alwaysOn).toBeGreaterThan(0);
    expect(d.components.map((c) => c.name).sort()).toEqual(["probe-skill", "scout"]);
    for (const c of d.components) {
      expect(Number.isFinite(c.alwaysOn)).toBe(true);
      expect(Number.isFinite(c.onInvoke)).toBe(true);
    }
    expect(d.inventory.Skills).toEqual({ count: 1, names: ["probe-skill"] });
    expect(d.inventory.Agents).toEqual({ count: 1, names: ["scout"] });
  });

  it("a text turn's init lists the plugin's agent and skill", async () => {
    const fake = await A.startFakeAnthropic(() => A.text("hello from the fake"));
    try {
      const run = await runClaude({ prompt: "say hello", fake, pluginDirs: [PLUGIN] });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.init?.agents).toContain("probe:scout");
      expect(run.init?.skills).toContain("probe:probe-skill");
      expect(run.init?.model).toBe("e2e-model");
      expect(run.result?.result).toBe("hello from the fake");
      expect(fake.modelRequests().length).toBe(1);
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("the plugin hook blocks a main-thread Write of blocked.txt; the allow control is written", async () => {
    const s = await makeSandbox();
    const blocked = join(s.project, "blocked.txt");
    const allowed = join(s.project, "allowed.txt");
    const fake = await A.startFakeAnthropic((_req, ctx) => {
      if (!ctx.hasToolResult("toolu_blocked")) {
        return A.toolUse("toolu_blocked", "Write", { file_path: blocked, content: "no\n" });
      }
      if (!ctx.hasToolResult("toolu_allowed")) {
        return A.toolUse("toolu_allowed", "Write", { file_path: allowed, content: "yes\n" });
      }
      return A.text("main done");
    });
    try {
      const log = s.path("hooks.jsonl");
      const run = await runClaude({
        prompt: "write files",
        fake,
        sandbox: s,
        pluginDirs: [PLUGIN],
        env: { E2E_HOOK_LOG: log },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(blocked)).toBe(false);
      expect(readFileSync(allowed, "utf8")).toBe("yes\n");
      expect(permissionDenials(run).map((d) => [d.tool_name, d.tool_use_id])).toEqual([
        ["Write", "toolu_blocked"],
      ]);
      const last = fake.modelRequests().at(-1)!;
      const ctx = A.anthropicContextOf(last);
      expect(ctx.toolResultBlock("toolu_blocked")).toMatchObject({ isError: true });
      expect(ctx.toolResult("toolu_blocked")).toContain("probe guard: blocked.txt is off limits");
      expect(ctx.toolResultBlock("toolu_allowed")?.isError).toBe(false);
      const calls = readJsonLinesFile(log);
      expect(calls.map((c) => c.tool_name)).toEqual(["Write", "Write"]);
      expect(calls.every((c) => !("agent_type" in c))).toBe(true);
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("a plugin subagent's Write of blocked.txt is blocked and the hook sees agent_type", async () => {
    const s = await makeSandbox();
    const blocked = join(s.project, "blocked.txt");
    const allowed = join(s.project, "allowed.txt");
    const fake = await A.startFakeAnthropic((_req, ctx) => {
      if (ctx.isSubagent) {
        if (!ctx.hasToolResult("toolu_child_blocked")) {
          return A.toolUse("toolu_child_blocked", "Write", { file_path: blocked, content: "no\n" });
        }
        if (!ctx.hasToolResult("toolu_child_allowed")) {
          return A.toolUse("toolu_child_allowed", "Write", { file_path: allowed, content: "child\n" });
        }
        return A.text("scout done");
      }
      if (!ctx.hasToolResult("toolu_spawn")) {
        return A.toolUse("toolu_spawn", "Agent", {
          description: "scout the files",
          prompt: "Write blocked.txt, then allowed.txt.",
          subagent_type: "probe:scout",
          run_in_background: false,
        });
      }
      return A.text("main done");
    });
    try {
      const log = s.path("hooks.jsonl");
      const run = await runClaude({
        prompt: "delegate",
        fake,
        sandbox: s,
        pluginDirs: [PLUGIN],
        env: { E2E_HOOK_LOG: log },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(blocked)).toBe(false);
      expect(readFileSync(allowed, "utf8")).toBe("child\n");
      const child = fake.modelRequests().filter((r) => A.anthropicContextOf(r).isSubagent);
      expect(child.length).toBeGreaterThan(0);
      expect(A.anthropicContextOf(child[0]!).system).toContain("PROBE-SCOUT-BODY");
      expect(A.anthropicContextOf(child[0]!).toolNames).not.toContain("Agent");
      const writes = readJsonLinesFile(log).filter((c) => c.tool_name === "Write");
      expect(writes.length).toBe(2);
      for (const w of writes) {
        expect(w.agent_type).toBe("probe:scout");
        expect(typeof w.agent_id).toBe("string");
      }
      const main = fake
        .modelRequests()
        .map(A.anthropicContextOf)
        .filter((c) => !c.isSubagent)
        .at(-1)!;
      expect(main.hasToolResult("toolu_spawn")).toBe(true);
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describeHosts("Codex harness", hosts, ["codex"], () => {
  it("debug prompt-input lists the project skill and, with a catalog slug, the role", async () => {
    const s = await makeSandbox({ projectFrom: CODEX_PROJECT });
    writeCodexConfig(s.home, { trustedProject: s.project });
    const pi = await codexPromptInput(s.project, s.home, CATALOG_MODEL);
    expect(pi.exitCode, pi.stderr).toBe(0);
    const skill = pi.listedSkills().find((k) => k.name === "probe-skill");
    expect(skill?.file).toBe("r1/probe-skill/SKILL.md");
    expect(skill?.description).toContain("Codex skill discovery");
    const roles = pi.listedRoles();
    expect(roles.find((r) => r.name === "scout")?.description).toContain("Fixture role");
  });

  it("debug prompt-input shows no custom role in an untrusted project (near miss)", async () => {
    const s = await makeSandbox({ projectFrom: CODEX_PROJECT });
    writeCodexConfig(s.home, {});
    const pi = await codexPromptInput(s.project, s.home, CATALOG_MODEL);
    expect(pi.exitCode, pi.stderr).toBe(0);
    expect(pi.listedSkills().map((k) => k.name)).toContain("probe-skill");
    expect(pi.listedRoles().map((r) => r.name)).not.toContain("scout");
  });

  it("a project hook blocks a spawned role's shell write; the allow control succeeds", async () => {
    const s = await makeSandbox({ projectFrom: CODEX_PROJECT });
    const log = s.path("hooks.jsonl");
    writeFileSync(
      join(s.project, ".codex", "hooks.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: `node ${JSON.stringify(GUARD)}`, timeout: 30 }],
            },
          ],
        },
      }),
    );
    const ns = { namespace: "multi_agent_v1" };
    const fake = await R.startFakeResponses((_req, ctx) => {
      if (ctx.isSubagent) {
        if (!ctx.hasToolResult("call_child_blocked")) {
          return R.functionCall("call_child_blocked", "exec_command", { cmd: "touch blocked.txt" });
        }
        if (!ctx.hasToolResult("call_child_allowed")) {
          return R.functionCall("call_child_allowed", "exec_command", { cmd: "touch allowed.txt" });
        }
        return R.text("scout done");
      }
      if (!ctx.hasToolResult("call_spawn")) {
        return R.functionCall(
          "call_spawn",
          "spawn_agent",
          { agent_type: "scout", message: "touch the files" },
          ns,
        );
      }
      if (!ctx.hasToolResult("call_wait")) {
        const { agent_id } = JSON.parse(ctx.toolResult("call_spawn")!) as { agent_id: string };
        return R.functionCall("call_wait", "wait_agent", { targets: [agent_id] }, ns);
      }
      return R.text("parent done");
    });
    try {
      const run = await runCodex({
        prompt: "delegate to scout",
        fake,
        sandbox: s,
        env: { E2E_HOOK_LOG: log },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.errors.some((e) => e.includes("Ignoring malformed agent role"))).toBe(false);
      expect(existsSync(join(s.project, "blocked.txt"))).toBe(false);
      expect(existsSync(join(s.project, "allowed.txt"))).toBe(true);
      const children = fake
        .modelRequests()
        .map(R.responsesContextOf)
        .filter((c) => c.isSubagent);
      expect(children.length).toBeGreaterThan(0);
      const childCtx = children.at(-1)!;
      expect(childCtx.toolNames.some((t) => t.startsWith("multi_agent_v1."))).toBe(false);
      expect(childCtx.developer).toContain("PROBE-SCOUT-INSTRUCTIONS");
      expect(childCtx.toolResult("call_child_blocked")).toContain("Command blocked by PreToolUse hook");
      expect(childCtx.toolResult("call_child_allowed")).toContain("Process exited with code 0");
      const shell = readJsonLinesFile(log).filter((c) => c.tool_name === "Bash");
      expect(shell.length).toBe(2);
      for (const c of shell) {
        expect(c.agent_type).toBe("scout");
        expect(typeof c.agent_id).toBe("string");
      }
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});
