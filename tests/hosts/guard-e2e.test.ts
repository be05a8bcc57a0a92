/**
 * End-to-end guard suite against the pinned real hosts (Claude Code 2.1.328, Codex CLI 0.169.0): each scenario
 * is a fresh git project with the adapters rendered by `devrites generate --target <project>`, active packets
 * made by `devrites packet new` inside it, and a scripted fake model whose main turn spawns a devrites role and
 * whose child turn makes the tool call. The real hook bundles (`.devrites/hooks/*.cjs`) and the real guard
 * decide. Every block is asserted from the file system, the tool result the model saw (the deny names the
 * devrites rule) and the host's own record (Claude's `permission_denials`, the hook input log), and has an
 * allow control in the same run.
 *
 * Skips with the reason when a host is unavailable (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure). Needs the
 * built CLI (`npm test` builds first).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { sampleResult } from "../../src/envelope/fixtures.js";
import { ROLES, type RoleName as Role } from "../../src/envelope/roles.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { snapshot } from "../helpers/sandbox.js";
import { ensureHosts } from "./harness/install.js";
import { installPackage } from "./harness/package-install.js";
import { type ClaudeRun, permissionDenials, runClaude } from "./harness/run-claude.js";
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

const hosts = await ensureHosts();
afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
});

async function devrites(cwd: string, args: string[]): Promise<string> {
  const r = await execa("node", [CLI, ...args], { cwd, reject: false, stdin: "ignore" });
  expect(r.exitCode, `devrites ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

interface PacketSpec {
  role: Role;
  allow?: string[];
}

/**
 * A fresh project: `git init`, `src/a.ts` committed, the package installed (`installPackage`), the adapters
 * for `host` generated into it, and one active packet per spec made with the CLI.
 */
async function devritesProject(
  host: "claude" | "codex",
  packets: PacketSpec[],
  opts: { installed?: boolean } = {},
): Promise<Sandbox> {
  const s = await makeSandbox();
  const git = (args: string[]) =>
    execa("git", ["-c", "user.email=e2e@devrites.test", "-c", "user.name=e2e", ...args], {
      cwd: s.project,
      stdin: "ignore",
    });
  await execa("mkdir", ["-p", join(s.project, "src")]);
  writeFileSync(join(s.project, "src", "a.ts"), A_TS);
  await git(["add", "."]);
  await git(["commit", "-qm", "init"]);
  if (opts.installed !== false) installPackage(s.project);
  await devrites(s.project, ["generate", "--host", host, "--target", s.project]);
  for (const p of packets) {
    await devrites(s.project, [
      "packet",
      "new",
      "--role",
      p.role,
      "--rite",
      "rite-build",
      "--objective",
      `e2e ${p.role}`,
      ...(p.allow ?? []).flatMap((a) => ["--allow", a]),
    ]);
  }
  return s;
}

interface Step {
  id: string;
  tool: string;
  input: Record<string, unknown>;
  /** Run once, just before the fake model asks for this call (the leaf's earlier calls are done). */
  before?: () => void;
}

/** Claude: the main turn spawns `role` (project `.claude/agents`); the child makes `steps` in order. */
function claudeLeaf(role: Role, steps: Step[], final?: string): A.AnthropicScenario {
  const fired = new Set<string>();
  return (_req, ctx) => {
    if (ctx.isSubagent) {
      const next = steps.find((s) => !ctx.hasToolResult(s.id));
      if (next?.before && !fired.has(next.id)) {
        fired.add(next.id);
        next.before();
      }
      return next ? A.toolUse(next.id, next.tool, next.input) : A.text(final ?? `${role} done`);
    }
    if (!ctx.hasToolResult("toolu_spawn")) {
      return A.toolUse("toolu_spawn", "Agent", {
        description: `run ${role}`,
        prompt: "Do the scripted steps.",
        subagent_type: role,
        run_in_background: false,
      });
    }
    return A.text("main done");
  };
}

interface ClaudeOutcome {
  run: ClaudeRun;
  /** The last child request (it holds every child tool result). */
  child: A.AnthropicContext;
  childRequests: A.AnthropicContext[];
  hookCalls: Record<string, unknown>[];
}

