/**
 * The attack harness measures what it claims: each kind of effect is detected (and nothing when nothing
 * happened), the wright's scope is honoured, and the host's handling of a hook answer is modelled. The hook is
 * replaced by stand-ins here so that the harness, not the guard, is under test.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { landlockHelperPath } from "../../src/sandbox/landlock-helper.js";
import { mechanismHere } from "../helpers/sandbox.js";
import {
  type AttackCase,
  type AttackRole,
  createLab,
  DEVRITES_ROOT,
  type Host,
  hookWiring,
  interpretAnswer,
  type Lab,
  type ProcResult,
  runCase,
} from "./harness.js";

let lab: Lab;
beforeAll(async () => {
  lab = await createLab();
}, 120_000);
afterAll(async () => {
  await lab?.close();
});

/** A hook that allows everything without a rewrite. */
const ALLOW = "cat >/dev/null";
let n = 0;

async function effectsOf(
  command: string,
  extra: Partial<AttackCase> = {},
  role: AttackRole = "devrites-evidence-scout",
) {
  const c: AttackCase = {
    id: `self-${++n}`,
    class: "self-test",
    role,
    command,
    goal: "harness self-test",
    ...extra,
  };
  return runCase(lab, c, "claude", { hookCommand: ALLOW });
}

describe("the harness detects effects", () => {
  it("nothing, when the command changes nothing", async () => {
    const r = await effectsOf("cat README.md; git log --oneline -1 >/dev/null");
    expect(r.verdict).toBe("allow");
    expect(r.commandExit).toBe(0);
    expect(r.effects).toEqual([]);
  });

  it.each([
    ["content in .git", "echo x >> .git/config", /^repo: \.git\/config: content$/],
    [
      "a file in an ignored folder",
      "mkdir -p node_modules/x && : > node_modules/x/y",
      /^repo: node_modules\/x\/y: created file/,
    ],
    [
      "a file under .devrites",
      "echo '{}' > .devrites/runs/extra.json",
      /^repo: \.devrites\/runs\/extra\.json: created/,
    ],
    ["a mode", "chmod +x README.md", /^repo: README\.md: mode 644 -> 755$/],
    ["an mtime", "touch -d '2001-01-01' README.md", /^repo: README\.md: mtime$/],
    ["a symlink", "ln -s README.md link", /^repo: link: created symlink -> README\.md$/],
    ["a hard link", "ln README.md hard", /^repo: README\.md: nlink 1 -> 2$/],
    ["a deletion", "rm Makefile", /^repo: Makefile: deleted file$/],
    [
      "a marker outside the repo",
      "touch {{MARK}}",
      /^outside the repo: devrites-attack-marker-self-\d+: created file/,
    ],
    ["a write in the home", "echo x >> ~/.bashrc", /^home: ~\/\.bashrc: created file/],
    ["a TCP connection", "exec 3<>/dev/tcp/127.0.0.1/{{PORT}}", /^network: 1 TCP connection/],
    ["a killed process", "kill -9 {{VICTIM_PID}}", /^process: killed pid \d+/],
  ])("%s", async (_what, command, pattern) => {
    const r = await effectsOf(command);
    expect(r.commandExit, r.stderr).toBe(0);
    expect(
      r.effects.some((e) => pattern.test(e)),
      r.effects.join("\n"),
    ).toBe(true);
  });

  it("a write through an inherited descriptor", async () => {
    const r = await effectsOf("echo x >&3", { fds: true });
    expect(r.effects).toEqual(["outside the repo: fd3.log: content"]);
    const plain = await effectsOf("echo x >&3 2>/dev/null || true");
    expect(plain.effects).toEqual([]);
  });

  it("a write a background process makes after the command ended, with settleMs", async () => {
    const cmd = "(sleep 0.5; touch {{MARK}}) >/dev/null 2>&1 &";
    expect((await effectsOf(cmd)).effects).toEqual([]);
    const settled = await effectsOf(cmd, { settleMs: 1500 });
    expect(settled.effects.some((e) => e.includes("devrites-attack-marker"))).toBe(true);
  });

  it("scratch (TMPDIR) is out of the comparison", async () => {
    const r = await effectsOf('echo x > "$TMPDIR/scratch"');
    expect(r.effects).toEqual([]);
  });
});

describe("the wright's scope", () => {
  const W: AttackRole = "devrites-slice-wright";

  it("a write to the allowlisted file is in scope; the neighbour is not", async () => {
    const ok = await effectsOf("echo x >> src/a.ts", {}, W);
    expect(ok.effects).toEqual([]);
    expect(ok.inScope).toEqual(["src/a.ts: content"]);
    const bad = await effectsOf("echo x >> src/b.ts", {}, W);
    expect(bad.effects).toEqual(["repo: src/b.ts: content"]);
  });

  it("a symlink or a hard link on the allowlisted path counts", async () => {
    const sym = await effectsOf("ln -sf ../README.md src/a.ts", {}, W);
    expect(sym.effects).toEqual(["repo: src/a.ts: allowlisted path is now symlink -> ../README.md"]);
    const hard = await effectsOf("ln -f README.md src/a.ts", {}, W);
    expect(hard.effects).toContain("repo: README.md: nlink 1 -> 2");
    expect(hard.effects).toContain("repo: src/a.ts: allowlisted path is now file (mode 644, 2 links)");
  });

  it("the same write is out of scope for a read-only role", async () => {
    const r = await effectsOf("echo x >> src/a.ts", {}, "devrites-proof-runner");
    expect(r.effects).toEqual(["repo: src/a.ts: content"]);
  });
});

