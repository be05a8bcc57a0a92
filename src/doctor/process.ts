/**
 * Running a host binary for a probe: its own process group, stdin from /dev/null (Codex waits on an open
 * stdin), a kill timer, and the whole group killed by PID afterwards (a stray hook or child agent included).
 */

import { execa } from "execa";

export interface HostProcess {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  timedOut: boolean;
  durationMs: number;
  /** Set when the process could not be started at all. */
  spawnError?: string;
}

/** The last line of a process's output, at most 200 characters. */
export function lastLine(s: string): string {
  return s.trim().split("\n").at(-1)?.slice(0, 200) ?? "";
}

/**
 * What went wrong with a probe session, as one text (undefined when nothing did): the host could not start,
 * ran out of time or failed (`exitDetail`: what it last said), the leaf was never spawned (`noLeaf`: the
 * host's words for it), and the fake model's own failures.
 */
export function sessionProblem(
  run: HostProcess,
  timeoutMs: number,
  exitDetail: string,
  noLeaf: string | undefined,
  fakeFailures: readonly string[],
): string | undefined {
  const problems = [
    ...(run.spawnError ? [`could not start: ${run.spawnError}`] : []),
    ...(run.timedOut ? [`did not finish within ${timeoutMs / 1000} s`] : []),
    ...(!run.timedOut && !run.spawnError && run.exitCode !== 0
      ? [`exited ${run.exitCode}: ${exitDetail}`]
      : []),
    ...(noLeaf !== undefined ? [noLeaf] : []),
    ...fakeFailures,
  ];
  return problems.length ? problems.join("; ") : undefined;
}

const live = new Set<number>();

function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Kill every host process doctor started that still runs (called on exit). */
export function killHostProcesses(): void {
  for (const pid of [...live]) {
    killGroup(pid);
    live.delete(pid);
  }
}
process.once("exit", killHostProcesses);

export async function runHostProcess(
  bin: string,
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number; input?: string },
): Promise<HostProcess> {
  const started = Date.now();
  const child = execa(bin, [...args], {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    ...(opts.input !== undefined ? { input: opts.input } : { stdin: "ignore" as const }),
    reject: false,
    detached: true,
    cleanup: false,
    maxBuffer: 64 * 1024 * 1024,
  });
  const pid = child.pid;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  if (pid !== undefined) {
    live.add(pid);
    timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, opts.timeoutMs);
  }
  const r = await child;
  if (timer) clearTimeout(timer);
  if (pid !== undefined) {
    killGroup(pid);
    live.delete(pid);
  }
  const spawnError = r.failed && r.exitCode === undefined && !timedOut ? r.shortMessage : undefined;
  return {
    stdout: typeof r.stdout === "string" ? r.stdout : "",
    stderr: typeof r.stderr === "string" ? r.stderr : "",
    exitCode: r.exitCode,
    timedOut,
    durationMs: Date.now() - started,
    ...(spawnError ? { spawnError } : {}),
  };
}

/** Environment passed through to a host; everything else (HOME, config dirs, the fake's URL) is set apart. */
const PASS_ENV = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SHELL", "USER", "LOGNAME", "TERM"];

export function hostBaseEnv(
  from: Readonly<Record<string, string | undefined>>,
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of PASS_ENV) {
    const v = from[k];
    if (v !== undefined) env[k] = v;
  }
  return { ...env, ...extra };
}