async function driveClaude(s: Sandbox, role: Role, steps: Step[], final?: string): Promise<ClaudeOutcome> {
  const fake = await A.startFakeAnthropic(claudeLeaf(role, steps, final));
  try {
    const log = s.path("hook-log.jsonl");
    const run = await runClaude({
      prompt: "delegate",
      fake,
      sandbox: s,
      allowedTools: ["Write", "Edit", "Bash", "Agent", "Read"],
      env: { DEVRITES_HOOK_LOG: log },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(fake.failures).toEqual([]);
    const childRequests = fake
      .modelRequests()
      .map(A.anthropicContextOf)
      .filter((c) => c.isSubagent);
    expect(childRequests.length).toBeGreaterThan(0);
    const hookCalls = readJsonLinesFile(log)
      .filter((l) => l.hook === "pre-tool-use")
      .map((l) => JSON.parse(String(l.stdin)) as Record<string, unknown>);
    return { run, child: childRequests.at(-1)!, childRequests, hookCalls };
  } finally {
    await fake.close();
  }
}

/** The child saw a deny for `id` naming `rule`; Claude recorded it in `permission_denials`. */
function expectClaudeDenied(o: ClaudeOutcome, id: string, rule: string): void {
  const r = o.child.toolResultBlock(id);
  expect(r, `no tool result for ${id}`).toBeDefined();
  expect(r?.isError).toBe(true);
  expect(r?.text).toContain(`devrites guard denied this call [${rule}]`);
  expect(permissionDenials(o.run).map((d) => d.tool_use_id)).toContain(id);
}

function expectClaudeAllowed(o: ClaudeOutcome, id: string): void {
  const r = o.child.toolResultBlock(id);
  expect(r, `no tool result for ${id}`).toBeDefined();
  expect(r?.isError, r?.text).toBe(false);
  expect(permissionDenials(o.run).map((d) => d.tool_use_id)).not.toContain(id);
}

/** Drop the `tools:` line of a generated Claude agent, so the host offers the role every tool. */
function widenClaudeAgentTools(s: Sandbox, role: Role): void {
  const file = join(s.project, ".claude", "agents", `${role}.md`);
  const text = readFileSync(file, "utf8");
  expect(text).toMatch(/^tools: .*$/m);
  writeFileSync(file, text.replace(/^tools: .*\n/m, ""));
}

describeHosts("guard e2e: Claude Code with the generated project adapters", hosts, ["claude"], () => {
  it("a read-only role is not offered Write; a Write it makes anyway does not run", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
    const o = await driveClaude(s, "devrites-evidence-scout", [
      { id: "toolu_write", tool: "Write", input: { file_path: join(s.project, "notes.md"), content: "x\n" } },
      { id: "toolu_read", tool: "Read", input: { file_path: join(s.project, "src", "a.ts") } },
    ]);
    // First layer: the generated role's `tools:` line keeps write tools from the host's offer.
    expect(o.childRequests[0]!.toolNames).not.toContain("Write");
    expect(o.childRequests[0]!.toolNames).toContain("Bash");
    expect(existsSync(join(s.project, "notes.md"))).toBe(false);
    expect(o.child.toolResultBlock("toolu_write")).toMatchObject({ isError: true });
    expect(o.child.toolResult("toolu_write")).toContain("No such tool available: Write");
    expectClaudeAllowed(o, "toolu_read");
    expect(o.child.toolResult("toolu_read")).toContain("export const a = 1;");
  });

  it("a read-only role offered Write anyway (tools widened) is blocked by the guard [guard.readonly-write]", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
    widenClaudeAgentTools(s, "devrites-evidence-scout");
    const o = await driveClaude(s, "devrites-evidence-scout", [
      { id: "toolu_write", tool: "Write", input: { file_path: join(s.project, "notes.md"), content: "x\n" } },
      { id: "toolu_read", tool: "Read", input: { file_path: join(s.project, "src", "a.ts") } },
    ]);
    expect(o.childRequests[0]!.toolNames).toContain("Write");
    expect(existsSync(join(s.project, "notes.md"))).toBe(false);
    expectClaudeDenied(o, "toolu_write", "guard.readonly-write");
    expectClaudeAllowed(o, "toolu_read");
    expect(o.child.toolResult("toolu_read")).toContain("export const a = 1;");
    const write = o.hookCalls.find((c) => c.tool_name === "Write");
    expect(write?.agent_type).toBe("devrites-evidence-scout");
    expect(permissionDenials(o.run).map((d) => [d.tool_name, d.tool_use_id])).toEqual([
      ["Write", "toolu_write"],
    ]);
  });

  it("a read-only role's shell redirect write is blocked [guard.readonly-write]; a plain echo runs", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
    const o = await driveClaude(s, "devrites-evidence-scout", [
      { id: "toolu_redirect", tool: "Bash", input: { command: "echo x > out.txt" } },
      { id: "toolu_echo", tool: "Bash", input: { command: "echo scout-was-here" } },
    ]);
    expect(existsSync(join(s.project, "out.txt"))).toBe(false);
    expectClaudeDenied(o, "toolu_redirect", "guard.readonly-write");
    expectClaudeAllowed(o, "toolu_echo");
    expect(o.child.toolResult("toolu_echo")).toContain("scout-was-here");
    expect(permissionDenials(o.run).map((d) => [d.tool_name, d.tool_use_id])).toEqual([
      ["Bash", "toolu_redirect"],
    ]);
  });

  it("the wright's allowlisted writes succeed (Write and a shell append to src/a.ts)", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }]);
    const o = await driveClaude(s, "devrites-slice-wright", [
      {
        id: "toolu_write",
        tool: "Write",
        input: { file_path: join(s.project, "src", "a.ts"), content: "export const a = 2;\n" },
      },
      { id: "toolu_append", tool: "Bash", input: { command: "echo '// wright' >> src/a.ts" } },
    ]);
    expectClaudeAllowed(o, "toolu_write");
    expectClaudeAllowed(o, "toolu_append");
    expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe("export const a = 2;\n// wright\n");
    expect(permissionDenials(o.run)).toEqual([]);
    const writes = o.hookCalls.filter((c) => c.tool_name === "Write" || c.tool_name === "Bash");
    expect(writes.map((c) => c.agent_type)).toEqual(["devrites-slice-wright", "devrites-slice-wright"]);
  });

  it("the wright's writes outside the allowlist are blocked [guard.outside-allowlist]; src/a.ts is written", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }]);
    const o = await driveClaude(s, "devrites-slice-wright", [
      {
        id: "toolu_b",
        tool: "Write",
        input: { file_path: join(s.project, "src", "b.ts"), content: "export const b = 1;\n" },
      },
      { id: "toolu_c", tool: "Bash", input: { command: "echo x > src/c.ts" } },
      {
        id: "toolu_a",
        tool: "Write",
        input: { file_path: join(s.project, "src", "a.ts"), content: "export const a = 3;\n" },
      },
    ]);
    expect(existsSync(join(s.project, "src", "b.ts"))).toBe(false);
    expect(existsSync(join(s.project, "src", "c.ts"))).toBe(false);
    expectClaudeDenied(o, "toolu_b", "guard.outside-allowlist");
    expectClaudeDenied(o, "toolu_c", "guard.outside-allowlist");
    expectClaudeAllowed(o, "toolu_a");
    expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe("export const a = 3;\n");
    expect(permissionDenials(o.run).map((d) => [d.tool_name, d.tool_use_id])).toEqual([
      ["Write", "toolu_b"],
      ["Bash", "toolu_c"],
    ]);
  });

  it("a leaf cannot spawn: Agent is not offered to it, and a shell spawn is blocked [guard.spawn]", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
    const o = await driveClaude(s, "devrites-evidence-scout", [
      {
        id: "toolu_agent",
        tool: "Agent",
        input: {
          description: "grandchild",
          prompt: "go",
          subagent_type: "devrites-evidence-scout",
          run_in_background: false,
        },
      },
      { id: "toolu_shell_spawn", tool: "Bash", input: { command: "claude -p 'write notes.md'" } },
      { id: "toolu_ls", tool: "Bash", input: { command: "ls src" } },
    ]);
    // Claude Code does not offer subagents the Agent tool (depth one is the host's own rule), so the guard's
    // `guard.spawn` rule for Agent cannot be reached on this host: assert the tool is absent, that a call made
    // anyway is refused by the host before any hook, and that no second-level agent ever asked the model.
    for (const c of o.childRequests) expect(c.toolNames).not.toContain("Agent");
    expect(o.child.toolResultBlock("toolu_agent")).toMatchObject({ isError: true });
    expect(o.child.toolResult("toolu_agent")).toContain("No such tool available: Agent");
    expect(new Set(o.childRequests.map((c) => c.agentId)).size).toBe(1);
    expect(o.hookCalls.some((c) => c.tool_name === "Agent" && c.agent_type)).toBe(false);
    // The way that is offered, another agent CLI through Bash, is the guard's.
    expectClaudeDenied(o, "toolu_shell_spawn", "guard.spawn");
    expectClaudeAllowed(o, "toolu_ls");
    expect(o.child.toolResult("toolu_ls")).toContain("a.ts");
  });
});

