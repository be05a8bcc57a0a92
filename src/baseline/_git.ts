import { execa } from "execa";

/** Environment variables from the caller's git context that would point git at another repository or index. */
const KEEP_GIT_VARS = new Set([
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_NOSYSTEM",
  "GIT_EXEC_PATH",
]);

/**
 * Settings forced on every call: no fsmonitor daemon or hook answering for the file system, exec-bit and
 * ctime checks on even where the repository turned them off, stable porcelain. User ignore rules stay.
 */
const FORCED_CONFIG = [
  "core.fsmonitor=false",
  "core.trustctime=true",
  "core.checkStat=default",
  "core.quotePath=false",
  "status.submoduleSummary=false",
  ...(process.platform === "win32" ? [] : ["core.fileMode=true"]),
].flatMap((kv) => ["-c", kv]);

export function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k.startsWith("GIT_") && !KEEP_GIT_VARS.has(k)) continue;
    env[k] = v;
  }
  env.LC_ALL = "C";
  env.LANG = "C";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_TERMINAL_PROMPT = "0";
  return env;
}

export interface GitResult {
  /** Null when git could not be started (not installed, or cwd missing). */
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
  /** The spawn error code, e.g. `ENOENT`, when git did not run. */
  spawnError?: string;
}

/** Run git with the forced settings; `input`, when given, is its standard input (else it has none). */
export async function git(cwd: string, args: readonly string[], input?: Uint8Array): Promise<GitResult> {
  const r = await execa("git", [...FORCED_CONFIG, ...args], {
    cwd,
    env: gitEnv(),
    extendEnv: false,
    reject: false,
    encoding: "buffer",
    stripFinalNewline: false,
    ...(input !== undefined ? { input } : { stdin: "ignore" as const }),
    maxBuffer: 1024 * 1024 * 1024,
  });
  const stdout = Buffer.from(r.stdout ?? new Uint8Array());
  const stderr = Buffer.from(r.stderr ?? new Uint8Array()).toString("utf8");
  if (r.exitCode === undefined) {
    const code = (r as unknown as { code?: string }).code;
    return { exitCode: null, stdout, stderr: stderr || String(r.message), spawnError: code ?? "ESPAWN" };
  }
  return { exitCode: r.exitCode, stdout, stderr };
}

/** Run git and return stdout, or throw with git's own message (these are edge failures, not rule violations). */
export async function gitOk(cwd: string, args: readonly string[], input?: Uint8Array): Promise<Buffer> {
  const r = await git(cwd, args, input);
  if (r.exitCode !== 0)
    throw new Error(
      `git ${args.join(" ")} failed in ${cwd}: ${r.stderr.trim() || r.spawnError || r.exitCode}`,
    );
  return r.stdout;
}

/** `git rev-parse --verify -q HEAD` → the commit, or null when HEAD names no commit. */
export async function revParseHead(cwd: string): Promise<string | null> {
  const r = await git(cwd, ["rev-parse", "--verify", "-q", "HEAD^{commit}"]);
  if (r.exitCode !== 0) return null;
  const head = r.stdout.toString("utf8").trim();
  if (!/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(head))
    throw new Error(`git rev-parse HEAD gave ${JSON.stringify(head)}`);
  return head;
}
