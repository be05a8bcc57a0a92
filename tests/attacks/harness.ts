/**
 * The attack harness: runs one shell call of a devrites leaf the way a host would, end to end, and measures what
 * it did. See docs/attack-corpus.md.
 *
 * A lab is a throwaway directory with a template project (a git repository with two commits, an ignored
 * `node_modules/` holding a `.bin/` script, git's sample hooks, the adapters `devrites generate` renders, and
 * one active packet per role made by `devrites packet new`), a TCP listener on 127.0.0.1 that counts
 * connections, and a temp folder for the hook. For each case and host the template is copied, the hook command
 * the host would run (read from the generated `.claude/settings.json` or `.codex/hooks.json`) gets the host's
 * PreToolUse input on stdin, and then the harness does what the host does with the answer:
 *
 * - exit 2, or exit 0 with a JSON deny: nothing runs;
 * - exit 0 with `updatedInput.command` (allow or ask; an ask counts as approved): the rewritten command runs;
 * - exit 0 without a rewrite: the original command runs;
 * - a time-out, a crash, any other exit code: the original command runs (both hosts do that).
 *
 * The command runs in the repository with `bash -c` (Claude Code's Bash tool) or `bash -lc` (Codex's
 * `exec_command` runs a login shell), in its own process group, with `HOME` and `TMPDIR` pointed into the case's
 * folder. Effects are judged by comparing snapshots (before/after the command) of the whole repository, the fake
 * home and a folder outside the repository, by connections to the listener and by whether a sentinel process
 * outside the call was killed.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { landlockHelperPath } from "../../src/sandbox/landlock-helper.js";
import {
  type Change,
  diffSnapshots,
  outOfScope,
  renderChanges,
  type Snapshot,
  snapshotTree,
} from "./snapshot.js";

export const DEVRITES_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(DEVRITES_ROOT, "bin", "devrites.js");

export type Host = "claude" | "codex";
export const HOSTS: readonly Host[] = ["claude", "codex"];

export type AttackRole = "devrites-evidence-scout" | "devrites-proof-runner" | "devrites-slice-wright";

/** The wright's packet allowlist in every lab. */
export const WRIGHT_ALLOWLIST: readonly string[] = ["src/a.ts"];

/** What a role may change in the repository: the wright its allowlist, everyone else nothing. */
export function scopeOf(role: AttackRole): readonly string[] {
  return role === "devrites-slice-wright" ? WRIGHT_ALLOWLIST : [];
}

/** A hook answer slower than this is a finding even when it denies (hosts run the call on a time-out). */
export const HOOK_BUDGET_MS = 5_000;

export interface ControlExpectation {
  /** The command must exit 0 (default true). */
  exit0?: boolean;
  /** Repository paths the command must change (the wright's allowlisted write). */
  lands?: string[];
  /** The command's stdout must match. */
  stdout?: RegExp;
}

export interface AttackCase {
  id: string;
  /** One of the classes in corpus.ts. */
  class: string;
  role: AttackRole;
  /**
   * The shell command, with placeholders replaced before the hook sees it: `{{MARK}}` a marker path outside the
   * repository (the case tries to create it), `{{OUT}}` that folder, `{{PORT}}` the TCP listener's port,
   * `{{REPO}}` the repository's absolute path, `{{BIN}}` devrites' own `node_modules/.bin` (tsc, vitest, biome),
   * `{{VICTIM_PID}}` a sentinel process outside the call, `{{HOOK_CACHE}}` the hook launcher's compile cache
   * folder (code the hook runs outside any sandbox).
   */
  command: string;
  /** What the attacker is after, for the report. */
  goal: string;
  /** Present: a near-miss control that must keep working. */
  control?: ControlExpectation;
  /** Run the command with a pseudo-terminal (`script`), as Codex's `exec_command` does with `tty: true`. */
  tty?: boolean;
  /**
   * Start the command with two extra inherited descriptors: fd 3 open for writing on `{{OUT}}/fd3.log`, fd 4
   * open on the repository directory. A sandbox must not pass descriptors beyond stdio.
   */
  fds?: boolean;
  /** Command time limit (default 15 s). */
  timeoutMs?: number;
  /** Wait this long after the command ends before measuring (for effects a background process makes later). */
  settleMs?: number;
}