/** Codex: the main turn spawns `role` (`multi_agent_v1`, slug `fake-model`) and waits; the child makes `steps`. */
function codexLeaf(role: Role, steps: Step[], final?: string): R.ResponsesScenario {
  const ns = { namespace: "multi_agent_v1" };
  const fired = new Set<string>();
  return (_req, ctx) => {
    if (ctx.isSubagent) {
      const next = steps.find((s) => !ctx.hasToolResult(s.id));
      if (next?.before && !fired.has(next.id)) {
        fired.add(next.id);
        next.before();
      }
      return next ? R.functionCall(next.id, next.tool, next.input) : R.text(final ?? `${role} done`);
    }
    if (!ctx.hasToolResult("call_spawn")) {
      return R.functionCall(
        "call_spawn",
        "spawn_agent",
        { agent_type: role, message: "Do the scripted steps." },
        ns,
      );
    }
    if (!ctx.hasToolResult("call_wait")) {
      const { agent_id } = JSON.parse(ctx.toolResult("call_spawn")!) as { agent_id: string };
      return R.functionCall("call_wait", "wait_agent", { targets: [agent_id] }, ns);
    }
    return R.text("parent done");
  };
}

async function driveCodex(
  s: Sandbox,
  role: Role,
  steps: Step[],
  opts: {
    sandboxMode?: "workspace-write" | "danger-full-access";
    env?: Record<string, string>;
    final?: string;
  } = {},
) {
  const fake = await R.startFakeResponses(codexLeaf(role, steps, opts.final));
  try {
    const log = s.path("hook-log.jsonl");
    const run = await runCodex({
      prompt: "delegate",
      fake,
      sandbox: s,
      env: { DEVRITES_HOOK_LOG: log, ...opts.env },
      ...(opts.sandboxMode ? { sandboxMode: opts.sandboxMode } : {}),
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.errors.some((e) => e.includes("Ignoring malformed agent role"))).toBe(false);
    expect(fake.failures).toEqual([]);
    const children = fake
      .modelRequests()
      .map(R.responsesContextOf)
      .filter((c) => c.isSubagent);
    expect(children.length).toBeGreaterThan(0);
    const hookCalls = readJsonLinesFile(log)
      .filter((l) => l.hook === "pre-tool-use")
      .map((l) => JSON.parse(String(l.stdin)) as Record<string, unknown>);
    return { run, child: children.at(-1)!, children, hookCalls };
  } finally {
    await fake.close();
  }
}

describeHosts("guard e2e: Codex with the generated project adapters", hosts, ["codex"], () => {
  it("a read-only role's shell write is blocked by .codex/hooks.json [guard.readonly-write]; ls runs (no devrites sandbox)", async () => {
    const s = await devritesProject("codex", [{ role: "devrites-evidence-scout" }]);
    // DEVRITES_SANDBOX=off: the classifier decides alone (Codex's own bwrap sandbox still runs the call, which
    // also proves the harness's HOME outside the temp folder lets Codex start its helper). With the devrites
    // sandbox on, the same host runs the call under Landlock: see "Codex inside its own sandbox" below.
    const o = await driveCodex(
      s,
      "devrites-evidence-scout",
      [
        { id: "call_touch", tool: "exec_command", input: { cmd: "touch blocked.txt" } },
        { id: "call_ls", tool: "exec_command", input: { cmd: "ls src" } },
      ],
      { env: { DEVRITES_SANDBOX: "off" } },
    );
    expect(existsSync(join(s.project, "blocked.txt"))).toBe(false);
    expect(o.child.toolResult("call_touch")).toContain("Command blocked by PreToolUse hook");
    expect(o.child.toolResult("call_touch")).toContain(
      "devrites guard denied this call [guard.readonly-write]",
    );
    expect(o.child.toolResult("call_ls")).toContain("Process exited with code 0");
    expect(o.child.toolResult("call_ls")).toContain("a.ts");
    // Codex offers no multi-agent tools to the child (depth one on this host too).
    for (const c of o.children) expect(c.toolNames.some((t) => t.startsWith("multi_agent_v1"))).toBe(false);
    const shell = o.hookCalls.filter((c) => c.agent_type !== undefined);
    expect(shell.map((c) => [c.tool_name, c.agent_type])).toEqual([
      ["Bash", "devrites-evidence-scout"],
      ["Bash", "devrites-evidence-scout"],
    ]);
  });

  it("the wright writes its allowlisted file; a write outside the allowlist is blocked [guard.outside-allowlist] (no devrites sandbox)", async () => {
    const s = await devritesProject("codex", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }]);
    const o = await driveCodex(
      s,
      "devrites-slice-wright",
      [
        { id: "call_b", tool: "exec_command", input: { cmd: "echo x > src/b.ts" } },
        { id: "call_a", tool: "exec_command", input: { cmd: "echo 'export const a = 4;' > src/a.ts" } },
      ],
      { env: { DEVRITES_SANDBOX: "off" } },
    );
    expect(existsSync(join(s.project, "src", "b.ts"))).toBe(false);
    expect(o.child.toolResult("call_b")).toContain(
      "devrites guard denied this call [guard.outside-allowlist]",
    );
    expect(o.child.toolResult("call_a")).toContain("Process exited with code 0");
    expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe("export const a = 4;\n");
  });
});

