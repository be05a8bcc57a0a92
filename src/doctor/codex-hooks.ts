/**
 * Codex's own view of a project's hooks and their trust: `codex app-server`'s `hooks/list` (JSON-RPC over
 * stdio), which reports every hook with its `key`, `currentHash` and `trustStatus`. Codex 0.169.0 runs a hook
 * only when `[hooks.state."<key>"] trusted_hash = "<currentHash>"` is persisted in the user's config.toml (what
 * `/hooks` in Codex writes), or under `--dangerously-bypass-hook-trust`; an untrusted or changed hook is skipped
 * without a word. The app-server writes state files into its CODEX_HOME, so callers give it a scratch one.
 */

import { spawn } from "node:child_process";

export interface ListedHook {
  key: string;
  eventName: string;
  command: string;
  sourcePath: string;
  currentHash: string;
  trustStatus: string;
}

export type HooksList = { ok: true; hooks: ListedHook[] } | { ok: false; why: string };

const REQUESTS = (cwd: string) =>
  [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "devrites-doctor", version: "1" } },
    },
    { jsonrpc: "2.0", method: "initialized" },
    { jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [cwd] } },
  ]
    .map((m) => JSON.stringify(m))
    .join("\n");

/** Parse the `hooks/list` answer's hooks for `cwd` (pure); undefined when the line is not that answer. */
export function parseHooksList(line: string): HooksList | undefined {
  let v: { id?: unknown; result?: { data?: unknown }; error?: { message?: unknown } };
  try {
    v = JSON.parse(line) as typeof v;
  } catch {
    return undefined;
  }
  if (v.id !== 2) return undefined;
  if (v.error) return { ok: false, why: `hooks/list failed: ${String(v.error.message ?? "unknown error")}` };
  const data = v.result?.data;
  if (!Array.isArray(data)) return { ok: false, why: "hooks/list answered without data" };
  const hooks: ListedHook[] = [];
  for (const entry of data as { hooks?: unknown }[]) {
    for (const h of Array.isArray(entry.hooks) ? (entry.hooks as Record<string, unknown>[]) : []) {
      if (typeof h.key !== "string" || typeof h.currentHash !== "string") continue;
      hooks.push({
        key: h.key,
        eventName: String(h.eventName ?? ""),
        command: String(h.command ?? ""),
        sourcePath: String(h.sourcePath ?? ""),
        currentHash: h.currentHash,
        trustStatus: String(h.trustStatus ?? "unknown"),
      });
    }
  }
  return { ok: true, hooks };
}

/** Ask `bin app-server` for the hooks of `cwd` with `codexHome` as its CODEX_HOME (and HOME `home`). */
export function listCodexHooks(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 15_000,
): Promise<HooksList> {
  return new Promise((resolve) => {
    const child = spawn(bin, ["app-server"], { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let buf = "";
    let done = false;
    const finish = (r: HooksList) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone
      }
      resolve(r);
    };
    const timer = setTimeout(
      () => finish({ ok: false, why: `codex app-server gave no hooks/list answer in ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    child.on("error", (e) => finish({ ok: false, why: `codex app-server could not start: ${e.message}` }));
    child.on("exit", (code) =>
      finish({ ok: false, why: `codex app-server exited ${code} before answering hooks/list` }),
    );
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString("utf8");
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const parsed = parseHooksList(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (parsed) return finish(parsed);
        nl = buf.indexOf("\n");
      }
    });
    child.stderr.resume();
    child.stdin.on("error", () => {});
    child.stdin.write(`${REQUESTS(cwd)}\n`);
  });
}

/** The config.toml lines that persist trust for `hooks` (what `/hooks` in Codex writes) (pure). */
export function trustToml(hooks: readonly ListedHook[]): string {
  return hooks
    .map((h) => `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}`)
    .join("\n\n");
}

/** A devrites hook: its command is the generated launcher, which carries the `devrites-hook` marker. */
export const isDevritesHook = (h: ListedHook): boolean => h.command.includes("/*devrites-hook*/");
