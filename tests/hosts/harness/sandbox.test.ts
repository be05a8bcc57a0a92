/** Isolation, process control and install paths, without any host. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLAUDE_VERSION, CODEX_VERSION, hostCacheDir, hostsRequired } from "./install.js";
import {
  baseEnv,
  cleanupAllSandboxes,
  makeSandbox,
  parseJsonLines,
  readJsonLinesFile,
  runProcess,
} from "./sandbox.js";
import { hostSkipReason } from "./suite.js";

afterAll(cleanupAllSandboxes);

describe("hostCacheDir / hostsRequired / hostSkipReason", () => {
  it("keys the cache on both versions under ~/.cache or DEVRITES_HOST_CACHE", () => {
    const key = `claude-code-${CLAUDE_VERSION}+codex-${CODEX_VERSION}`;
    expect(hostCacheDir({})).toBe(join(homedir(), ".cache", "devrites-hosts", key));
    expect(hostCacheDir({ DEVRITES_HOST_CACHE: "/somewhere" })).toBe(join("/somewhere", key));
  });

  it("requires hosts only for DEVRITES_REQUIRE_HOSTS=1", () => {
    expect(hostsRequired({ DEVRITES_REQUIRE_HOSTS: "1" })).toBe(true);
    expect(hostsRequired({ DEVRITES_REQUIRE_HOSTS: "0" })).toBe(false);
    expect(hostsRequired({ DEVRITES_REQUIRE_HOSTS: "true" })).toBe(false);
    expect(hostsRequired({})).toBe(false);
  });

  it("names the missing host and the reason", () => {
    const claude = { bin: "/c", version: CLAUDE_VERSION };
    expect(hostSkipReason({ cacheDir: "/x", claude }, ["claude"])).toBeUndefined();
    expect(hostSkipReason({ cacheDir: "/x", claude, skipReason: "npm failed" }, ["claude", "codex"])).toBe(
      "codex unavailable: npm failed",
    );
    expect(hostSkipReason({ cacheDir: "/x" }, ["claude", "codex"])).toContain("claude and codex unavailable");
  });
});

describe("makeSandbox", () => {
  it("creates a HOME and a git project, seeded from a fixture, and cleans up", async () => {
    const seed = await makeSandbox();
    writeFileSync(join(seed.project, "seed.txt"), "s");
    const s = await makeSandbox({ projectFrom: seed.project });
    expect(existsSync(join(s.project, ".git"))).toBe(true);
    expect(existsSync(join(s.project, "seed.txt"))).toBe(true);
    expect(existsSync(s.home)).toBe(true);
    expect(s.path("log.jsonl").startsWith(s.root)).toBe(true);
    expect(s.path("log.jsonl").startsWith(s.project)).toBe(false);
    s.cleanup();
    expect(existsSync(s.root)).toBe(false);
  });
});

describe("baseEnv", () => {
  it("sets HOME and passes only a fixed list through", () => {
    const env = baseEnv("/h", { X: "1" });
    expect(env.HOME).toBe("/h");
    expect(env.X).toBe("1");
    expect(env.PATH).toBe(process.env.PATH);
    expect(Object.keys(env).filter((k) => k.startsWith("VITEST"))).toEqual([]);
  });
});

/** Is `pid` gone (no such process, or a zombie awaiting its reaper)? Polls until `ms` runs out. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    let gone = false;
    try {
      process.kill(pid, 0);
      const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, "utf8") : "";
      gone = /^State:\s+Z/m.test(status);
    } catch {
      gone = true;
    }
    if (gone || Date.now() > deadline) return gone;
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe("runProcess", () => {
  it("returns output and exit code with stdin at EOF", async () => {
    const s = await makeSandbox();
    const r = await runProcess(
      process.execPath,
      ["-e", "process.stdin.resume();process.stdin.on('end',()=>{console.log('eof');process.exit(3)})"],
      { cwd: s.project, env: baseEnv(s.home) },
    );
    expect(r.stdout.trim()).toBe("eof");
    expect(r.exitCode).toBe(3);
    expect(r.timedOut).toBe(false);
  });

  it("kills the whole process group when the timer fires", async () => {
    const s = await makeSandbox();
    const script = [
      "const { spawn } = require('node:child_process');",
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "console.log(c.pid);",
      "setInterval(() => {}, 1000);",
    ].join("\n");
    const r = await runProcess(process.execPath, ["-e", script], {
      cwd: s.project,
      env: baseEnv(s.home),
      timeoutMs: 1500,
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe("SIGKILL");
    const grandchild = Number(r.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await goneWithin(grandchild, 5000)).toBe(true);
  });
});

describe("parseJsonLines / readJsonLinesFile", () => {
  it("splits objects from other lines", () => {
    const { events, nonJson } = parseJsonLines<{ type: string }>(
      '{"type":"a"}\nwarning\n\n[1]\n{"type":"b"}\n',
    );
    expect(events.map((e) => e.type)).toEqual(["a", "b"]);
    expect(nonJson).toEqual(["warning", "[1]"]);
  });

  it("reads a log file, treats a missing one as empty and throws on a broken line", async () => {
    const s = await makeSandbox();
    const p = s.path("h.jsonl");
    expect(readJsonLinesFile(p)).toEqual([]);
    writeFileSync(p, '{"a":1}\n{"a":2}\n');
    expect(readJsonLinesFile(p)).toEqual([{ a: 1 }, { a: 2 }]);
    writeFileSync(p, '{"a":1}\n{broken\n');
    expect(() => readJsonLinesFile(p)).toThrow(/h\.jsonl:2 is not JSON/);
  });
});