/** Every `guard.decision` event's data in the project's ledgers. */
function ledgerDecisions(project: string): Record<string, unknown>[] {
  const runs = join(project, ".devrites", "runs");
  const out: Record<string, unknown>[] = [];
  for (const id of existsSync(runs) ? readdirSync(runs) : []) {
    const f = join(runs, id, "events.jsonl");
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, "utf8").split("\n").filter(Boolean)) {
      const e = JSON.parse(line) as { type: string; data: Record<string, unknown> };
      if (e.type === "guard.decision") out.push(e.data);
    }
  }
  return out;
}

/** The work tree and `.git`, byte for byte, without the devrites workspace (the hooks write its ledger). */
function treeOf(project: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(project)).filter(([k]) => !k.startsWith(".devrites")));
}

/** A TCP listener on 127.0.0.1 that counts the connections it accepts. */
async function listener(): Promise<{ port: number; accepted: () => number; close: () => void }> {
  let n = 0;
  const server = createServer((c) => {
    n++;
    c.destroy();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => n,
    close: () => server.close(),
  };
}

const WRITE_X = `node -e "require('fs').writeFileSync('x','y')"`;
const NEIGHBOUR = `node -e "require('fs').writeFileSync('src/b.ts','n')"`;
const connect = (port: number) =>
  `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>console.log('connected')).on('error',e=>console.log('net-'+e.code))"`;
const PROOF_PACKAGE = JSON.stringify({
  scripts: {
    test: "mkdir -p node_modules/.cache coverage && echo c > node_modules/.cache/run && echo r > coverage/report.txt && echo proof-ran",
  },
});

describeHosts("sandbox e2e: Claude Code runs every leaf shell call in bubblewrap", hosts, ["claude"], () => {
  it("a read-only leaf's writing call that the classifier allows runs and fails read-only; the file is absent", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
    const before = treeOf(s.project);
    const o = await driveClaude(s, "devrites-evidence-scout", [
      { id: "toolu_w", tool: "Bash", input: { command: WRITE_X } },
    ]);
    expect(o.child.toolResult("toolu_w")).toContain("EROFS");
    expect(existsSync(join(s.project, "x"))).toBe(false);
    expect(treeOf(s.project)).toEqual(before);
    expect(ledgerDecisions(s.project)).toContainEqual(
      expect.objectContaining({ tool: "Bash", decision: "allow", sandbox: "bwrap" }),
    );
  });

  it("the wright's shell write to its allowlisted file lands; one to a neighbour fails read-only", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }]);
    const o = await driveClaude(s, "devrites-slice-wright", [
      { id: "toolu_a", tool: "Bash", input: { command: "echo '// sandboxed' >> src/a.ts" } },
      { id: "toolu_b", tool: "Bash", input: { command: NEIGHBOUR } },
    ]);
    expectClaudeAllowed(o, "toolu_a");
    expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(`${A_TS}// sandboxed\n`);
    expect(o.child.toolResult("toolu_b")).toContain("EROFS");
    expect(existsSync(join(s.project, "src", "b.ts"))).toBe(false);
  });

  it("the proof runner's npm test writes caches and reports copy-on-write: the tree stays byte-identical", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-proof-runner" }]);
    writeFileSync(join(s.project, "package.json"), PROOF_PACKAGE);
    const before = treeOf(s.project);
    const o = await driveClaude(s, "devrites-proof-runner", [
      { id: "toolu_t", tool: "Bash", input: { command: "npm test" } },
    ]);
    expect(o.child.toolResult("toolu_t")).toContain("proof-ran");
    expect(treeOf(s.project)).toEqual(before);
    expect(ledgerDecisions(s.project)).toContainEqual(
      expect.objectContaining({ decision: "allow", sandbox: "bwrap+overlay" }),
    );
  });

  it("a network attempt fails: the listener on 127.0.0.1 accepts nothing", async () => {
    const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
    const l = await listener();
    try {
      const o = await driveClaude(s, "devrites-evidence-scout", [
        { id: "toolu_n", tool: "Bash", input: { command: connect(l.port) } },
      ]);
      expect(o.child.toolResult("toolu_n")).toContain("net-ECONNREFUSED");
      expect(l.accepted()).toBe(0);
    } finally {
      l.close();
    }
  });
});

