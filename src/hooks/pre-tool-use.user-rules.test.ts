/**
 * The PreToolUse hook applies the user's own Claude Code `Bash(...)` rules to a leaf's shell call before it
 * rewrites it for the sandbox (Claude matches its rules on the rewritten command, where they no longer match):
 * a deny rule → deny `guard.user-deny-rule` naming the rule and file, recorded in the ledger; an ask rule → deny
 * `guard.user-ask-rule`; a broken settings file → deny `guard.user-rules-unreadable`. Where nothing is
 * rewritten (classified mode, the root session) Claude sees the original command and applies its rules itself.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decide } from "../guard/index.js";
import { readJsonLines, workspacePaths } from "../run/workspace.js";
import type { RunEvent } from "../run/workspace-types.js";
import type { MechanismChoice } from "../sandbox/mechanism.js";
import { claudeInput, makeInstalledRepo, type RunSpec, runId, type TestRepo } from "./fixtures.js";
import { handlePreToolUse } from "./pre-tool-use.js";
import type { StdinRead } from "./stdin.js";

const NOW = new Date("2026-11-29T23:00:00.000Z");
const WRIGHT = "devrites-slice-wright";
const BWRAP: MechanismChoice = {
  kind: "bwrap",
  bwrap: "/usr/bin/bwrap",
  unshare: "/usr/bin/unshare",
  bash: "/bin/bash",
};
const NONE: MechanismChoice = { kind: "none", why: "no bubblewrap here" };
const deps = (m: MechanismChoice) => ({ decide, now: () => NOW, sandbox: () => m });
const env = { env: {}, cwd: "/nonexistent-cwd" };
const ok = (v: unknown): StdinRead => ({ kind: "ok", bytes: Buffer.from(JSON.stringify(v)) });

let repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});
function repo(runs: RunSpec[], projectSettings?: string): TestRepo {
  const r = makeInstalledRepo(runs);
  repos.push(r);
  writeFileSync(join(r.root, "src", "a.ts"), "a\n");
  if (projectSettings !== undefined) {
    mkdirSync(join(r.root, ".claude"), { recursive: true });
    writeFileSync(join(r.root, ".claude", "settings.json"), projectSettings);
  }
  return r;
}
const rules = (deny: string[], ask: string[] = []) => JSON.stringify({ permissions: { deny, ask } });

function wrightBash(root: string, command: string, agent = true) {
  return claudeInput(root, {
    ...(agent ? { agent_id: "a1", agent_type: WRIGHT } : {}),
    tool_name: "Bash",
    tool_input: { command, description: "d" },
  });
}
const WRIGHT_RUN: RunSpec = { role: WRIGHT, run_id: runId(3), allowed_repo_writes: ["marker.txt"] };
const events = (root: string) =>
  readJsonLines<RunEvent>(join(root, workspacePaths.events(runId(3))), "events").values.map((e) => e.data);

describe("the user's own deny rules on a sandboxed leaf call", () => {
  it("a matching deny rule denies the original command, naming the rule and the file; the ledger says so", () => {
    const { root } = repo([WRIGHT_RUN], rules(["Bash(touch:*)"]));
    const a = handlePreToolUse(ok(wrightBash(root, "echo start && touch marker.txt")), env, deps(BWRAP));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain(
      "devrites guard denied this call [guard.user-deny-rule] devrites-slice-wright",
    );
    expect(a.stderr).toContain('"Bash(touch:*)" (deny)');
    expect(a.stderr).toContain(join(root, ".claude", "settings.json"));
    expect(a.stderr).toContain("matches `touch marker.txt`");
    const out = JSON.parse(a.stdout) as { hookSpecificOutput: { permissionDecision: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(events(root)).toEqual([
      {
        tool: "Bash",
        tool_use_id: "toolu_01",
        input_digest: expect.stringMatching(/^fnv1a64:[0-9a-f]{16}$/),
        decision: "deny",
        rule: "guard.user-deny-rule",
        input: "command",
        agent_id: "a1",
        agent_type: WRIGHT,
      },
    ]);
  });

  it("a command the rule does not match is rewritten and allowed as before", () => {
    const { root } = repo([WRIGHT_RUN], rules(["Bash(touch:*)"]));
    const a = handlePreToolUse(ok(wrightBash(root, "echo touch > marker.txt")), env, deps(BWRAP));
    expect(a.exitCode).toBe(0);
    const out = JSON.parse(a.stdout) as {
      hookSpecificOutput: { permissionDecision: string; updatedInput: { command: string } };
    };
    expect(out.hookSpecificOutput.permissionDecision).toBe("allow");
    expect(out.hookSpecificOutput.updatedInput.command).toContain("/usr/bin/bwrap");
    expect(events(root)).toEqual([expect.objectContaining({ decision: "allow", sandbox: "bwrap" })]);
  });

  it("an ask rule is a deny too [guard.user-ask-rule]: no one can be asked for a leaf's call", () => {
    const { root } = repo([WRIGHT_RUN], rules([], ["Bash(touch:*)"]));
    const a = handlePreToolUse(ok(wrightBash(root, "touch marker.txt")), env, deps(BWRAP));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.user-ask-rule] devrites-slice-wright");
    expect(a.stderr).toContain('"Bash(touch:*)" (ask)');
    expect(a.stdout).not.toContain("updatedInput");
    expect(events(root)).toEqual([
      expect.objectContaining({ decision: "deny", rule: "guard.user-ask-rule" }),
    ]);
    expect(handlePreToolUse(ok(wrightBash(root, "ls src")), env, deps(BWRAP)).exitCode).toBe(0);
  });

  it("a deny rule wins over an ask rule for the same command", () => {
    const { root } = repo([WRIGHT_RUN], rules(["Bash(touch marker.txt)"], ["Bash(touch:*)"]));
    const a = handlePreToolUse(ok(wrightBash(root, "touch marker.txt")), env, deps(BWRAP));
    expect(a.stderr).toContain("[guard.user-deny-rule]");
  });

  it("a malformed project settings file denies the leaf's shell call [guard.user-rules-unreadable]", () => {
    const { root } = repo([WRIGHT_RUN], '{"permissions": ');
    const a = handlePreToolUse(ok(wrightBash(root, "ls")), env, deps(BWRAP));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.user-rules-unreadable]");
    expect(a.stderr).toContain(join(root, ".claude", "settings.json"));
  });

  it("the user file comes from CLAUDE_CONFIG_DIR in the hook's environment", () => {
    const { root } = repo([WRIGHT_RUN]);
    const cfg = join(root, "cfg");
    mkdirSync(cfg);
    writeFileSync(join(cfg, "settings.json"), rules(["Bash(curl:*)"]));
    const e = { env: { CLAUDE_CONFIG_DIR: cfg }, cwd: root };
    expect(
      handlePreToolUse(ok(wrightBash(root, "curl -s http://127.0.0.1:9/")), e, deps(BWRAP)).stderr,
    ).toContain("[guard.user-deny-rule]");
    expect(handlePreToolUse(ok(wrightBash(root, "ls src")), e, deps(BWRAP)).exitCode).toBe(0);
  });

  it("without a rewrite (no sandbox, or the root session) the hook leaves the rules to Claude", () => {
    const { root } = repo([WRIGHT_RUN], rules(["Bash(touch:*)"]));
    const classified = handlePreToolUse(ok(wrightBash(root, "touch marker.txt")), env, deps(NONE));
    expect(classified).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    const rootSession = handlePreToolUse(ok(wrightBash(root, "touch marker.txt", false)), env, deps(BWRAP));
    expect(rootSession.exitCode).toBe(0);
    expect(rootSession.stdout).toBe("");
  });
});
