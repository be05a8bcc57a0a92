/**
 * The user's own Claude Code permission rules still stop a devrites leaf's shell call, against the pinned real
 * Claude Code (2.1.328) and a scripted fake model. The hook rewrites a leaf's shell call to run in bubblewrap, and
 * Claude matches its rules against the rewritten command, which a rule written for the original no longer
 * matches; devrites' PreToolUse hook therefore matches them on the original first (src/hooks/user-rules.ts).
 *
 * Each scenario: a fresh git project with the Claude adapters generated into it, an active packet for the wright
 * whose allowlist holds `marker.txt` and `control.txt` (so the sandbox itself would let both writes through),
 * the user's rule `Bash(printf:*)` in a settings file, and a scripted wright that runs `printf marker > marker.txt`
 * and then a control (`touch` would not do: the sandbox removes an allowlisted file it created that stays empty).
 *
 * - deny rule in the project's `.claude/settings.json` → the marker is absent, the tool result names the rule
 *   and the file, Claude records the denial; the control runs sandboxed and its file lands.
 * - ask rule in `.claude/settings.local.json` → deny `guard.user-ask-rule` (no one can be asked for a leaf's call;
 *   `claude -p` refuses Claude's own ask rules too); the marker is absent; the control runs.
 * - the same deny rule passed with `--settings` (a file the hook cannot see) → the rewritten command runs and the
 *   marker lands: the documented gap, and the proof that Claude alone does not apply the rule after the rewrite.
 *
 * - Codex 0.169.0: the same project ask rule denies the wright's call there too (answering `ask` would not do:
 *   Codex ran the original command unsandboxed on a hook's `ask`); and a Codex execpolicy `forbidden` rule stops
 *   the root's command but not the wright's rewritten one — the gap documented in docs/guard-policy.md.
 *
 * Skips with the reason when Claude Code or bubblewrap is unavailable (`DEVRITES_REQUIRE_HOSTS=1` makes a missing
 * host a failure). Needs the built CLI and bundles (`npm test` builds first).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { ensureHosts } from "./harness/install.js";
import { installPackage } from "./harness/package-install.js";
import { type ClaudeRun, permissionDenials, runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import { cleanupAllSandboxes, killAllHostProcesses, makeSandbox, type Sandbox } from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "bin", "devrites.js");
const WRIGHT = "devrites-slice-wright";
const BWRAP = existsSync("/usr/bin/bwrap");

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

/** A fresh project with the Claude adapters and one active wright packet allowed `marker.txt`, `control.txt`. */
async function wrightProject(): Promise<Sandbox> {
  const s = await makeSandbox();
  const git = (args: string[]) =>
    execa("git", ["-c", "user.email=e2e@devrites.test", "-c", "user.name=e2e", ...args], {
      cwd: s.project,
      stdin: "ignore",
    });
  writeFileSync(join(s.project, "README.md"), "e2e\n");
  await git(["add", "."]);
  await git(["commit", "-qm", "init"]);
  installPackage(s.project);
  await devrites(s.project, ["generate", "--host", "claude", "--target", s.project]);
  await devrites(s.project, [
    "packet",
    "new",
    "--role",
    WRIGHT,
    "--rite",
    "rite-build",
    "--objective",
    "e2e: user rules",
    "--allow",
    "marker.txt",
    "--allow",
    "control.txt",
  ]);
  return s;
}

/** Add `permissions` to a settings file of the project (the generated `.claude/settings.json` holds the hooks). */
function addPermissions(file: string, permissions: Record<string, string[]>): void {
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(file, `${JSON.stringify({ ...current, permissions }, null, 2)}\n`);
}

const STEPS = [
  { id: "toolu_marker", command: "printf marker > marker.txt" },
  { id: "toolu_control", command: "echo control > control.txt" },
];

interface Outcome {
  run: ClaudeRun;
  child: A.AnthropicContext;
}