describeHosts(
  "sandbox e2e: Codex (its own sandbox off) runs every leaf shell call in bubblewrap",
  hosts,
  ["codex"],
  () => {
    const full = { sandboxMode: "danger-full-access" as const };

    it("a read-only leaf's writing call runs and fails read-only; the file is absent", async () => {
      const s = await devritesProject("codex", [{ role: "devrites-evidence-scout" }]);
      const before = treeOf(s.project);
      const o = await driveCodex(
        s,
        "devrites-evidence-scout",
        [{ id: "call_w", tool: "exec_command", input: { cmd: WRITE_X } }],
        full,
      );
      expect(o.child.toolResult("call_w")).toContain("EROFS");
      expect(existsSync(join(s.project, "x"))).toBe(false);
      expect(treeOf(s.project)).toEqual(before);
    });

    it("the wright's allowlisted write lands; a neighbour's fails", async () => {
      const s = await devritesProject("codex", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }]);
      const o = await driveCodex(
        s,
        "devrites-slice-wright",
        [
          { id: "call_a", tool: "exec_command", input: { cmd: "echo '// sandboxed' >> src/a.ts" } },
          { id: "call_b", tool: "exec_command", input: { cmd: NEIGHBOUR } },
        ],
        full,
      );
      expect(o.child.toolResult("call_a")).toContain("Process exited with code 0");
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(`${A_TS}// sandboxed\n`);
      expect(o.child.toolResult("call_b")).toContain("EROFS");
      expect(existsSync(join(s.project, "src", "b.ts"))).toBe(false);
    });

    it("the proof runner's npm test leaves the tree byte-identical; the network is unreachable", async () => {
      const s = await devritesProject("codex", [{ role: "devrites-proof-runner" }]);
      writeFileSync(join(s.project, "package.json"), PROOF_PACKAGE);
      const before = treeOf(s.project);
      const l = await listener();
      try {
        const o = await driveCodex(
          s,
          "devrites-proof-runner",
          [
            { id: "call_t", tool: "exec_command", input: { cmd: "npm test" } },
            { id: "call_n", tool: "exec_command", input: { cmd: connect(l.port) } },
          ],
          full,
        );
        expect(o.child.toolResult("call_t")).toContain("proof-ran");
        expect(o.child.toolResult("call_n")).toContain("net-ECONNREFUSED");
        expect(l.accepted()).toBe(0);
        expect(treeOf(s.project)).toEqual(before);
      } finally {
        l.close();
      }
    });
  },
);

