/**
 * The PreToolUse hook with the sandbox: a leaf's allowed shell call comes back as an `updatedInput` that runs
 * the original command sandboxed (every other field kept), the ledger says so, and running the rewritten
 * command the way the host would has the sandbox's effects. Without a mechanism the classifier decides alone.
 */

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { snapshot } from "../../tests/helpers/sandbox.js";
import { fnv1a64Hex } from "../core/fnv.js";
import { decide } from "../guard/index.js";
import { readJsonLines, workspacePaths } from "../run/workspace.js";
import type { RunEvent } from "../run/workspace-types.js";
import { landlockHelperPath, landlockSupported } from "../sandbox/landlock-helper.js";
import type { MechanismChoice } from "../sandbox/mechanism.js";
import {
  claudeInput,
  codexInput,
  makeInstalledRepo,
  type RunSpec,
  runId,
  type TestRepo,
} from "./fixtures.js";
import { handlePreToolUse } from "./pre-tool-use.js";
import { sandboxHere } from "./sandbox-call.js";
import type { StdinRead } from "./stdin.js";

const NOW = new Date("2026-11-29T23:00:00.000Z");
let repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});
function repo(runs: RunSpec[]): TestRepo {
  const r = makeInstalledRepo(runs);
  repos.push(r);
  writeFileSync(join(r.root, "src", "a.ts"), "a\n");
  return r;
}

const ok = (v: unknown): StdinRead => ({ kind: "ok", bytes: Buffer.from(JSON.stringify(v)) });
const env = { env: {}, cwd: "/nonexistent-cwd" };
const BWRAP: MechanismChoice = {
  kind: "bwrap",
  bwrap: "/usr/bin/bwrap",
  unshare: "/usr/bin/unshare",
  bash: "/bin/bash",
};
const NONE: MechanismChoice = { kind: "none", why: "no bubblewrap here" };
const deps = (m: MechanismChoice) => ({ decide, now: () => NOW, sandbox: () => m });

const SCOUT = "devrites-evidence-scout";
const WRIGHT = "devrites-slice-wright";

function events(root: string, id: string): RunEvent[] {
  return readJsonLines<RunEvent>(join(root, workspacePaths.events(id)), "events").values;
}

function scoutBash(root: string, command: string, extra: Record<string, unknown> = {}) {
  return claudeInput(root, {
    agent_id: "a1",
    agent_type: SCOUT,
    tool_name: "Bash",
    tool_input: { command, description: "d", timeout: 5000, ...extra },
  });
}

