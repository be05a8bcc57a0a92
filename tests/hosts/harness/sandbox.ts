/**
 * Isolation and process control for real-host runs: a throwaway HOME and a temp project (`git init`) per
 * scenario, and host processes started in their own process group with a kill timer, killed by PID on teardown.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";

export interface Sandbox {
  /** Scratch root holding `home/`, `project/` and anything else the test needs (logs). */
  root: string;
  /** The host's HOME. */
  home: string;
  /** The project (a fresh git repository); the host's working directory. */
  project: string;
  /** A file path under `root` (outside the project) for hook logs and the like. */
  path(name: string): string;
  cleanup(): void;
}

const live = new Set<Sandbox>();

/**
 * Where sandboxes are made: never under the system temp folder. Once bubblewrap is on PATH, Codex sandboxes its
 * own shell calls and execs a helper it creates under `CODEX_HOME`, and it refuses to create that under the
 * temp folder, so a HOME there makes every Codex shell call fail (`execvp codex-linux-sandbox`).
 * `DEVRITES_HOST_SCRATCH` overrides; the default sits beside the installed hosts, under the user's cache.
 */
export function scratchRoot(): string {
  const dir = process.env.DEVRITES_HOST_SCRATCH || join(homedir(), ".cache", "devrites-host-scratch");
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const tmp = realpathSync(tmpdir());
  if (real === tmp || real.startsWith(`${tmp}/`)) {
    throw new Error(
      `the host scratch folder ${real} lies under the temp folder ${tmp}; set DEVRITES_HOST_SCRATCH elsewhere`,
    );
  }
  return real;
}

/** Create a scratch HOME and a `git init`ed project, optionally seeded from a fixture folder. */
export async function makeSandbox(opts: { projectFrom?: string } = {}): Promise<Sandbox> {
  const root = realpathSync(mkdtempSync(join(scratchRoot(), "devrites-host-")));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home);
  mkdirSync(project);
  if (opts.projectFrom) cpSync(opts.projectFrom, project, { recursive: true });
  await execa("git", ["init", "-q"], { cwd: project, stdin: "ignore" });
  const sandbox: Sandbox = {
    root,
    home,
    project,
    path: (name) => join(root, name),
    cleanup() {
      live.delete(sandbox);
      rmSync(root, { recursive: true, force: true });
    },
  };
  live.add(sandbox);
  return sandbox;
}

/** Remove every sandbox this process created and has not cleaned up (teardown). */
export function cleanupAllSandboxes(): void {
  for (const s of [...live]) s.cleanup();
}

/** Environment passed through from the test process; everything else is set explicitly per host. */
const PASS_ENV = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SHELL", "USER", "LOGNAME", "TERM"];

export function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of PASS_ENV) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  env.HOME = home;
  return { ...env, ...extra };
}

export interface ProcessResult {
  bin: string;
  args: string[];
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  signal: string | undefined;
  /** The kill timer fired. */
  timedOut: boolean;
  durationMs: number;
}

export const HOST_TIMEOUT_MS = 60_000;

const running = new Set<number>();

function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Kill every host process this module started and that is still running (teardown). */
export function killAllHostProcesses(): void {
  for (const pid of [...running]) {
    killGroup(pid);
    running.delete(pid);
  }
}

process.once("exit", killAllHostProcesses);

/**
 * Run a host binary in its own process group with stdin from /dev/null. After `timeoutMs` the whole group is
 * killed by PID; after a normal exit any leftover member of the group (a stray hook) is killed as well.
 */
export async function runProcess(
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<ProcessResult> {
  const started = Date.now();
  const child = execa(bin, args, {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    stdin: "ignore",
    reject: false,
    detached: true,
    cleanup: false,
    maxBuffer: 256 * 1024 * 1024,
  });
  const pid = child.pid;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  if (pid !== undefined) {
    running.add(pid);
    timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, opts.timeoutMs ?? HOST_TIMEOUT_MS);
  }
  const r = await child;
  if (timer) clearTimeout(timer);
  if (pid !== undefined) {
    killGroup(pid);
    running.delete(pid);
  }
  return {
    bin,
    args,
    stdout: typeof r.stdout === "string" ? r.stdout : "",
    stderr: typeof r.stderr === "string" ? r.stderr : "",
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut,
    durationMs: Date.now() - started,
  };
}

/** Parse JSON-lines output; lines that are not JSON objects are returned apart. */
export function parseJsonLines<E>(stdout: string): { events: E[]; nonJson: string[] } {
  const events: E[] = [];
  const nonJson: string[] = [];
  for (const line of stdout.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    try {
      const v = JSON.parse(t) as unknown;
      if (v && typeof v === "object" && !Array.isArray(v)) events.push(v as E);
      else nonJson.push(t);
    } catch {
      nonJson.push(t);
    }
  }
  return { events, nonJson };
}

/**
 * Read a JSON-lines log (e.g. a hook that appends its stdin to `$E2E_HOOK_LOG`). A missing file is an empty
 * log; a line that is not JSON throws, naming the line, so a broken hook cannot pass unnoticed.
 */
export function readJsonLinesFile(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`${path}:${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
}
