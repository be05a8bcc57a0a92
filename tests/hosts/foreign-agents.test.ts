/**
 * The hosts' own agents in a repository with devrites installed the way a user installs it (`devrites init` in a
 * fresh git repository), against the pinned real hosts (Claude Code 2.1.328, Codex CLI 0.169.0) and a scripted fake
 * model: the main turn spawns the host's own read-only agent (Claude `Explore` through the Agent tool, Codex
 * `explorer` through `spawn_agent`), whose turn makes the tool calls; the real hook bundles decide.
 *
 * - With no devrites run active, the foreign agent reads a file and runs read-only shell commands: both succeed,
 *   no hook says anything, nothing is recorded in `.devrites/`.
 * - With a run active (a packet made by `devrites packet new`), its shell write is absent from the tree and the tool
 *   result says why, naming the run; its read still works; the run's ledger holds nothing of it.
 * - A devrites leaf still cannot spawn (another agent CLI through the shell is `guard.spawn`).
 *
 * Codex sandboxes its own shell calls with bubblewrap when `bwrap` is installed, and then fails when its HOME lies
 * under the system temp directory (`execvp codex-linux-sandbox`): this suite makes its scratch folders under the
 * repository's `.host-cache/` (git-ignored) instead, and tells the hosts `TMPDIR=/tmp`.
 *
 * Skips with the reason when a host is unavailable (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure). Needs the
 * built CLI and bundles (`npm test` builds first).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { ensureHosts } from "./harness/install.js";
import { installPackage } from "./harness/package-install.js";
import { permissionDenials, runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import {
  cleanupAllSandboxes,
  killAllHostProcesses,
  makeSandbox,
  readJsonLinesFile,
  type Sandbox,
} from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "bin", "devrites.js");
const A_TS = "export const a = 1;\n";
const SCOUT = "devrites-evidence-scout";
/** Scratch root outside the system temp directory (see the header); `.host-cache/` is git-ignored. */
const SCRATCH = join(ROOT, ".host-cache", "tmp");

const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  mkdirSync(SCRATCH, { recursive: true });
  process.env.TMPDIR = SCRATCH; // makeSandbox creates under os.tmpdir()
});
const hosts = await ensureHosts();
afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