describe("a leaf's allowed shell call runs sandboxed", () => {
  it("answers exit 0 with allow and updatedInput: every field kept, the command replaced", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const a = handlePreToolUse(ok(scoutBash(root, "ls src", { run_in_background: false })), env, deps(BWRAP));
    expect(a.exitCode).toBe(0);
    const out = JSON.parse(a.stdout) as {
      hookSpecificOutput: {
        hookEventName: string;
        permissionDecision: string;
        updatedInput: Record<string, unknown>;
      };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(out.hookSpecificOutput.permissionDecision).toBe("allow");
    const u = out.hookSpecificOutput.updatedInput;
    expect(Object.keys(u).sort()).toEqual(["command", "description", "run_in_background", "timeout"]);
    expect(u).toMatchObject({ description: "d", timeout: 5000, run_in_background: false });
    expect(String(u.command)).toMatch(/^\/bin\/sh -c '\/usr\/bin\/bwrap /);
    expect(String(u.command)).toContain("'ls src'");
    // the receipt names the input as decided: the original command, not the rewritten one
    const decided = { command: "ls src", description: "d", timeout: 5000, run_in_background: false };
    expect(events(root, runId(1)).map((e) => e.data)).toEqual([
      {
        tool: "Bash",
        tool_use_id: "toolu_01",
        input_digest: `fnv1a64:${fnv1a64Hex(JSON.stringify(decided))}`,
        decision: "allow",
        sandbox: "bwrap",
        agent_id: "a1",
        agent_type: SCOUT,
      },
    ]);
  });

  it("keeps Codex's field names: `cmd`, `workdir` (the sandbox's cwd), and a word-list command", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const cmd = handlePreToolUse(
      ok(
        codexInput(root, {
          agent_id: "c1",
          agent_type: SCOUT,
          tool_name: "Bash",
          tool_input: { cmd: "ls", workdir: "src" },
        }),
      ),
      env,
      deps(BWRAP),
    );
    const u = JSON.parse(cmd.stdout).hookSpecificOutput.updatedInput;
    expect(u.workdir).toBe("src");
    expect(u.cmd).toContain(`--chdir ${join(root, "src")}`);
    const argv = handlePreToolUse(
      ok(
        codexInput(root, {
          agent_id: "c1",
          agent_type: SCOUT,
          tool_name: "shell",
          tool_input: { command: ["ls", "-la"] },
        }),
      ),
      env,
      deps(BWRAP),
    );
    const v = JSON.parse(argv.stdout).hookSpecificOutput.updatedInput.command;
    expect(v.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(v[2]).toContain("'ls -la'");
  });

  it("the proof runner's call is copy-on-write (bwrap+overlay in the ledger)", () => {
    const { root } = repo([{ role: "devrites-proof-runner", run_id: runId(2) }]);
    const a = handlePreToolUse(
      ok(
        claudeInput(root, {
          agent_id: "p",
          agent_type: "devrites-proof-runner",
          tool_name: "Bash",
          tool_input: { command: "npm test" },
        }),
      ),
      env,
      deps(BWRAP),
    );
    expect(JSON.parse(a.stdout).hookSpecificOutput.updatedInput.command).toContain("unshare");
    expect(events(root, runId(2))[0]?.data).toMatchObject({ decision: "allow", sandbox: "bwrap+overlay" });
  });

  it("leaves the root session's shell call untouched: no stdout at all", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const a = handlePreToolUse(
      ok(claudeInput(root, { tool_name: "Bash", tool_input: { command: "ls" } })),
      env,
      deps(BWRAP),
    );
    expect(a).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  it("leaves a leaf's non-shell calls untouched (Read: exit 0, no stdout)", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const a = handlePreToolUse(
      ok(
        claudeInput(root, {
          agent_id: "a1",
          agent_type: SCOUT,
          tool_name: "Read",
          tool_input: { file_path: join(root, "src/a.ts") },
        }),
      ),
      env,
      deps(BWRAP),
    );
    expect(a).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(events(root, runId(1))[0]?.data).not.toHaveProperty("sandbox");
  });
});

describe("what the front table still refuses with the sandbox, and what the classifier alone refuses without one", () => {
  const cases: [string, string, string | null][] = [
    // [command, rule without a sandbox, rule with one (null: allowed, sandboxed)]
    ["node build.js", "guard.shell-unclassified", null],
    [`node -e "require('fs').writeFileSync('x','y')"`, "guard.shell-unclassified", null],
    ["npm test", "guard.shell-unclassified", null],
    ["FOO_BAR=1 ls", "guard.shell-unclassified", null],
    ["echo x > /tmp/scratch.txt", "guard.readonly-write", null],
    ['echo x > "$f"', "guard.readonly-write", null],
    ["echo x > out.txt", "guard.readonly-write", "guard.readonly-write"],
    ["git commit -m x", "guard.git-mutation", "guard.git-mutation"],
    ["npm install left-pad", "guard.install", "guard.install"],
    ["npm publish", "guard.publish", "guard.publish"],
    ["claude -p hi", "guard.spawn", "guard.spawn"],
    ["devrites status", "guard.devrites-write", "guard.devrites-write"],
    ["sed -i s/a/b/ src/a.ts", "guard.readonly-write", "guard.in-place-edit"],
    ["env X=1 git push", "guard.shell-unclassified", "guard.git-mutation"],
    ["cp src/a.ts src/b.ts", "guard.readonly-write", "guard.readonly-write"],
    ["python3 -c 'print(1)'", "guard.shell-unclassified", null],
  ];
  for (const [command, without, withSandbox] of cases) {
    it(`scout \`${command}\`: ${without} classified, ${withSandbox ?? "allowed"} sandboxed`, () => {
      const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
      const classified = handlePreToolUse(ok(scoutBash(root, command)), env, deps(NONE));
      expect(classified.exitCode).toBe(2);
      expect(classified.stderr).toContain(`[${without}]`);
      const sandboxed = handlePreToolUse(ok(scoutBash(root, command)), env, deps(BWRAP));
      if (withSandbox === null) {
        expect(sandboxed.exitCode).toBe(0);
        expect(JSON.parse(sandboxed.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
      } else {
        expect(sandboxed.exitCode).toBe(2);
        expect(sandboxed.stderr).toContain(`[${withSandbox}]`);
      }
    });
  }

  it("a plain read stays allowed in classified mode, with no stdout and `sandbox: null` in the ledger", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    expect(handlePreToolUse(ok(scoutBash(root, "ls")), env, deps(NONE))).toEqual({
      exitCode: 0,
      stdout: "",
      stderr: "",
    });
    expect(events(root, runId(1))[0]?.data).toMatchObject({ decision: "allow", sandbox: null });
  });

  it("the wright's determinable write off its allowlist is still refused; an unknown target is the kernel's", () => {
    const { root } = repo([{ role: WRIGHT, run_id: runId(3), allowed_repo_writes: ["src/a.ts"] }]);
    const call = (command: string) =>
      handlePreToolUse(
        ok(
          claudeInput(root, {
            agent_id: "w",
            agent_type: WRIGHT,
            tool_name: "Bash",
            tool_input: { command },
          }),
        ),
        env,
        deps(BWRAP),
      );
    expect(call("echo x > src/b.ts").stderr).toContain("[guard.outside-allowlist]");
    expect(call('echo x > "$f"').exitCode).toBe(0);
    expect(call("echo x > src/a.ts").exitCode).toBe(0);
  });

  it("an allowlist entry the sandbox will not make writable refuses the shell call [guard.sandbox-refused]", () => {
    const { root } = repo([{ role: WRIGHT, run_id: runId(3), allowed_repo_writes: ["node_modules/.bin/x"] }]);
    const a = handlePreToolUse(
      ok(
        claudeInput(root, {
          agent_id: "w",
          agent_type: WRIGHT,
          tool_name: "Bash",
          tool_input: { command: "ls" },
        }),
      ),
      env,
      deps(BWRAP),
    );
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("[guard.sandbox-refused]");
    expect(a.stderr).toContain("node_modules");
    expect(events(root, runId(3))[0]?.data).toMatchObject({
      decision: "deny",
      rule: "guard.sandbox-refused",
    });
  });
});

const here = sandboxHere(process.env);
const dh = here.kind === "bwrap" ? describe : describe.skip;
dh("the rewritten command, run the way the host runs it (bash -c)", () => {
  it("a scout's allowed-but-writing node call fails read-only and the file stays absent", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const a = handlePreToolUse(
      ok(scoutBash(root, `node -e "require('fs').writeFileSync('x','y')"`)),
      env,
      deps(here),
    );
    const before = snapshot(root); // after the hook's own ledger append
    const command = JSON.parse(a.stdout).hookSpecificOutput.updatedInput.command as string;
    const r = spawnSync("/bin/bash", ["-c", command], { cwd: root, encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("EROFS");
    expect(existsSync(join(root, "x"))).toBe(false);
    expect(snapshot(root)).toEqual(before);
  });

  it("the wright's shell write lands on its allowlisted file and not on a neighbour", () => {
    const { root } = repo([{ role: WRIGHT, run_id: runId(3), allowed_repo_writes: ["src/a.ts"] }]);
    const a = handlePreToolUse(
      ok(
        claudeInput(root, {
          agent_id: "w",
          agent_type: WRIGHT,
          tool_name: "Bash",
          tool_input: { command: 'echo w > src/a.ts; f=src/b.ts; echo n > "$f"' },
        }),
      ),
      env,
      deps(here),
    );
    const command = JSON.parse(a.stdout).hookSpecificOutput.updatedInput.command as string;
    const r = spawnSync("/bin/bash", ["-c", command], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toContain("src/b.ts: Read-only file system");
    expect(readFileSync(join(root, "src/a.ts"), "utf8")).toBe("w\n");
    expect(existsSync(join(root, "src/b.ts"))).toBe(false);
  });
});

describe("a foreign agent's shell call during a run runs in the read-only sandbox", () => {
  const exploreBash = (root: string, command: string) =>
    claudeInput(root, {
      agent_id: "x1",
      agent_type: "Explore",
      tool_name: "Bash",
      tool_input: { command, description: "d" },
    });

  it("with a run active: rewritten into the read-only sandbox, nothing in the run's ledger", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const a = handlePreToolUse(ok(exploreBash(root, "node -e 1")), env, deps(BWRAP));
    expect(a.exitCode).toBe(0);
    const u = JSON.parse(a.stdout).hookSpecificOutput.updatedInput;
    expect(String(u.command)).toMatch(/^\/bin\/sh -c '\/usr\/bin\/bwrap /);
    // read-only: no writable bind of the repository, no copy-on-write layer
    expect(String(u.command)).not.toContain("--bind ");
    expect(String(u.command)).not.toContain("overlay");
    expect(events(root, runId(1))).toEqual([]);
  });

  it.skipIf(sandboxHere({ PATH: process.env.PATH }).kind !== "bwrap")(
    "the rewritten command fails to write the tree (by effect; needs bubblewrap)",
    () => {
      const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
      const before = snapshot(root);
      const a = handlePreToolUse(
        ok(exploreBash(root, "node -e \"require('fs').writeFileSync('x.txt','y')\"")),
        env,
        deps(sandboxHere({ PATH: process.env.PATH })),
      );
      const command = JSON.parse(a.stdout).hookSpecificOutput.updatedInput.command as string;
      const r = spawnSync("/bin/bash", ["-c", command], { cwd: root, encoding: "utf8" });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/EROFS|read-only file system/i);
      expect(existsSync(join(root, "x.txt"))).toBe(false);
      expect(snapshot(root)).toEqual(before);
    },
  );

  it("near-miss: no run active, the same call is untouched (exit 0, no stdout)", () => {
    const { root } = repo([]);
    const a = handlePreToolUse(ok(exploreBash(root, "node -e 1")), env, deps(BWRAP));
    expect(a).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  it("near-miss: with a run active but no sandbox here, the classifier alone decides (no rewrite)", () => {
    const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
    const a = handlePreToolUse(ok(exploreBash(root, "ls src")), env, deps(NONE));
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toBe("");
    const w = handlePreToolUse(ok(exploreBash(root, "echo x > out.txt")), env, deps(NONE));
    expect(w.exitCode).toBe(2);
    expect(w.stderr).toContain("[guard.foreign-write-during-run]");
  });
});

describe("Landlock: the helper as fallback or as the only mechanism", () => {
  const helper = landlockHelperPath(join(import.meta.dirname, "..", ".."));
  const dl = helper !== undefined && landlockSupported({ probeHelper: helper }) ? describe : describe.skip;

  dl("with the built helper", () => {
    it("alone: the rewritten call runs under it, the ledger says landlock, the scout's write fails EACCES", () => {
      const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
      const m: MechanismChoice = { kind: "landlock", landlock: helper as string, bash: "/bin/bash" };
      const a = handlePreToolUse(
        ok(scoutBash(root, `node -e "require('fs').writeFileSync('src/a.ts','x')"; ls src`)),
        env,
        deps(m),
      );
      const command = String(JSON.parse(a.stdout).hookSpecificOutput.updatedInput.command);
      expect(command).toContain(`${helper} --rw `);
      expect(command).not.toContain("bwrap");
      expect(events(root, runId(1)).map((e) => e.data)).toEqual([
        {
          tool: "Bash",
          tool_use_id: "toolu_01",
          input_digest: expect.stringMatching(/^fnv1a64:[0-9a-f]{16}$/),
          decision: "allow",
          sandbox: "landlock",
          agent_id: "a1",
          agent_type: SCOUT,
        },
      ]);
      const before = snapshot(root); // after the hook wrote its ledger
      const r = spawnSync("/bin/bash", ["-c", command], { cwd: root, encoding: "utf8" });
      expect(r.stderr).toContain("EACCES");
      expect(r.stdout).toContain("a.ts");
      expect(r.status).toBe(0);
      expect(snapshot(root)).toEqual(before);
    });

    it("with bubblewrap: bwrap in the ledger; the helper starts it (--plain), Landlock only in the start-failure branch", () => {
      const { root } = repo([{ role: SCOUT, run_id: runId(1) }]);
      const a = handlePreToolUse(
        ok(scoutBash(root, "ls")),
        env,
        deps({ ...BWRAP, landlock: helper as string }),
      );
      const command = String(JSON.parse(a.stdout).hookSpecificOutput.updatedInput.command);
      const [first, ...rest] = command.split("\n");
      expect(first?.startsWith(`/bin/sh -c '${helper} --plain `)).toBe(true);
      expect(first).toContain(" -- /usr/bin/bwrap ");
      expect(first).not.toContain(`${helper} --rw `);
      expect(command).toContain("bubblewrap could not start here");
      expect(rest.join("\n")).toContain(`${helper} --rw `);
      expect(events(root, runId(1)).map((e) => e.data)).toEqual([
        {
          tool: "Bash",
          tool_use_id: "toolu_01",
          input_digest: expect.stringMatching(/^fnv1a64:[0-9a-f]{16}$/),
          decision: "allow",
          sandbox: "bwrap",
          agent_id: "a1",
          agent_type: SCOUT,
        },
      ]);
    });
  });
});
