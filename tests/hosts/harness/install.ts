/**
 * Install the pinned host CLIs (Claude Code, Codex) into a cache folder outside the repository and check that
 * they run. Real-host suites call `ensureHosts()` in their setup and skip, loudly, with `skipReason` when a host
 * cannot be installed or does not report its pinned version.
 *
 * - Cache: `$DEVRITES_HOST_CACHE/<key>` or `~/.cache/devrites-hosts/<key>`; the key names both versions, so a
 *   version bump installs afresh beside the old folder.
 * - `npm install --prefix <cache> --no-save --no-audit --no-fund`: the project's lockfile never lists the hosts.
 *   Optional dependencies carry the native executables, so they are always included.
 * - A lock folder (atomic `mkdir`) keeps parallel test files from installing twice; a stale lock (dead owner)
 *   is taken over.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";

export const CLAUDE_VERSION = "2.1.328";
export const CODEX_VERSION = "0.169.0";
export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";
export const CODEX_PACKAGE = "@openai/codex";

export interface HostBinary {
  /** Absolute path of the executable (`<cache>/node_modules/.bin/<name>`). */
  bin: string;
  /** The first line the binary printed for `--version`, e.g. `2.1.328 (Claude Code)`. */
  version: string;
}

export interface Hosts {
  claude?: HostBinary;
  codex?: HostBinary;
  /** Set when at least one host is unusable; says which and why. Suites skip with it. */
  skipReason?: string;
  /** The cache folder used. */
  cacheDir: string;
}

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const LOCK_WAIT_MS = 12 * 60_000;
const VERSION_TIMEOUT_MS = 30_000;

/** The cache folder for the pinned versions. */
export function hostCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.DEVRITES_HOST_CACHE || join(homedir(), ".cache", "devrites-hosts");
  return join(base, `claude-code-${CLAUDE_VERSION}+codex-${CODEX_VERSION}`);
}

/** Was a failed host check requested to be fatal (CI)? */
export function hostsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.DEVRITES_REQUIRE_HOSTS === "1";
}

let memo: Promise<Hosts> | undefined;

/** Install (once per cache folder, shared across processes) and check both hosts. Never throws. */
export function ensureHosts(): Promise<Hosts> {
  memo ??= ensureHostsUncached(hostCacheDir()).then((hosts) => {
    announce(hosts);
    return hosts;
  });
  return memo;
}

async function ensureHostsUncached(cacheDir: string): Promise<Hosts> {
  try {
    // While another process holds the install lock, a half-written install may already answer --version.
    if (!existsSync(lockPath(cacheDir))) {
      const first = await checkHosts(cacheDir);
      if (!first.skipReason) return first;
    }
    const lock = await acquireLock(cacheDir);
    if (typeof lock === "string") return { cacheDir, skipReason: lock };
    try {
      const again = await checkHosts(cacheDir);
      if (!again.skipReason) return again;
      const installError = await npmInstall(cacheDir);
      const after = await checkHosts(cacheDir);
      if (installError && after.skipReason) {
        return { ...after, skipReason: `${installError}; ${after.skipReason}` };
      }
      return after;
    } finally {
      lock();
    }
  } catch (e) {
    return { cacheDir, skipReason: `host setup crashed: ${(e as Error).message}` };
  }
}

function binPath(cacheDir: string, name: "claude" | "codex"): string {
  return join(cacheDir, "node_modules", ".bin", name);
}

async function checkOne(bin: string, expected: string, label: string): Promise<HostBinary | string> {
  if (!existsSync(bin)) return `${label} not installed at ${bin}`;
  try {
    const r = await execa(bin, ["--version"], {
      reject: false,
      timeout: VERSION_TIMEOUT_MS,
      stdin: "ignore",
      env: { DISABLE_AUTOUPDATER: "1" },
    });
    const line = r.stdout.trim().split("\n")[0] ?? "";
    if (r.exitCode !== 0) {
      return `${label} --version exited ${r.exitCode ?? r.signal}: ${firstLine(r.stderr) || line}`;
    }
    if (!line.includes(expected)) return `${label} --version printed "${line}", expected ${expected}`;
    return { bin, version: line };
  } catch (e) {
    return `${label} --version failed: ${(e as Error).message}`;
  }
}