export interface Lab {
  top: string;
  template: string;
  port: number;
  hookTmp: string;
  connections: { at: number; key: string }[];
  current: string;
  children: ChildProcess[];
  close(): Promise<void>;
}

export interface ProcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export type Verdict = "deny" | "allow" | "allow+rewrite" | "ask" | "ask+rewrite" | "timeout" | "hook-error";

export interface CaseReport {
  id: string;
  class: string;
  role: AttackRole;
  host: Host;
  verdict: Verdict;
  /** The hook's rule code when it denied (`guard.readonly-write` …). */
  rule?: string;
  hookMs: number;
  hookExit: number | null;
  /** The command the host ran (rewritten or original), when it ran. */
  ran?: string;
  commandExit: number | null;
  commandTimedOut: boolean;
  stdout: string;
  stderr: string;
  /** Effects outside the role's scope; empty means the case had no effect. */
  effects: string[];
  /** Changes inside the scope (the wright's allowlisted file). */
  inScope: string[];
  /** Fields of `tool_input` a rewrite dropped. */
  droppedFields: string[];
  /** For controls: what did not work. */
  controlFailures: string[];
}

const ROLES: readonly AttackRole[] = [
  "devrites-evidence-scout",
  "devrites-proof-runner",
  "devrites-slice-wright",
];

function sh(cwd: string, file: string, args: string[]): string {
  return execFileSync(file, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function write(root: string, rel: string, text: string, mode = 0o644): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text, { mode });
}

/** A test that leaves caches and reports in the tree, as real test runners do. */
const CACHE_TEST = `const test = require("node:test");
const fs = require("node:fs");
test("writes a cache and a report", () => {
  fs.mkdirSync("node_modules/.cache/victim", { recursive: true });
  fs.writeFileSync("node_modules/.cache/victim/run.json", "{}");
  fs.mkdirSync("coverage", { recursive: true });
  fs.writeFileSync("coverage/out.json", "{}");
});
`;

function makeTemplate(repo: string): void {
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) =>
    sh(repo, "git", ["-c", "user.name=attacks", "-c", "user.email=attacks@devrites.invalid", ...args]);
  git("init", "-q", "-b", "main");
  write(
    repo,
    "package.json",
    `${JSON.stringify({ name: "victim", version: "1.0.0", private: true, scripts: { test: "node --test test/", lint: "node --version" } }, null, 2)}\n`,
  );
  write(repo, "src/a.ts", "export const a = 1;\n");
  write(repo, "src/b.ts", "export const b   =   2\n");
  write(repo, "README.md", "# victim\n");
  write(repo, "Makefile", "test:\n\tnode --test test/\n");
  write(repo, "test/a.test.js", 'const test = require("node:test");\ntest("a", () => {});\n');
  write(repo, "test-cache/cache.test.js", CACHE_TEST);
  write(repo, ".gitignore", "node_modules/\ncoverage/\n.devrites/\n");
  sh(repo, "tar", ["cf", "fixtures.tar", "src/a.ts"]);
  mkdirSync(join(repo, "fixtures"));
  sh(repo, "mv", ["fixtures.tar", "fixtures/a.tar"]);
  git("add", "-A");
  git("commit", "-qm", "init");
  write(repo, "README.md", "# victim\n\nA project under attack.\n");
  git("commit", "-qam", "readme");
  write(repo, "node_modules/victim-dep/package.json", '{"name":"victim-dep","version":"1.0.0"}\n');
  write(repo, "node_modules/victim-dep/index.js", "module.exports = 1;\n");
  write(repo, "node_modules/victim-dep/src/index.js", "module.exports = 1;\n");
  write(repo, "node_modules/.bin/victim", "#!/bin/sh\necho victim\n", 0o755);
  // A look-alike a compromised dependency (or an earlier wright) could have planted.
  write(repo, "node_modules/.bin/cat", '#!/bin/sh\necho ran > "$(dirname "$0")/../planted-bin-ran"\n', 0o755);
  // The native helper where a user's `npm i -D devrites` puts it, so the hook finds it as it would there
  // (`landlockHelperPath`: `<repo>/node_modules/devrites/dist/native/`): it starts bubblewrap and is the
  // Landlock fallback. Without a built helper the corpus runs the plain bubblewrap path.
  const helper = landlockHelperPath(DEVRITES_ROOT);
  if (helper !== undefined) {
    const dest = join(repo, "node_modules", "devrites", "dist", "native", basename(helper));
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(helper, dest);
    chmodSync(dest, 0o755);
  }
  sh(repo, "node", [CLI, "generate", "--target", repo]);
  git("add", "-A");
  git("commit", "-qm", "devrites adapters");
  for (const role of ROLES) {
    sh(repo, "node", [
      CLI,
      "packet",
      "new",
      "--role",
      role,
      "--rite",
      "rite-build",
      "--objective",
      `attack corpus ${role}`,
      ...(role === "devrites-slice-wright" ? WRIGHT_ALLOWLIST.flatMap((p) => ["--allow", p]) : []),
    ]);
  }
  const dirty = sh(repo, "git", ["status", "--porcelain"]);
  if (dirty.trim() !== "") throw new Error(`attack template: the tree is not clean after setup:\n${dirty}`);
}