describeHosts(
  "sandbox e2e: Codex inside its own workspace-write sandbox, where bubblewrap cannot start, runs leaf calls under Landlock",
  hosts,
  ["codex"],
  () => {
    // Codex's default sandbox (workspace-write) lets the command write the project; only devrites' Landlock
    // layer makes these writes fail. Its own sandbox also cuts the network, so no network test here (the
    // effect tests in src/sandbox/plan.landlock.effect.test.ts show --no-tcp).
    it("a read-only leaf's write fails with EACCES, the file is absent, the tree is identical; ls runs", async () => {
      const s = await devritesProject("codex", [{ role: "devrites-evidence-scout" }]);
      const before = treeOf(s.project);
      const o = await driveCodex(s, "devrites-evidence-scout", [
        { id: "call_w", tool: "exec_command", input: { cmd: WRITE_X } },
        { id: "call_ls", tool: "exec_command", input: { cmd: "ls src" } },
      ]);
      const w = o.child.toolResult("call_w") ?? "";
      expect(w).toContain("bubblewrap could not start here");
      expect(w).toContain("EACCES");
      expect(w).not.toContain("Process exited with code 126");
      expect(existsSync(join(s.project, "x"))).toBe(false);
      expect(treeOf(s.project)).toEqual(before);
      expect(o.child.toolResult("call_ls")).toContain("Process exited with code 0");
      expect(o.child.toolResult("call_ls")).toContain("a.ts");
      // the plan's mechanism is recorded (bubblewrap first; the fallback is the script's, shown on stderr)
      expect(ledgerDecisions(s.project)).toContainEqual(
        expect.objectContaining({ tool: "Bash", decision: "allow", sandbox: "bwrap" }),
      );
    });

    it("near miss: a project without the package installed has no helper: the call fails closed (exit 126)", async () => {
      const s = await devritesProject("codex", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }], {
        installed: false,
      });
      const o = await driveCodex(s, "devrites-slice-wright", [
        { id: "call_a", tool: "exec_command", input: { cmd: "echo 'export const a = 5;' > src/a.ts" } },
      ]);
      const r = o.child.toolResult("call_a") ?? "";
      expect(r).toContain("Process exited with code 126");
      expect(r).toContain("devrites sandbox: the sandbox could not start here");
      expect(r).not.toContain("Landlock");
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS);
    });

    it("the wright's allowlisted write lands; a neighbour's fails with EACCES and is absent", async () => {
      const s = await devritesProject("codex", [{ role: "devrites-slice-wright", allow: ["src/a.ts"] }]);
      const o = await driveCodex(s, "devrites-slice-wright", [
        { id: "call_a", tool: "exec_command", input: { cmd: "echo '// landlocked' >> src/a.ts" } },
        { id: "call_b", tool: "exec_command", input: { cmd: NEIGHBOUR } },
      ]);
      expect(o.child.toolResult("call_a")).toContain("Process exited with code 0");
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(`${A_TS}// landlocked\n`);
      expect(o.child.toolResult("call_b")).toContain("EACCES");
      expect(existsSync(join(s.project, "src", "b.ts"))).toBe(false);
    });
  },
);

