/**
 * A user's repository, installed the way the README says (`npm i -D <the packed package>` then
 * `npx devrites init`), driven in the pinned real hosts by a scripted model that follows the installed rite
 * text literally: it reads the `rite` skill as the host shows it (Claude: the Skill tool; Codex: the SKILL.md
 * path listed in its prompt), takes the first devrites command out of it and runs it in the host's own shell.
 * That command must work (Codex runs it in a login shell, which resets PATH), and the control, a bare
 * `devrites status`, must not (a project install puts nothing on PATH) — so the pass is the launcher's.
 *
 * Skips with the reason when a host is unavailable (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure). Packs
 * the package with `npm pack` (its `prepare` compiles the CLI) and installs its runtime dependencies from the
 * npm cache or registry.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { ensureHosts } from "./harness/install.js";
import { claudeEnv, runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import {
  baseEnv,
  cleanupAllSandboxes,
  killAllHostProcesses,
  makeSandbox,
  runProcess,
  type Sandbox,
} from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const hosts = await ensureHosts();
let packDir: string | undefined;
let tarball: string | undefined;

beforeAll(async () => {
  if (!hosts.claude && !hosts.codex) return;
  packDir = mkdtempSync(join(tmpdir(), "devrites-pack-"));
  const r = await execa("npm", ["pack", "--pack-destination", packDir, "--silent"], {
    cwd: ROOT,
    stdin: "ignore",
    reject: false,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const name = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  expect(name).toBeDefined();
  tarball = join(packDir, name!);
}, 180_000);

afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
  if (packDir) rmSync(packDir, { recursive: true, force: true });
});

/** A user's repository: `package.json`, `npm i -D <tarball>`, `npx devrites init --host <host>`. */
async function userRepo(host: "claude" | "codex" | "none"): Promise<Sandbox> {
  const s = await makeSandbox();
  writeFileSync(join(s.project, "package.json"), '{ "name": "app", "version": "1.0.0", "private": true }\n');
  mkdirSync(join(s.project, "src"));
  writeFileSync(join(s.project, "src", "a.ts"), "export const a = 1;\n");
  const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false" };
  const i = await execa("npm", ["i", "-D", tarball!, "--prefer-offline"], {
    cwd: s.project,
    env,
    stdin: "ignore",
    reject: false,
  });
  expect(i.exitCode, i.stderr).toBe(0);
  const init = await execa("npx", ["--no-install", "devrites", "init", "--host", host], {
    cwd: s.project,
    env,
    stdin: "ignore",
    reject: false,
  });
  expect(init.exitCode, `${init.stdout}\n${init.stderr}`).toBe(0);
  return s;
}