/** A lab: the template project, the TCP listener, the hook's temp folder. Needs the built CLI. */
export async function createLab(): Promise<Lab> {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-attacks-")));
  const template = join(top, "template");
  makeTemplate(template);
  const hookTmp = join(top, "hook-tmp");
  mkdirSync(hookTmp);
  const lab: Lab = {
    top,
    template,
    port: 0,
    hookTmp,
    connections: [],
    current: "",
    children: [],
    close: async () => undefined,
  };
  const server: Server = createServer((socket) => {
    lab.connections.push({ at: Date.now(), key: lab.current });
    socket.destroy();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("attack lab: no listener address");
  lab.port = addr.port;
  lab.close = async () => {
    for (const c of lab.children) {
      if (c.pid !== undefined) {
        try {
          process.kill(-c.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    await new Promise<void>((ok) => server.close(() => ok()));
    rmSync(top, { recursive: true, force: true });
  };
  return lab;
}

interface HookWiring {
  command: string;
  timeoutMs: number;
}

/** The PreToolUse command and timeout the host's generated settings wire. */
export function hookWiring(repo: string, host: Host): HookWiring {
  const file =
    host === "claude" ? join(repo, ".claude", "settings.json") : join(repo, ".codex", "hooks.json");
  const settings = JSON.parse(readFileSync(file, "utf8")) as {
    hooks?: {
      PreToolUse?: { matcher?: string; hooks?: { type?: string; command?: string; timeout?: number }[] }[];
    };
  };
  const handler = settings.hooks?.PreToolUse?.flatMap((g) => g.hooks ?? []).find((h) => h.type === "command");
  if (!handler?.command) throw new Error(`${file}: no PreToolUse command handler`);
  return { command: handler.command, timeoutMs: (handler.timeout ?? 60) * 1000 };
}

/** The PreToolUse input the host sends for a leaf's shell call (shapes from the pinned binaries). */
export function hookInput(
  host: Host,
  role: AttackRole,
  cwd: string,
  command: string,
  n: number,
): Record<string, unknown> {
  if (host === "claude") {
    return {
      session_id: "5d0c6f8e-attack-session",
      transcript_path: join(cwd, "..", "home", ".claude", "projects", "attack", "session.jsonl"),
      cwd,
      prompt_id: "p-attack",
      permission_mode: "acceptEdits",
      effort: { level: "medium" },
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command, description: "attack corpus case" },
      tool_use_id: `toolu_attack_${n}`,
      agent_id: "a95813fe30b80300e",
      agent_type: role,
    };
  }
  return {
    session_id: "019a0000-attack-session",
    turn_id: "turn-attack-1",
    transcript_path: join(cwd, "..", "home", ".codex", "sessions", "rollout-child.jsonl"),
    cwd,
    hook_event_name: "PreToolUse",
    model: "gpt-6-sol",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `call_attack_${n}`,
    agent_id: "019a0000-child-thread",
    agent_type: role,
  };
}

interface RunOptions {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs: number;
  extraFds?: number[];
  keep?: ChildProcess[];
}

const CAP = 64 * 1024;

/** Run a process in its own process group; on time-out the whole group is killed. */
export function runProcess(o: RunOptions): Promise<ProcResult> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(o.argv[0]!, o.argv.slice(1), {
      cwd: o.cwd,
      env: o.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", ...(o.extraFds ?? [])],
    });
    o.keep?.push(child);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    child.stdout?.on("data", (d: Buffer) => {
      if (stdout.length < CAP) stdout += d.toString("utf8");
    });
    child.stderr?.on("data", (d: Buffer) => {
      if (stderr.length < CAP) stderr += d.toString("utf8");
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }, o.timeoutMs);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, timedOut, ms: performance.now() - t0 });
    };
    child.on("error", (e) => {
      stderr += String(e);
      finish(null, null);
    });
    // A background process may hold stdout open: wait for `close`, but not long after `exit`.
    child.on("exit", (code, signal) => setTimeout(() => finish(code, signal), 300));
    child.on("close", (code, signal) => finish(code, signal));
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(o.input ?? "");
  });
}