/** The scout's valid agent-result/v1 for the project's one active run, and that run's id. */
function scoutResult(s: Sandbox): { runId: string; message: string } {
  const state = JSON.parse(readFileSync(join(s.project, ".devrites", "state.json"), "utf8")) as {
    active_runs: { run_id: string; packet_path: string }[];
  };
  const run = state.active_runs[0]!;
  const packet = JSON.parse(readFileSync(join(s.project, run.packet_path), "utf8")) as AgentPacket;
  const r = sampleResult(ROLES[packet.role].payload);
  r.run_id = packet.run_id;
  r.role = packet.role;
  r.baseline_id = packet.baseline.id;
  r.budget = { files_used: 1, loaded_lines_used: 10, ...packet.budgets };
  r.side_effects = { repo_writes: [], scratch_writes: [] };
  r.decisions_stood = [];
  return { runId: packet.run_id, message: JSON.stringify(r) };
}

/** The run's `result.checked` events (written by the SubagentStop hook's check). */
function checks(s: Sandbox, runId: string): { verdict: string; codes: string[]; guard_strength: string }[] {
  return readJsonLinesFile(join(s.project, ".devrites", "runs", runId, "events.jsonl"))
    .filter((e) => e.type === "result.checked")
    .map((e) => e.data as { verdict: string; codes: string[]; guard_strength: string });
}