/** The main turn spawns the wright in the foreground; the child runs `STEPS` in order. */
async function driveWright(s: Sandbox, extraArgs: string[] = []): Promise<Outcome> {
  const fake = await A.startFakeAnthropic((_req, ctx) => {
    if (ctx.isSubagent) {
      const next = STEPS.find((st) => !ctx.hasToolResult(st.id));
      return next ? A.toolUse(next.id, "Bash", { command: next.command }) : A.text("wright done");
    }
    if (!ctx.hasToolResult("toolu_spawn")) {
      return A.toolUse("toolu_spawn", "Agent", {
        description: "run the wright",
        prompt: "Do the scripted steps.",
        subagent_type: WRIGHT,
        run_in_background: false,
      });
    }
    return A.text("main done");
  });
  try {
    const run = await runClaude({
      prompt: "delegate",
      fake,
      sandbox: s,
      allowedTools: ["Bash", "Agent", "Read"],
      extraArgs,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(fake.failures).toEqual([]);
    const children = fake
      .modelRequests()
      .map(A.anthropicContextOf)
      .filter((c) => c.isSubagent);
    expect(children.length).toBeGreaterThan(0);
    return { run, child: children.at(-1)! };
  } finally {
    await fake.close();
  }
}

function ledgerDecisions(project: string): Record<string, unknown>[] {
  const runs = join(project, ".devrites", "runs");
  return readdirSync(runs).flatMap((id) =>
    readFileSync(join(runs, id, "events.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> })
      .filter((e) => e.type === "guard.decision")
      .map((e) => e.data),
  );
}

/** The control ran inside the sandbox: its file landed and the ledger says which sandbox. */
function expectControlRanSandboxed(s: Sandbox, o: Outcome): void {
  const r = o.child.toolResultBlock("toolu_control");
  expect(r?.isError, r?.text).toBe(false);
  expect(readFileSync(join(s.project, "control.txt"), "utf8")).toBe("control\n");
  expect(ledgerDecisions(s.project)).toContainEqual(
    expect.objectContaining({ tool: "Bash", decision: "allow", sandbox: "bwrap" }),
  );
}

describeHosts(
  "user rules: Claude Code's own permission rules on a sandboxed leaf call",
  hosts,
  ["claude"],
  () => {
    it.runIf(BWRAP)(
      "a deny rule in .claude/settings.json stops the wright's printf; the result names the rule; the control runs",
      async () => {
        const s = await wrightProject();
        const file = join(s.project, ".claude", "settings.json");
        addPermissions(file, { deny: ["Bash(printf:*)"] });
        const o = await driveWright(s);
        expect(existsSync(join(s.project, "marker.txt"))).toBe(false);
        const r = o.child.toolResultBlock("toolu_marker");
        expect(r?.isError).toBe(true);
        expect(r?.text).toContain("devrites guard denied this call [guard.user-deny-rule]");
        expect(r?.text).toContain('"Bash(printf:*)" (deny)');
        expect(r?.text).toContain(file);
        expect(permissionDenials(o.run).map((d) => d.tool_use_id)).toContain("toolu_marker");
        expect(ledgerDecisions(s.project)).toContainEqual(
          expect.objectContaining({ tool: "Bash", decision: "deny", rule: "guard.user-deny-rule" }),
        );
        expectControlRanSandboxed(s, o);
      },
    );

    it.runIf(BWRAP)(
      "an ask rule in .claude/settings.local.json is a deny for a leaf [guard.user-ask-rule]; the control runs",
      async () => {
        const s = await wrightProject();
        addPermissions(join(s.project, ".claude", "settings.local.json"), { ask: ["Bash(printf:*)"] });
        const o = await driveWright(s);
        expect(existsSync(join(s.project, "marker.txt"))).toBe(false);
        const r = o.child.toolResultBlock("toolu_marker");
        expect(r?.isError).toBe(true);
        expect(r?.text).toContain("devrites guard denied this call [guard.user-ask-rule]");
        expect(r?.text).toContain('"Bash(printf:*)" (ask)');
        expect(r?.text).toContain(".claude/settings.local.json");
        expect(permissionDenials(o.run).map((d) => d.tool_use_id)).toContain("toolu_marker");
        expectControlRanSandboxed(s, o);
      },
    );

    it.runIf(BWRAP)(
      "the same deny rule given with --settings (invisible to a hook) does not match the rewritten command: the printf runs",
      async () => {
        const s = await wrightProject();
        const flagFile = s.path("flag-settings.json");
        writeFileSync(flagFile, JSON.stringify({ permissions: { deny: ["Bash(printf:*)"] } }));
        const o = await driveWright(s, ["--settings", flagFile]);
        expect(o.child.toolResultBlock("toolu_marker")?.isError).toBe(false);
        expect(existsSync(join(s.project, "marker.txt"))).toBe(true);
        expect(permissionDenials(o.run)).toEqual([]);
        expectControlRanSandboxed(s, o);
      },
    );
  },
);

/** A fresh project with the Codex adapters and one active wright packet allowed `marker.txt`. */
async function codexWrightProject(): Promise<Sandbox> {
  const s = await makeSandbox();
  const git = (args: string[]) =>
    execa("git", ["-c", "user.email=e2e@devrites.test", "-c", "user.name=e2e", ...args], {
      cwd: s.project,
      stdin: "ignore",
    });
  writeFileSync(join(s.project, "README.md"), "e2e\n");
  await git(["add", "."]);
  await git(["commit", "-qm", "init"]);
  installPackage(s.project);
  await devrites(s.project, ["generate", "--host", "codex", "--target", s.project]);
  await devrites(s.project, [
    "packet",
    "new",
    "--role",
    WRIGHT,
    "--rite",
    "rite-build",
    "--objective",
    "e2e: codex rules",
    "--allow",
    "marker.txt",
  ]);
  // the user's own Codex execpolicy rule
  mkdirSync(join(s.home, ".codex", "rules"), { recursive: true });
  writeFileSync(
    join(s.home, ".codex", "rules", "default.rules"),
    'prefix_rule(pattern = ["printf"], decision = "forbidden")\n',
  );
  return s;
}

describeHosts("user rules: Codex's own execpolicy rules and a sandboxed leaf call", hosts, ["codex"], () => {
  it.runIf(BWRAP)(
    "a forbidden prefix_rule stops the root's printf, but not the wright's printf after the rewrite (the gap)",
    async () => {
      const s = await codexWrightProject();
      const ns = { namespace: "multi_agent_v1" };
      const fake = await R.startFakeResponses((_req, ctx) => {
        if (ctx.isSubagent) {
          return ctx.hasToolResult("call_leaf")
            ? R.text("wright done")
            : R.functionCall("call_leaf", "exec_command", { cmd: "printf leaf > marker.txt" });
        }
        if (!ctx.hasToolResult("call_root")) {
          return R.functionCall("call_root", "exec_command", { cmd: "printf root-ran" });
        }
        if (!ctx.hasToolResult("call_spawn")) {
          return R.functionCall(
            "call_spawn",
            "spawn_agent",
            { agent_type: WRIGHT, message: "Do the steps." },
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
        const run = await runCodex({ prompt: "go", fake, sandbox: s, sandboxMode: "danger-full-access" });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(fake.failures).toEqual([]);
        const contexts = fake.modelRequests().map(R.responsesContextOf);
        const root = contexts.filter((c) => !c.isSubagent).at(-1)!;
        const child = contexts.filter((c) => c.isSubagent).at(-1)!;
        // control: Codex applies the rule to the command it sees (the root's is not rewritten)
        expect(root.toolResult("call_root")).toContain(
          "rejected: policy forbids commands starting with `printf`",
        );
        // the leaf's command reaches Codex rewritten (bwrap …), which the prefix rule does not match: it runs
        expect(child.toolResult("call_leaf")).toContain("Process exited with code 0");
        expect(readFileSync(join(s.project, "marker.txt"), "utf8")).toBe("leaf");
      } finally {
        await fake.close();
      }
    },
  );
});

describeHosts("user rules: Claude Code rules on a Codex leaf call", hosts, ["codex"], () => {
  it.runIf(BWRAP)(
    "a project ask rule denies the wright's call [guard.user-ask-rule]: neither file is written",
    async () => {
      const s = await codexWrightProject();
      mkdirSync(join(s.project, ".claude"), { recursive: true });
      addPermissions(join(s.project, ".claude", "settings.local.json"), { ask: ["Bash(printf:*)"] });
      // the node write is off the allowlist: only an unsandboxed run could make other.txt
      const cmd = `printf leaf > marker.txt; node -e "require('fs').writeFileSync('other.txt','x')"`;
      const ns = { namespace: "multi_agent_v1" };
      const fake = await R.startFakeResponses((_req, ctx) => {
        if (ctx.isSubagent) {
          return ctx.hasToolResult("call_leaf")
            ? R.text("wright done")
            : R.functionCall("call_leaf", "exec_command", { cmd });
        }
        if (!ctx.hasToolResult("call_spawn")) {
          return R.functionCall(
            "call_spawn",
            "spawn_agent",
            { agent_type: WRIGHT, message: "Do the steps." },
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
        const run = await runCodex({ prompt: "go", fake, sandbox: s, sandboxMode: "danger-full-access" });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(fake.failures).toEqual([]);
        const child = fake
          .modelRequests()
          .map(R.responsesContextOf)
          .filter((c) => c.isSubagent)
          .at(-1)!;
        expect(child.toolResult("call_leaf")).toContain(
          "devrites guard denied this call [guard.user-ask-rule]",
        );
        expect(existsSync(join(s.project, "marker.txt"))).toBe(false);
        expect(existsSync(join(s.project, "other.txt"))).toBe(false);
      } finally {
        await fake.close();
      }
    },
  );
});