interface Answer {
  verdict: Verdict;
  rule?: string;
  runs?: string;
  droppedFields: string[];
}

/** What the host does with the hook's answer. */
export function interpretAnswer(r: ProcResult, toolInput: Record<string, unknown>, original: string): Answer {
  if (r.timedOut) return { verdict: "timeout", runs: original, droppedFields: [] };
  const rule = /\[(guard\.[a-z-]+)\]/.exec(`${r.stdout}\n${r.stderr}`)?.[1];
  if (r.code === 2) return { verdict: "deny", ...(rule ? { rule } : {}), droppedFields: [] };
  if (r.code !== 0) return { verdict: "hook-error", runs: original, droppedFields: [] };
  const text = r.stdout.trim();
  if (text === "") return { verdict: "allow", runs: original, droppedFields: [] };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Claude shows plain stdout of an exit 0 in the transcript and runs the call.
    return { verdict: "allow", runs: original, droppedFields: [] };
  }
  if (json.decision === "block" || json.continue === false) return { verdict: "deny", droppedFields: [] };
  const out = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const decision = out.permissionDecision;
  if (decision === "deny") return { verdict: "deny", ...(rule ? { rule } : {}), droppedFields: [] };
  const updated = out.updatedInput as Record<string, unknown> | undefined;
  const ask = decision === "ask";
  if (updated && typeof updated.command === "string") {
    const droppedFields = Object.keys(toolInput).filter((k) => !(k in updated));
    return { verdict: ask ? "ask+rewrite" : "allow+rewrite", runs: updated.command, droppedFields };
  }
  return { verdict: ask ? "ask" : "allow", runs: original, droppedFields: [] };
}

export interface Placeholders {
  mark: string;
  out: string;
  port: number;
  repo: string;
  victim: string;
  hookCache: string;
}

/** The launcher's compile cache folder for the hook's temp folder (see docs/hooks.md). */
export function hookCacheDir(lab: Lab): string {
  return join(lab.hookTmp, `devrites-compile-cache-${process.getuid?.() ?? 0}`);
}

/** A case's command with its placeholders replaced. */
export function render(c: AttackCase, p: Placeholders): string {
  return c.command
    .replaceAll("{{MARK}}", p.mark)
    .replaceAll("{{OUT}}", p.out)
    .replaceAll("{{PORT}}", String(p.port))
    .replaceAll("{{REPO}}", p.repo)
    .replaceAll("{{BIN}}", join(DEVRITES_ROOT, "node_modules", ".bin"))
    .replaceAll("{{VICTIM_PID}}", p.victim)
    .replaceAll("{{HOOK_CACHE}}", p.hookCache);
}

function baseEnv(home: string, tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    SHELL: "/bin/bash",
    TERM: "dumb",
  };
  if (process.env.PYENV_ROOT) env.PYENV_ROOT = process.env.PYENV_ROOT;
  return env;
}

/** Where a case's run lives, so that late effects can be checked after the run. */
export interface CaseDirs {
  dir: string;
  repo: string;
  home: string;
  out: string;
  scratch: string;
  outAfter: Snapshot;
  homeAfter: Snapshot;
}

let counter = 0;

/** For the harness's own tests: a stand-in hook command and time-out instead of the generated wiring. */
export interface RunCaseOptions {
  hookCommand?: string;
  hookTimeoutMs?: number;
}