/** Point the host's PreToolUse wiring at a tool that does not exist: the leaf's calls then run unhooked. */
function unhookPreToolUse(s: Sandbox, host: "claude" | "codex"): void {
  const file = join(s.project, host === "claude" ? ".claude/settings.json" : ".codex/hooks.json");
  const settings = JSON.parse(readFileSync(file, "utf8")) as {
    hooks: { PreToolUse: { matcher?: string }[] };
  };
  for (const group of settings.hooks.PreToolUse) group.matcher = "NoSuchTool";
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

describeHosts(
  "receipts: Claude Code, the leaf's transcript against the guard's receipts",
  hosts,
  ["claude"],
  () => {
    it("a normal run is accepted with every call receipted (sandboxed, not unverified)", async () => {
      const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
      const { runId, message } = scoutResult(s);
      await driveClaude(
        s,
        "devrites-evidence-scout",
        [{ id: "toolu_ls", tool: "Bash", input: { command: "ls src" } }],
        message,
      );
      expect(checks(s, runId)).toEqual([{ verdict: "accepted", codes: [], guard_strength: "sandboxed" }]);
    });

    it("calls Claude refuses itself (invalid input, an unknown tool) never ran and need no receipt", async () => {
      const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
      const { runId, message } = scoutResult(s);
      await driveClaude(
        s,
        "devrites-evidence-scout",
        [
          { id: "toolu_bad", tool: "Read", input: { nope: 1 } },
          { id: "toolu_none", tool: "NoSuchToolX", input: {} },
          { id: "toolu_ls", tool: "Bash", input: { command: "ls src" } },
        ],
        message,
      );
      expect(checks(s, runId)).toEqual([{ verdict: "accepted", codes: [], guard_strength: "sandboxed" }]);
    });

    it("hooks edited between two of the leaf's calls do not switch the hook off: Claude keeps the hooks it started with", async () => {
      const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
      const { runId, message } = scoutResult(s);
      const o = await driveClaude(
        s,
        "devrites-evidence-scout",
        [
          { id: "toolu_ls", tool: "Bash", input: { command: "ls src" } },
          {
            id: "toolu_ls2",
            tool: "Bash",
            input: { command: "ls -a src" },
            before: () => unhookPreToolUse(s, "claude"),
          },
        ],
        message,
      );
      // both calls decided and receipted; the edited settings file is a change to the tree the run froze
      const leafCalls = o.hookCalls
        .map((h) => String(h.tool_use_id))
        .filter((id) => id.startsWith("toolu_ls"));
      expect(leafCalls).toEqual(["toolu_ls", "toolu_ls2"]);
      expect(ledgerDecisions(s.project).map((d) => d.tool_use_id)).toEqual(["toolu_ls", "toolu_ls2"]);
      const c = checks(s, runId);
      expect(c[0]).toMatchObject({ verdict: "rejected", codes: ["result.stale"] });
    });

    it("a call the hook never saw (PreToolUse wired away) rejects the result, naming the call", async () => {
      const s = await devritesProject("claude", [{ role: "devrites-evidence-scout" }]);
      unhookPreToolUse(s, "claude");
      const { runId, message } = scoutResult(s);
      await driveClaude(
        s,
        "devrites-evidence-scout",
        [{ id: "toolu_ls", tool: "Bash", input: { command: "ls src" } }],
        message,
      );
      const c = checks(s, runId);
      expect(c.length).toBeGreaterThan(0);
      expect(c[0]?.verdict).toBe("rejected");
      // the wiring file changed after the packet was frozen, so the tree check also says result.stale
      expect(c[0]?.codes).toContain("result.unreceipted-call");
    });
  },
);

describeHosts("receipts: Codex, the leaf's rollout against the guard's receipts", hosts, ["codex"], () => {
  it("a normal run is accepted with every call receipted", async () => {
    const s = await devritesProject("codex", [{ role: "devrites-evidence-scout" }]);
    const { runId, message } = scoutResult(s);
    await driveCodex(
      s,
      "devrites-evidence-scout",
      [{ id: "call_ls", tool: "exec_command", input: { cmd: "ls src" } }],
      {
        final: message,
      },
    );
    const c = checks(s, runId);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ verdict: "accepted", codes: [] });
    expect(["sandboxed", "enforced"]).toContain(c[0]?.guard_strength);
  });

  it("hooks edited between two of the leaf's calls do not switch the hook off: Codex keeps the hooks it started with", async () => {
    const s = await devritesProject("codex", [{ role: "devrites-evidence-scout" }]);
    const { runId, message } = scoutResult(s);
    const o = await driveCodex(
      s,
      "devrites-evidence-scout",
      [
        { id: "call_ls", tool: "exec_command", input: { cmd: "ls src" } },
        {
          id: "call_ls2",
          tool: "exec_command",
          input: { cmd: "ls -a src" },
          before: () => unhookPreToolUse(s, "codex"),
        },
      ],
      { final: message },
    );
    const leafCalls = o.hookCalls.map((h) => String(h.tool_use_id)).filter((id) => id.startsWith("call_ls"));
    expect(leafCalls).toEqual(["call_ls", "call_ls2"]);
    expect(ledgerDecisions(s.project).map((d) => d.tool_use_id)).toEqual(["call_ls", "call_ls2"]);
    expect(checks(s, runId)[0]).toMatchObject({ verdict: "rejected", codes: ["result.stale"] });
  });

  it("a call the hook never saw (PreToolUse wired away) rejects the result, naming the call", async () => {
    const s = await devritesProject("codex", [{ role: "devrites-evidence-scout" }]);
    unhookPreToolUse(s, "codex");
    const { runId, message } = scoutResult(s);
    await driveCodex(
      s,
      "devrites-evidence-scout",
      [{ id: "call_ls", tool: "exec_command", input: { cmd: "ls src" } }],
      {
        final: message,
      },
    );
    const c = checks(s, runId);
    expect(c.length).toBeGreaterThan(0);
    expect(c[0]?.verdict).toBe("rejected");
    // the wiring file changed after the packet was frozen, so the tree check also says result.stale
    expect(c[0]?.codes).toContain("result.unreceipted-call");
  });
});
