/**
 * End-to-end guard suite against the pinned real hosts (Claude Code 2.1.328, Codex CLI 0.169.0): each scenario
 * is a fresh git project with the adapters rendered by `devrites generate --target <project>`, active packets
 * made by `devrites packet new` inside it, and a scripted fake model whose main turn spawns a devrites role and
 * whose child turn makes the tool call. The real hook bundles (`.devrites/hooks/*.mjs`) and the real guard
 * decide. Every block is asserted from the file system, the tool result the model saw (the deny names the
 * devrites rule) and the host's own record (Claude's `permission_denials`, the hook input log), and has an
 * allow control in the same run.
 *
 * Skips with the reason when a host is unavailable (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure). Needs the
 * built CLI (`npm test` builds first).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";
import type { Role } from "../../src/envelope/roles.js";
import * as A from "./harness/fake-anthropic.js";
import * as R from "./harness/fake-responses.js";
import { ensureHosts } from "./harness/install.js";
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
 * A fresh project: `git init`, `src/a.ts` committed, the adapters for `host` generated into it, and one active
 * packet per spec made with the CLI.
 */
async function devritesProject(host: "claude" | "codex", packets: PacketSpec[]): Promise<Sandbox> {
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
}

/** Claude: the main turn spawns `role` (project `.claude/agents`); the child makes `steps` in order. */
function claudeLeaf(role: Role, steps: Step[]): A.AnthropicScenario {
  return (_req, ctx) => {
    if (ctx.isSubagent) {
      const next = steps.find((s) => !ctx.hasToolResult(s.id));
      return next ? A.toolUse(next.id, next.tool, next.input) : A.text(`${role} done`);
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

async function driveClaude(s: Sandbox, role: Role, steps: Step[]): Promise<ClaudeOutcome> {
  const fake = await A.startFakeAnthropic(claudeLeaf(role, steps));
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
});