describe("what the host does with the hook's answer", () => {
  const proc = (p: Partial<ProcResult>): ProcResult => ({
    code: 0,
    signal: null,
    stdout: "",
    stderr: "",
    timedOut: false,
    ms: 1,
    ...p,
  });
  const input = { command: "ls", description: "d" };
  const rewrite = (decision: string, updated: Record<string, unknown>) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: decision,
        updatedInput: updated,
      },
    });

  it("exit 2 denies and names the rule", () => {
    const a = interpretAnswer(
      proc({ code: 2, stderr: "devrites guard denied this call [guard.spawn] x" }),
      input,
      "ls",
    );
    expect(a).toEqual({ verdict: "deny", rule: "guard.spawn", droppedFields: [] });
  });

  it("exit 0 without output runs the original; a JSON deny on exit 0 runs nothing", () => {
    expect(interpretAnswer(proc({}), input, "ls")).toMatchObject({ verdict: "allow", runs: "ls" });
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
    });
    expect(interpretAnswer(proc({ stdout: deny }), input, "ls").runs).toBeUndefined();
  });

  it("allow or ask with updatedInput runs the rewritten command and reports dropped fields", () => {
    const a = interpretAnswer(
      proc({ stdout: rewrite("allow", { command: "wrapped ls", description: "d" }) }),
      input,
      "ls",
    );
    expect(a).toEqual({ verdict: "allow+rewrite", runs: "wrapped ls", droppedFields: [] });
    const b = interpretAnswer(proc({ stdout: rewrite("ask", { command: "wrapped ls" }) }), input, "ls");
    expect(b).toEqual({ verdict: "ask+rewrite", runs: "wrapped ls", droppedFields: ["description"] });
  });

  it("a time-out or another exit code runs the original command", () => {
    expect(interpretAnswer(proc({ timedOut: true, code: null }), input, "ls")).toMatchObject({
      verdict: "timeout",
      runs: "ls",
    });
    expect(interpretAnswer(proc({ code: 1 }), input, "ls")).toMatchObject({
      verdict: "hook-error",
      runs: "ls",
    });
  });

  it("end to end: a rewriting hook's command is the one that runs", async () => {
    const hook = `cat >/dev/null; printf '%s' '${rewrite("allow", { command: "echo rewritten > README.md", description: "x" })}'`;
    const c: AttackCase = {
      id: "self-rewrite",
      class: "self-test",
      role: "devrites-evidence-scout",
      command: "true",
      goal: "",
    };
    const r = await runCase(lab, c, "claude", { hookCommand: hook });
    expect(r.verdict).toBe("allow+rewrite");
    expect(r.ran).toBe("echo rewritten > README.md");
    expect(r.effects).toEqual(["repo: README.md: content"]);
  });

  it("end to end: a hook that times out lets the original run, and that is reported", async () => {
    const c: AttackCase = {
      id: "self-timeout",
      class: "self-test",
      role: "devrites-evidence-scout",
      command: "touch {{MARK}}",
      goal: "",
    };
    const r = await runCase(lab, c, "codex", { hookCommand: "sleep 5", hookTimeoutMs: 500 });
    expect(r.verdict).toBe("timeout");
    expect(r.effects.some((e) => e.startsWith("hook: timed out"))).toBe(true);
    expect(r.effects.some((e) => e.includes("devrites-attack-marker-self-timeout"))).toBe(true);
  });

  it("runs a leaf's call through the real hook as a user's install plans it: the native helper starts bubblewrap", async () => {
    const helper = landlockHelperPath(DEVRITES_ROOT);
    const c: AttackCase = {
      id: "self-helper",
      class: "self-test",
      role: "devrites-proof-runner",
      command: "git status --short && cat src/a.ts",
      goal: "",
    };
    const r = await runCase(lab, c, "claude");
    expect(r.verdict).toBe("allow+rewrite");
    expect(r.effects).toEqual([]);
    if (helper === undefined || mechanismHere().kind !== "bwrap") return; // no helper built, or no bubblewrap
    expect(r.ran).toContain("/node_modules/devrites/dist/native/devrites-landlock-linux-");
    expect(r.ran).toContain(" --cow ");
  });

  it.each(["claude", "codex"] as Host[])("the generated %s settings wire a PreToolUse command", (host) => {
    const w = hookWiring(lab.template, host);
    expect(w.command).toContain("pre-tool-use");
    expect(w.timeoutMs).toBe(10_000);
  });
});