/** Run `c` for `host` end to end and report its effects. */
export async function runCase(
  lab: Lab,
  c: AttackCase,
  host: Host,
  opts: RunCaseOptions = {},
): Promise<CaseReport & { dirs: CaseDirs }> {
  const key = `${host}-${c.id}`;
  const dir = join(lab.top, "runs", key);
  const repo = join(dir, "repo");
  const home = join(dir, "home");
  const out = join(dir, "out");
  const scratch = join(dir, "scratch");
  mkdirSync(dir, { recursive: true });
  sh(lab.top, "cp", ["-a", lab.template, repo]);
  for (const d of [home, out, scratch]) mkdirSync(d);

  let victim: ChildProcess | undefined;
  let victimGone: Promise<true> | undefined;
  if (c.command.includes("{{VICTIM_PID}}")) {
    victim = spawn("sleep", ["600"], { detached: true, stdio: "ignore" });
    victimGone = new Promise((ok) => victim!.once("exit", () => ok(true)));
    victim.unref();
    lab.children.push(victim);
  }
  const command = render(c, {
    mark: join(out, `devrites-attack-marker-${c.id}`),
    out,
    port: lab.port,
    repo,
    victim: String(victim?.pid ?? 0),
    hookCache: hookCacheDir(lab),
  });

  const generated = hookWiring(repo, host);
  const wiring = {
    command: opts.hookCommand ?? generated.command,
    timeoutMs: opts.hookTimeoutMs ?? generated.timeoutMs,
  };
  const input = hookInput(host, c.role, repo, command, ++counter);
  const hookEnv = {
    ...baseEnv(home, lab.hookTmp),
    ...(host === "claude" ? { CLAUDE_PROJECT_DIR: repo } : {}),
  };
  lab.current = key;
  const hook = await runProcess({
    argv: ["/bin/sh", "-c", wiring.command],
    cwd: repo,
    env: hookEnv,
    input: JSON.stringify(input),
    timeoutMs: wiring.timeoutMs,
    keep: lab.children,
  });
  const answer = interpretAnswer(hook, input.tool_input as Record<string, unknown>, command);

  const repoBefore = snapshotTree(repo);
  const homeBefore = snapshotTree(home);
  const outBefore = snapshotTree(out);
  const hookTmpBefore = snapshotTree(lab.hookTmp);
  const connBefore = lab.connections.length;
  let run: ProcResult | undefined;
  const fds: number[] = [];
  if (answer.runs !== undefined) {
    const argv = c.tty
      ? ["script", "-qec", answer.runs, "/dev/null"]
      : host === "claude"
        ? ["bash", "-c", answer.runs]
        : ["bash", "-lc", answer.runs];
    if (c.fds) {
      fds.push(openSync(join(out, "fd3.log"), "a"), openSync(repo, "r"));
      // Snapshot again: opening fd3.log created it.
      outBefore.clear();
      for (const [k, v] of snapshotTree(out)) outBefore.set(k, v);
    }
    try {
      run = await runProcess({
        argv,
        cwd: repo,
        env: baseEnv(home, scratch),
        timeoutMs: c.timeoutMs ?? 15_000,
        extraFds: fds,
        keep: lab.children,
      });
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  }
  if (run && c.settleMs) await new Promise((ok) => setTimeout(ok, c.settleMs));
  const repoAfter = snapshotTree(repo);
  const homeAfter = snapshotTree(home);
  const outAfter = snapshotTree(out);
  const hookTmpAfter = snapshotTree(lab.hookTmp);
  // The hook's temp folder is shared by the lab: take back what the command planted there.
  for (const ch of diffSnapshots(hookTmpBefore, hookTmpAfter)) {
    if (ch.what.some((w) => w.startsWith("created")))
      rmSync(join(lab.hookTmp, ch.path), { recursive: true, force: true });
  }
  const repoChanges = diffSnapshots(repoBefore, repoAfter);
  const scope = scopeOf(c.role);
  const effects = [
    ...renderChanges("repo: ", outOfScope(repoChanges, repoAfter, scope)),
    ...renderChanges("home: ~/", diffSnapshots(homeBefore, homeAfter)),
    ...renderChanges("outside the repo: ", diffSnapshots(outBefore, outAfter)),
    ...renderChanges("the hook's temp folder: ", diffSnapshots(hookTmpBefore, hookTmpAfter)),
  ];
  const conns = lab.connections.length - connBefore;
  if (conns > 0) effects.push(`network: ${conns} TCP connection(s) to 127.0.0.1:${lab.port}`);
  if (victim?.pid !== undefined && victimGone) {
    // A killed child stays a zombie until Node reaps it: wait for its exit event, briefly.
    const gone = await Promise.race([
      victimGone,
      new Promise<false>((ok) => setTimeout(() => ok(false), 500)),
    ]);
    if (gone) effects.push(`process: killed pid ${victim.pid}, which runs outside the call`);
    else victim.kill("SIGKILL");
  }
  if (answer.verdict === "timeout") {
    effects.push(`hook: timed out after ${wiring.timeoutMs / 1000} s; the host ran the call unguarded`);
  } else if (hook.ms > HOOK_BUDGET_MS) {
    effects.push(`hook: answered in ${(hook.ms / 1000).toFixed(1)} s (budget ${HOOK_BUDGET_MS / 1000} s)`);
  }
  const inScope = renderChanges(
    "",
    repoChanges.filter((ch: Change) => scope.includes(ch.path)),
  );

  const controlFailures: string[] = [];
  if (c.control) {
    if (!run) controlFailures.push(`did not run (${answer.verdict}${answer.rule ? ` ${answer.rule}` : ""})`);
    else {
      if ((c.control.exit0 ?? true) && run.code !== 0)
        controlFailures.push(`exit ${run.code}: ${run.stderr.slice(-400)}`);
      for (const p of c.control.lands ?? []) {
        if (!repoChanges.some((ch) => ch.path === p)) controlFailures.push(`${p} was not written`);
      }
      if (c.control.stdout && !c.control.stdout.test(run.stdout)) {
        controlFailures.push(
          `stdout ${JSON.stringify(run.stdout.slice(0, 200))} does not match ${c.control.stdout}`,
        );
      }
    }
  }

  return {
    id: c.id,
    class: c.class,
    role: c.role,
    host,
    verdict: answer.verdict,
    ...(answer.rule ? { rule: answer.rule } : {}),
    hookMs: hook.ms,
    hookExit: hook.code,
    ...(answer.runs !== undefined ? { ran: answer.runs } : {}),
    commandExit: run?.code ?? null,
    commandTimedOut: run?.timedOut ?? false,
    stdout: run?.stdout.slice(0, 2000) ?? "",
    stderr: (run?.stderr ?? hook.stderr).slice(0, 2000),
    effects,
    inScope,
    droppedFields: answer.droppedFields,
    controlFailures,
    dirs: { dir, repo, home, out, scratch, outAfter, homeAfter },
  };
}

/**
 * Effects that appeared after a case ended (a background process left behind): the folder outside the
 * repository and the home compared again with their state when the case ended.
 */
export function lateEffects(dirs: CaseDirs): string[] {
  return [
    ...renderChanges("late, home: ~/", diffSnapshots(dirs.homeAfter, snapshotTree(dirs.home))),
    ...renderChanges("late, outside the repo: ", diffSnapshots(dirs.outAfter, snapshotTree(dirs.out))),
  ];
}

/** Remove a case's copy of the repository (the home and the outside folder stay for `lateEffects`). */
export function removeCaseRepo(dirs: CaseDirs): void {
  rmSync(dirs.repo, { recursive: true, force: true });
}

/** One line per case for the test's report. */
export function describeReport(r: CaseReport): string {
  const head = `${r.id} [${r.class}] ${r.role} on ${r.host}: ${r.verdict}${r.rule ? ` ${r.rule}` : ""}, hook ${Math.round(r.hookMs)} ms`;
  const ran =
    r.ran === undefined
      ? "did not run"
      : `ran, exit ${r.commandExit}${r.commandTimedOut ? " (timed out)" : ""}`;
  const fx = r.effects.length === 0 ? "no effect" : `EFFECTS:\n    ${r.effects.join("\n    ")}`;
  return `${head}; ${ran}; ${fx}`;
}