async function checkHosts(cacheDir: string): Promise<Hosts> {
  const [claude, codex] = await Promise.all([
    checkOne(binPath(cacheDir, "claude"), CLAUDE_VERSION, `claude ${CLAUDE_VERSION}`),
    checkOne(binPath(cacheDir, "codex"), CODEX_VERSION, `codex ${CODEX_VERSION}`),
  ]);
  const hosts: Hosts = { cacheDir };
  const reasons: string[] = [];
  if (typeof claude === "string") reasons.push(claude);
  else hosts.claude = claude;
  if (typeof codex === "string") reasons.push(codex);
  else hosts.codex = codex;
  if (reasons.length > 0) hosts.skipReason = reasons.join("; ");
  return hosts;
}

/** Returns an error text, or undefined on success. */
async function npmInstall(cacheDir: string): Promise<string | undefined> {
  mkdirSync(cacheDir, { recursive: true });
  // A package.json of its own keeps npm from walking up to some enclosing project.
  const pkg = join(cacheDir, "package.json");
  if (!existsSync(pkg)) {
    writeFileSync(pkg, `${JSON.stringify({ name: "devrites-hosts", private: true }, null, 2)}\n`);
  }
  const args = [
    "install",
    "--prefix",
    cacheDir,
    "--no-save",
    "--no-audit",
    "--no-fund",
    "--include=optional",
    "--engine-strict=false",
    `${CLAUDE_PACKAGE}@${CLAUDE_VERSION}`,
    `${CODEX_PACKAGE}@${CODEX_VERSION}`,
  ];
  // npm run sets npm_config_* for the child; an inherited omit or prefix must not change this install.
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.toLowerCase().startsWith("npm_config_")) env[k] = v;
  }
  const started = Date.now();
  process.stderr.write(`[hosts] installing ${args.slice(-2).join(" ")} into ${cacheDir}\n`);
  try {
    const r = await execa("npm", args, {
      reject: false,
      timeout: INSTALL_TIMEOUT_MS,
      stdin: "ignore",
      cwd: cacheDir,
      env,
      extendEnv: false,
      all: true,
    });
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    if (r.exitCode !== 0) {
      const tail = (r.all ?? "").trim().split("\n").slice(-8).join(" | ");
      return `npm install failed (exit ${r.exitCode ?? r.signal}, ${secs} s): ${tail}`;
    }
    process.stderr.write(`[hosts] installed in ${secs} s\n`);
    return undefined;
  } catch (e) {
    return `npm install could not start: ${(e as Error).message}`;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function lockPath(cacheDir: string): string {
  return `${cacheDir}.lock`;
}

/** Take the install lock; returns a release function, or an error text after the wait runs out. */
async function acquireLock(cacheDir: string): Promise<(() => void) | string> {
  const lockDir = lockPath(cacheDir);
  const owner = join(lockDir, "pid");
  const deadline = Date.now() + LOCK_WAIT_MS;
  mkdirSync(join(cacheDir, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(owner, String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(owner, "utf8").trim());
    } catch {
      // The owner has created the folder but not yet written its pid: wait.
    }
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) return `timed out waiting for the host install lock ${lockDir}`;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0] ?? "";
}

function announce(hosts: Hosts): void {
  const lines = [
    `[hosts] claude: ${hosts.claude ? `${hosts.claude.version} (${hosts.claude.bin})` : "unavailable"}`,
    `[hosts] codex: ${hosts.codex ? `${hosts.codex.version} (${hosts.codex.bin})` : "unavailable"}`,
  ];
  if (hosts.skipReason) lines.push(`[hosts] SKIP: ${hosts.skipReason}`);
  process.stderr.write(`${lines.join("\n")}\n`);
}