async function devrites(cwd: string, args: string[]): Promise<string> {
  const r = await execa("node", [CLI, ...args], { cwd, reject: false, stdin: "ignore" });
  expect(r.exitCode, `devrites ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** A fresh git repository with `src/a.ts` committed and devrites installed by `devrites init`; optionally a run. */
async function installedProject(
  host: "claude" | "codex",
  run: boolean,
): Promise<{ s: Sandbox; runId?: string }> {
  const s = await makeSandbox();
  const git = (args: string[]) =>
    execa("git", ["-c", "user.email=e2e@devrites.test", "-c", "user.name=e2e", ...args], {
      cwd: s.project,
      stdin: "ignore",
    });
  mkdirSync(join(s.project, "src"), { recursive: true });
  writeFileSync(join(s.project, "src", "a.ts"), A_TS);
  await git(["add", "."]);
  await git(["commit", "-qm", "init"]);
  installPackage(s.project);
  await devrites(s.project, ["init", "--host", host]);
  await git(["add", "."]);
  await git(["commit", "-qm", "devrites init"]);
  if (!run) return { s };
  const out = await devrites(s.project, [
    "packet",
    "new",
    "--role",
    SCOUT,
    "--rite",
    "rite-build",
    "--objective",
    "e2e: a run is active",
    "--json",
  ]);
  const runId = (JSON.parse(out) as { data: { run_id: string } }).data.run_id;
  expect(runId).toMatch(/^run-/);
  return { s, runId };
}

/** Every ledger line of every run, and the run folders there are. */
function ledgers(s: Sandbox): { runs: string[]; events: Record<string, unknown>[] } {
  const dir = join(s.project, ".devrites", "runs");
  const runs = existsSync(dir) ? readdirSync(dir) : [];
  const events = runs.flatMap((r) => {
    const f = join(dir, r, "events.jsonl");
    return existsSync(f) ? readJsonLinesFile(f) : [];
  });
  return { runs, events };
}

/** The inputs the hosts gave the devrites hook `hook`, from `DEVRITES_HOOK_LOG`. */
const hookInputs = (log: string, hook: string) =>
  existsSync(log)
    ? readJsonLinesFile(log)
        .filter((l) => l.hook === hook)
        .map((l) => JSON.parse(String(l.stdin)) as Record<string, unknown>)
    : [];

/** Whether a SubagentStop block reached the child: it comes back as a prompt to "end again with" its result. */
function stopBlocked(requests: { body?: unknown }[]): boolean {
  return requests.some((r) =>
    JSON.stringify(r.body ?? "")
      .toLowerCase()
      .includes("end again with"),
  );
}

interface Step {
  id: string;
  tool: string;
  input: Record<string, unknown>;
}

/** Claude: the main turn spawns `agentType` with the Agent tool, in the foreground; the child makes `steps`. */
async function driveClaude(s: Sandbox, agentType: string, steps: Step[]) {
  const fake = await A.startFakeAnthropic((_req, ctx) => {
    if (ctx.isSubagent) {
      const next = steps.find((st) => !ctx.hasToolResult(st.id));
      return next ? A.toolUse(next.id, next.tool, next.input) : A.text("child done");
    }
    if (!ctx.hasToolResult("toolu_spawn")) {
      return A.toolUse("toolu_spawn", "Agent", {
        description: "look around",
        prompt: "Do the scripted steps.",
        subagent_type: agentType,
        run_in_background: false,
      });
    }
    return A.text("main done");
  });
  try {
    const log = s.path("hook-log.jsonl");
    const run = await runClaude({
      prompt: "look around",
      fake,
      sandbox: s,
      allowedTools: ["Read", "Bash", "Agent", "Write"],
      env: { DEVRITES_HOOK_LOG: log, TMPDIR: "/tmp" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(fake.failures).toEqual([]);
    const children = fake
      .modelRequests()
      .map(A.anthropicContextOf)
      .filter((c) => c.isSubagent);
    expect(children.length).toBeGreaterThan(0);
    return {
      run,
      stopBlocked: stopBlocked(fake.modelRequests()),
      child: children.at(-1)!,
      hooks: hookInputs(log, "pre-tool-use"),
      stops: hookInputs(log, "subagent-stop"),
    };
  } finally {
    await fake.close();
  }
}

describeHosts(
  "foreign agents: Claude Code's Explore in a devrites project (devrites init)",
  hosts,
  ["claude"],
  () => {
    it("with no run active, Explore reads and runs read-only shell commands untouched; nothing is recorded", async () => {
      const { s } = await installedProject("claude", false);
      const o = await driveClaude(s, "Explore", [
        { id: "toolu_read", tool: "Read", input: { file_path: join(s.project, "src", "a.ts") } },
        { id: "toolu_ls", tool: "Bash", input: { command: "ls src && grep -n const src/a.ts" } },
      ]);
      for (const id of ["toolu_read", "toolu_ls"]) {
        const r = o.child.toolResultBlock(id);
        expect(r, id).toBeDefined();
        expect(r?.isError, r?.text).toBe(false);
        expect(r?.text).not.toContain("devrites");
      }
      expect(o.child.toolResult("toolu_read")).toContain("export const a = 1;");
      expect(o.child.toolResult("toolu_ls")).toContain("a.ts");
      expect(o.child.toolResult("toolu_ls")).toContain("1:export const a = 1;");
      expect(permissionDenials(o.run)).toEqual([]);
      // the guard saw the calls as Explore's (so this is the path under test), and recorded nothing
      const seen = o.hooks.filter((c) => c.agent_type !== undefined);
      expect(seen.map((c) => [c.tool_name, c.agent_type])).toEqual([
        ["Read", "Explore"],
        ["Bash", "Explore"],
      ]);
      expect(ledgers(s)).toEqual({ runs: [], events: [] });
      expect(o.stops.length).toBe(1); // SubagentStop ran for it, and did nothing
      expect(o.stopBlocked).toBe(false);
    });

    it("with a run active, Explore's shell write does not happen and the result names the run; its read works", async () => {
      const { s, runId } = await installedProject("claude", true);
      const o = await driveClaude(s, "Explore", [
        { id: "toolu_write", tool: "Bash", input: { command: "echo x > notes.txt" } },
        { id: "toolu_read", tool: "Read", input: { file_path: join(s.project, "src", "a.ts") } },
      ]);
      expect(existsSync(join(s.project, "notes.txt"))).toBe(false);
      const w = o.child.toolResultBlock("toolu_write");
      expect(w?.isError).toBe(true);
      expect(w?.text).toContain("devrites guard denied this call [guard.foreign-write-during-run]");
      expect(w?.text).toContain(runId!);
      expect(w?.text).toContain(`devrites result check .devrites/runs/${runId}/result.json`);
      expect(permissionDenials(o.run).map((d) => d.tool_use_id)).toEqual(["toolu_write"]);
      const r = o.child.toolResultBlock("toolu_read");
      expect(r?.isError, r?.text).toBe(false);
      expect(r?.text).toContain("export const a = 1;");
      // SubagentStop ran for Explore and neither blocked it nor recorded anything: the run's ledger holds its own
      // packet.created only, and the run is still active
      expect(o.stops.map((x) => x.agent_type)).toEqual(["Explore"]);
      expect(o.stopBlocked).toBe(false);
      expect(ledgers(s).events.map((e) => e.type)).toEqual(["packet.created"]);
      expect(readFileSync(join(s.project, ".devrites", "state.json"), "utf8")).toContain(runId!);
    });

    it("a devrites leaf still cannot spawn: another agent CLI through its shell is denied [guard.spawn]", async () => {
      const { s, runId } = await installedProject("claude", true);
      const o = await driveClaude(s, SCOUT, [
        { id: "toolu_spawn_cli", tool: "Bash", input: { command: "claude -p 'write notes.md'" } },
        { id: "toolu_ls", tool: "Bash", input: { command: "ls src" } },
      ]);
      expect(o.child.toolResult("toolu_spawn_cli")).toContain(
        "devrites guard denied this call [guard.spawn]",
      );
      expect(o.child.toolResultBlock("toolu_ls")?.isError).toBe(false);
      expect(o.child.toolNames).not.toContain("Agent");
      // the positive control of the stop checks above: a devrites leaf ending without its result is blocked once
      expect(o.stopBlocked).toBe(true);
      const decisions = ledgers(s).events.filter((e) => e.type === "guard.decision");
      expect(decisions.map((e) => [e.run_id, (e.data as { decision: string }).decision])).toEqual([
        [runId, "deny"],
        [runId, "allow"],
      ]);
    });
  },
);

/** Codex: the main turn spawns `agentType` (`multi_agent_v1`) and waits; the child makes `steps`. */
async function driveCodex(s: Sandbox, agentType: string, steps: Step[]) {
  const ns = { namespace: "multi_agent_v1" };
  const fake = await R.startFakeResponses((_req, ctx) => {
    if (ctx.isSubagent) {
      const next = steps.find((st) => !ctx.hasToolResult(st.id));
      return next ? R.functionCall(next.id, next.tool, next.input) : R.text("child done");
    }
    if (!ctx.hasToolResult("call_spawn")) {
      return R.functionCall(
        "call_spawn",
        "spawn_agent",
        { agent_type: agentType, message: "Do the steps." },
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
    const log = s.path("hook-log.jsonl");
    const run = await runCodex({
      prompt: "look around",
      fake,
      sandbox: s,
      env: { DEVRITES_HOOK_LOG: log, TMPDIR: "/tmp" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(fake.failures).toEqual([]);
    const children = fake
      .modelRequests()
      .map(R.responsesContextOf)
      .filter((c) => c.isSubagent);
    expect(children.length).toBeGreaterThan(0);
    return {
      run,
      stopBlocked: stopBlocked(fake.modelRequests()),
      child: children.at(-1)!,
      hooks: hookInputs(log, "pre-tool-use"),
      stops: hookInputs(log, "subagent-stop"),
    };
  } finally {
    await fake.close();
  }
}

describeHosts(
  "foreign agents: Codex's explorer in a devrites project (devrites init)",
  hosts,
  ["codex"],
  () => {
    it("with no run active, explorer reads and runs read-only shell commands untouched; nothing is recorded", async () => {
      const { s } = await installedProject("codex", false);
      const o = await driveCodex(s, "explorer", [
        { id: "call_cat", tool: "exec_command", input: { cmd: "cat src/a.ts" } },
        { id: "call_ls", tool: "exec_command", input: { cmd: "ls src && grep -n const src/a.ts" } },
      ]);
      for (const id of ["call_cat", "call_ls"]) {
        const out = o.child.toolResult(id) ?? "";
        expect(out, id).toContain("Process exited with code 0");
        expect(out).not.toContain("PreToolUse hook");
        expect(out).not.toContain("devrites");
      }
      expect(o.child.toolResult("call_cat")).toContain("export const a = 1;");
      expect(o.child.toolResult("call_ls")).toContain("1:export const a = 1;");
      const seen = o.hooks.filter((c) => c.agent_type !== undefined && c.tool_name === "Bash");
      expect(seen.map((c) => c.agent_type)).toEqual(["explorer", "explorer"]);
      expect(ledgers(s)).toEqual({ runs: [], events: [] });
      expect(o.stops.length).toBe(1); // SubagentStop ran for it, and did nothing
      expect(o.stopBlocked).toBe(false);
    });

    it("with a run active, explorer's shell write does not happen and the result names the run; cat works", async () => {
      const { s, runId } = await installedProject("codex", true);
      const o = await driveCodex(s, "explorer", [
        { id: "call_write", tool: "exec_command", input: { cmd: "echo x > notes.txt" } },
        { id: "call_cat", tool: "exec_command", input: { cmd: "cat src/a.ts" } },
      ]);
      expect(existsSync(join(s.project, "notes.txt"))).toBe(false);
      const w = o.child.toolResult("call_write") ?? "";
      expect(w).toContain("Command blocked by PreToolUse hook");
      expect(w).toContain("devrites guard denied this call [guard.foreign-write-during-run]");
      expect(w).toContain(runId!);
      expect(o.child.toolResult("call_cat")).toContain("export const a = 1;");
      expect(o.stops.map((x) => x.agent_type)).toEqual(["explorer"]);
      expect(o.stopBlocked).toBe(false);
      expect(ledgers(s).events.map((e) => e.type)).toEqual(["packet.created"]);
      expect(readFileSync(join(s.project, ".devrites", "state.json"), "utf8")).toContain(runId!);
    });

    it("a devrites leaf still cannot spawn: another agent CLI through its shell is denied [guard.spawn]", async () => {
      const { s } = await installedProject("codex", true);
      const o = await driveCodex(s, SCOUT, [
        { id: "call_spawn_cli", tool: "exec_command", input: { cmd: "codex exec 'write notes.md'" } },
        { id: "call_ls", tool: "exec_command", input: { cmd: "ls src" } },
      ]);
      expect(o.child.toolResult("call_spawn_cli")).toContain("devrites guard denied this call [guard.spawn]");
      // the positive control of the stop checks above: a devrites leaf ending without its result is blocked once
      expect(o.stopBlocked).toBe(true);
      expect(o.child.toolResult("call_ls")).toContain("a.ts");
      expect(o.child.toolNames.some((t) => t.startsWith("multi_agent_v1"))).toBe(false);
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS);
    });
  },
);