/** The first devrites command in a rite's text, exactly as written in a code span. */
function firstCommand(text: string): string | undefined {
  return /`(\.devrites\/bin\/devrites [a-z][^`]*)`/.exec(text)?.[1];
}

describeHosts(
  "install path (a), project install from the packed package: Claude Code",
  hosts,
  ["claude"],
  () => {
    it("the installed rite's first CLI call runs in Claude's Bash tool; a bare `devrites` does not", async () => {
      const s = await userRepo("claude");
      let command: string | undefined;
      const fake = await A.startFakeAnthropic((req, ctx) => {
        if (!ctx.hasToolResult("toolu_skill")) return A.toolUse("toolu_skill", "Skill", { skill: "rite" });
        if (!ctx.hasToolResult("toolu_cli")) {
          // The Skill tool answers "Launching skill: rite"; the host then shows the skill's text in the conversation.
          command = firstCommand(JSON.stringify(req.body.messages));
          return command ? A.toolUse("toolu_cli", "Bash", { command }) : A.text("no command in the rite");
        }
        if (!ctx.hasToolResult("toolu_bare"))
          return A.toolUse("toolu_bare", "Bash", { command: "devrites status" });
        return A.text("done");
      });
      try {
        const run = await runClaude({ prompt: "/rite", fake, sandbox: s, allowedTools: ["Skill", "Bash"] });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(fake.failures).toEqual([]);
        expect(command).toBe(".devrites/bin/devrites status");
        const last = A.anthropicContextOf(fake.modelRequests().at(-1)!);
        const cli = last.toolResultBlock("toolu_cli");
        expect(cli?.isError, cli?.text).toBe(false);
        expect(cli?.text).toContain("active runs: none");
        expect(cli?.text).toContain("next:");
        const bare = last.toolResultBlock("toolu_bare");
        expect(bare?.isError).toBe(true);
        expect(bare?.text).toMatch(/devrites: (command )?not found|exit code 127/);
      } finally {
        await fake.close();
      }
    });
  },
);

describeHosts("install path (a), project install from the packed package: Codex", hosts, ["codex"], () => {
  it("the installed rite's first CLI call runs in Codex's login shell; a bare `devrites` does not", async () => {
    const s = await userRepo("codex");
    let skillFile: string | undefined;
    let command: string | undefined;
    const fake = await R.startFakeResponses((req, ctx) => {
      if (!ctx.hasToolResult("call_skill")) {
        // The skill's file as Codex lists it to the model.
        skillFile = /[^\s"<>]*\.agents\/skills\/rite\/SKILL\.md/.exec(JSON.stringify(req.body.input))?.[0];
        return skillFile
          ? R.functionCall("call_skill", "exec_command", { cmd: `cat ${skillFile}` })
          : R.text("no rite skill listed");
      }
      if (!ctx.hasToolResult("call_cli")) {
        command = firstCommand(ctx.toolResult("call_skill") ?? "");
        return command ? R.functionCall("call_cli", "exec_command", { cmd: command }) : R.text("no command");
      }
      if (!ctx.hasToolResult("call_bare"))
        return R.functionCall("call_bare", "exec_command", { cmd: "devrites status" });
      return R.text("done");
    });
    try {
      // Codex refuses to create its sandbox helper (codex-linux-sandbox) under its temp directory, and with
      // bubblewrap installed every shell call then fails: give Codex a TMPDIR that does not hold the sandbox.
      const run = await runCodex({
        prompt: "$rite",
        fake,
        sandbox: s,
        env: { TMPDIR: tmpdir() === "/tmp" ? "/var/tmp" : "/tmp" },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(fake.failures).toEqual([]);
      expect(skillFile).toBeDefined();
      expect(command).toBe(".devrites/bin/devrites status");
      const last = R.responsesContextOf(fake.modelRequests().at(-1)!);
      const cli = last.toolResult("call_cli") ?? "";
      expect(cli).toContain("Process exited with code 0");
      expect(cli).toContain("active runs: none");
      const bare = last.toolResult("call_bare") ?? "";
      expect(bare).toContain("Process exited with code 127");
    } finally {
      await fake.close();
    }
  });
});

/** The first command the plugin's rite text names: its own CLI, by the absolute path Claude substituted. */
function firstPluginCommand(text: string): string | undefined {
  return /`(\/[^`\s]*\/bin\/devrites [a-z][^`]*)`/.exec(text)?.[1];
}

describeHosts(
  "install path (b), the Claude Code plugin from its marketplace, no npm install: Claude Code",
  hosts,
  ["claude"],
  () => {
    it("the plugin's rite runs the CLI the plugin carries: no launcher, no node_modules in the repository", async () => {
      const s = await makeSandbox();
      writeFileSync(join(s.project, "a.ts"), "export const a = 1;\n");
      const env = claudeEnv(s.home, "http://127.0.0.1:9");
      const add = await runProcess(hosts.claude!.bin, ["plugin", "marketplace", "add", ROOT], {
        cwd: s.project,
        env,
      });
      expect(add.exitCode, add.stderr).toBe(0);
      const install = await runProcess(hosts.claude!.bin, ["plugin", "install", "devrites@devrites"], {
        cwd: s.project,
        env,
      });
      expect(install.exitCode, install.stderr).toBe(0);
      let command: string | undefined;
      let cli: string | undefined;
      const fake = await A.startFakeAnthropic((req, ctx) => {
        if (!ctx.hasToolResult("toolu_skill"))
          return A.toolUse("toolu_skill", "Skill", { skill: "devrites:rite" });
        if (!ctx.hasToolResult("toolu_cli")) {
          // the rite's text as the host showed it, `${CLAUDE_PLUGIN_ROOT}` already substituted
          command = firstPluginCommand(JSON.stringify(req.body.messages));
          cli = command?.slice(0, command.indexOf(" "));
          return command ? A.toolUse("toolu_cli", "Bash", { command }) : A.text("no command in the rite");
        }
        // a rite's first writing call, then status must show it
        if (!ctx.hasToolResult("toolu_start"))
          return A.toolUse("toolu_start", "Bash", { command: `${cli} rite start rite-quick` });
        if (!ctx.hasToolResult("toolu_status"))
          return A.toolUse("toolu_status", "Bash", { command: `${cli} status` });
        // the plugin's bin/ is on the Bash tool's PATH too, after everything else
        if (!ctx.hasToolResult("toolu_which"))
          return A.toolUse("toolu_which", "Bash", { command: "command -v devrites" });
        return A.text("done");
      });
      try {
        const run = await runClaude({
          prompt: "/devrites:rite",
          fake,
          sandbox: s,
          allowedTools: ["Skill", "Bash"],
        });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(fake.failures).toEqual([]);
        expect((run.init?.skills as string[] | undefined) ?? []).toContain("devrites:rite");
        expect(command).toMatch(/^\/\S+\/bin\/devrites status$/);
        expect(command).not.toContain("CLAUDE_PLUGIN_ROOT");
        const last = A.anthropicContextOf(fake.modelRequests().at(-1)!);
        const first = last.toolResultBlock("toolu_cli");
        expect(first?.isError, first?.text).toBe(false);
        expect(first?.text).toContain("active runs: none");
        const start = last.toolResultBlock("toolu_start");
        expect(start?.isError, start?.text).toBe(false);
        expect(start?.text).toContain("active rite: rite-quick");
        const status = last.toolResultBlock("toolu_status");
        expect(status?.text).toContain("rite: rite-quick, phase quick");
        expect(last.toolResultBlock("toolu_which")?.text.trim()).toBe(cli);
        // the pass is the plugin's: the repository has no launcher and no package
        expect(existsSync(join(s.project, ".devrites", "bin"))).toBe(false);
        expect(existsSync(join(s.project, "node_modules"))).toBe(false);
        expect(JSON.parse(readFileSync(join(s.project, ".devrites", "state.json"), "utf8")).active_rite).toBe(
          "rite-quick",
        );
      } finally {
        await fake.close();
      }
    });
  },
);

describeHosts("install path (c), the Codex plugin from its marketplace: Codex", hosts, ["codex"], () => {
  it("the plugin's rite runs its first CLI call through the launcher `init --host none` wrote; it has no roles to dispatch", async () => {
    const s = await userRepo("none");
    const env = baseEnv(s.home, { FAKE_API_KEY: "dummy" });
    const add = await runProcess(hosts.codex!.bin, ["plugin", "marketplace", "add", ROOT], {
      cwd: s.project,
      env,
    });
    expect(add.exitCode, add.stderr).toBe(0);
    const install = await runProcess(hosts.codex!.bin, ["plugin", "add", "devrites@devrites"], {
      cwd: s.project,
      env,
    });
    expect(install.exitCode, install.stderr).toBe(0);
    const config = readFileSync(join(s.home, ".codex", "config.toml"), "utf8");
    let skillFile: string | undefined;
    let command: string | undefined;
    const fake = await R.startFakeResponses((req, ctx) => {
      if (!ctx.hasToolResult("call_skill")) {
        skillFile = /[^\s"<>()]*\/skills\/rite\/SKILL\.md/.exec(JSON.stringify(req.body.input))?.[0];
        return skillFile
          ? R.functionCall("call_skill", "exec_command", { cmd: `cat ${skillFile}` })
          : R.text("no rite skill listed");
      }
      if (!ctx.hasToolResult("call_cli")) {
        command = firstCommand(ctx.toolResult("call_skill") ?? "");
        return command ? R.functionCall("call_cli", "exec_command", { cmd: command }) : R.text("no command");
      }
      // what the README says: a Codex plugin carries no agents, so a rite's leaf cannot be dispatched
      if (!ctx.hasToolResult("call_spawn"))
        return R.functionCall(
          "call_spawn",
          "spawn_agent",
          { agent_type: "devrites-evidence-scout", message: "Packet: x" },
          { namespace: "multi_agent_v1" },
        );
      return R.text("done");
    });
    try {
      const run = await runCodex({
        prompt: "$devrites:rite",
        fake,
        sandbox: s,
        extraToml: config,
        env: { TMPDIR: tmpdir() === "/tmp" ? "/var/tmp" : "/tmp" },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(fake.failures).toEqual([]);
      expect(skillFile).toContain("/.codex/plugins/cache/devrites/");
      expect(command).toBe(".devrites/bin/devrites status");
      const cli = R.responsesContextOf(fake.modelRequests().at(-1)!).toolResult("call_cli") ?? "";
      expect(cli).toContain("Process exited with code 0");
      expect(cli).toContain("active runs: none");
      const spawned = R.responsesContextOf(fake.modelRequests().at(-1)!).toolResult("call_spawn") ?? "";
      expect(spawned).toContain("unknown agent_type 'devrites-evidence-scout'");
    } finally {
      await fake.close();
    }
  });
});
