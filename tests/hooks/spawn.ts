/**
 * Run a committed hook bundle: a fresh `node` process, the hook input on stdin, the answer in the exit code,
 * stdout and stderr. `via: "socket"` is how Node-based hosts connect stdin (a socketpair); `via: "pipe"` gives
 * the hook a real pipe (as Rust-based hosts do), which takes the synchronous fast path. `via: "launcher"` runs
 * what the hosts really run: the generated hook command (`src/hosts/launcher.ts`, plugin form, the bundle as its
 * one candidate) through `/bin/sh -c`, which loads the bundle in its own process.
 */

import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bundlePath as bundleFile, REPO_ROOT } from "../../scripts/build-hooks.js";
import { hookCommand } from "../../src/hosts/launcher.js";

export interface HookRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface HookRunOptions {
  cwd?: string;
  env?: Record<string, string>;
  via?: "socket" | "pipe" | "launcher";
  /** Write the input but never close stdin: the hook must answer at its deadline. */
  hang?: boolean;
}

export function bundlePath(name: string): string {
  return join(REPO_ROOT, bundleFile(name));
}

/** The wired command for the bundle `name`, as a plugin's hooks file has it (timeout 10 s, fail closed). */
export function wiredCommand(name: string): string {
  return hookCommand(name, {
    failClosed: name === "pre-tool-use",
    timeoutSec: 10,
    candidates: ['"$DEVRITES_TEST_BUNDLE"'],
    walk: false,
  });
}

export function runBundle(name: string, stdin: string | Buffer, opts: HookRunOptions = {}): Promise<HookRun> {
  const bundle = bundlePath(name);
  const env = { PATH: process.env.PATH ?? "", ...opts.env };
  const cwd = opts.cwd ?? REPO_ROOT;
  if (opts.via === "pipe" && opts.hang) return runOnOpenFifo(bundle, stdin, cwd, env);
  if (opts.via === "launcher") {
    if (opts.hang)
      throw new Error("the launcher reads stdin to its end; a hanging stdin meets the host's timeout");
    const child = spawn("/bin/sh", ["-c", wiredCommand(name)], {
      cwd,
      env: { ...env, PATH: `${dirname(process.execPath)}:${env.PATH}`, DEVRITES_TEST_BUNDLE: bundle },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.on("error", () => {});
    child.stdin.end(stdin);
    return collect(child, () => child.stdin.destroy());
  }
  const [cmd, args] =
    opts.via === "pipe"
      ? ["sh", ["-c", 'cat | exec "$0" "$1"', process.execPath, bundle]]
      : [process.execPath, [bundle]];
  const child = spawn(cmd as string, args as string[], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => {}); // the hook may exit before reading everything (size cap)
  if (opts.hang) child.stdin.write(stdin);
  else child.stdin.end(stdin);
  return collect(child, () => child.stdin.destroy());
}

/** stdin is a FIFO the hook itself holds open for writing (O_RDWR), so EOF never comes. */
function runOnOpenFifo(bundle: string, stdin: string | Buffer, cwd: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "devrites-fifo-"));
  const fifo = join(dir, "in");
  execFileSync("mkfifo", [fifo]);
  const fd = openSync(fifo, "r+");
  writeSync(fd, typeof stdin === "string" ? Buffer.from(stdin) : stdin);
  const child = spawn(process.execPath, [bundle], { cwd, env, stdio: [fd, "pipe", "pipe"] });
  return collect(child, () => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
}

function collect(child: ReturnType<typeof spawn>, cleanup: () => void): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (c: Buffer) => out.push(c));
    child.stderr?.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (status, signal) => {
      cleanup();
      resolve({
        status,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}
