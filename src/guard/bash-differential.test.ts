/**
 * Differential test against real bash: commands are generated from a vocabulary of shell words (relative names
 * only), decided by the guard, and — only when the guard allows them — run by `bash -c` in a scratch directory.
 * A read-only role's allowed command must leave the directory byte-for-byte unchanged; the wright's may change
 * only its allowlisted files. This checks the guard's model of bash against bash itself, quoting, comments,
 * here-strings, redirects and all.
 */

import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { resolveRepoPath } from "../scope/index.js";
import { decide } from "./decide.js";
import type { GuardContext } from "./types.js";

const BASH = ["/bin/bash", "/usr/bin/bash"].find((b) => existsSync(b));

const FILES = {
  f1: "alpha\nbeta\n",
  f2: "gamma\n",
  "d1/f5": "delta\n",
  "d1/f6": "eps\n",
};

let dir = "";
let cleanup = () => {};
beforeEach(() => {
  const t = makeTree(FILES);
  dir = t.base;
  cleanup = t.cleanup;
});
afterEach(() => cleanup());

function snapshot(base: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(base, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(base, r));
      if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(join(base, r))}`);
      else if (st.isDirectory()) {
        out.set(r, `dir:${st.mode & 0o777}`);
        walk(r);
      } else out.set(r, `file:${st.mode & 0o777}:${readFileSync(join(base, r), "base64")}`);
    }
  };
  walk("");
  return out;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

function runBash(command: string): void {
  // GNU timeout runs bash in its own process group and signals the whole group, so a command that never ends on
  // its own (`tail -f`, `yes`) cannot outlive the test; every write in the vocabulary is immediate.
  const r = spawnSync(
    "timeout",
    ["-s", "KILL", "1", BASH as string, "--noprofile", "--norc", "-c", command],
    {
      cwd: dir,
      env: { HOME: dir, PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C", TMPDIR: dir },
      input: "",
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  // A command that ends at once but left a job in the background (`yes x &`) never meets the timeout: end
  // whatever is left of timeout's process group (its pid is the group id).
  if (r.pid) {
    try {
      process.kill(-r.pid, "SIGKILL");
    } catch {
      // nothing left in the group
    }
  }
  // Damage outside the scratch directory is a guard failure too: the vocabulary names /dev/null, and an allowed
  // command that removed or replaced it (as root) would otherwise go unnoticed.
  expect(lstatSync("/dev/null").isCharacterDevice(), `after ${JSON.stringify(command)}: /dev/null`).toBe(
    true,
  );
}

function ctx(allow: string[]): GuardContext {
  return {
    root: dir,
    activePackets: [
      { run_id: "run-20260101T000000Z-00000001", role: "devrites-code-reviewer", allowed_repo_writes: [] },
      { run_id: "run-20260101T000000Z-00000002", role: "devrites-slice-wright", allowed_repo_writes: allow },
    ],
    resolve: (p) => resolveRepoPath(dir, p),
    isInstalledRole: () => true,
  };
}

const WORDS = [
  "cat",
  "ls",
  "echo",
  "grep",
  "sed",
  "sort",
  "uniq",
  "wc",
  "head",
  "tail",
  "tr",
  "cut",
  "tee",
  "touch",
  "rm",
  "mv",
  "cp",
  "mkdir",
  "ln",
  "chmod",
  "dd",
  "find",
  "xargs",
  "awk",
  "printf",
  "true",
  "false",
  "test",
  "[",
  "]",
  "[[",
  "]]",
  "sh",
  "-c",
  "-i",
  "-n",
  "-e",
  "-o",
  "-f",
  "-s",
  "-p",
  "-r",
  "-t",
  "-delete",
  "-exec",
  "{}",
  "\\;",
  "+",
  "-print",
  "-name",
  "'*'",
  "s/a/b/",
  "'s/a/b/w f3'",
  "p",
  "1p",
  "'{print}'",
  "'{print > \"f3\"}'",
  "f1",
  "f2",
  "f3",
  "d1",
  "d1/f5",
  "d2",
  "d1/f9",
  "of=f3",
  "if=f1",
  "+x",
  "a",
  "b",
  "x y",
  "'x y'",
  '"f1"',
  "'f1'",
  "f\\1",
  "$v",
  '"$v"',
  "v=f3",
  "v=f1",
  "\\",
  "#",
  "a#b",
  "~",
  "~/f3",
  "*",
  "f?",
  "[f]1",
  "{f1,f3}",
  ">",
  ">>",
  ">|",
  "&>",
  "2>",
  "2>&1",
  ">&2",
  "<",
  "<<<",
  "<>",
  "|",
  "||",
  "&&",
  ";",
  "&",
  "\n",
  "if",
  "then",
  "else",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "while",
  "!",
  "{",
  "}",
  "(",
  ")",
  "$(",
  "`",
  "'",
  '"',
  "$'",
  "export",
  "read",
  "line",
  "cd",
  "-",
  "eval",
  "exec",
  "command",
  "env",
  "timeout",
  "1",
  "nohup",
  "-eq",
  "/dev/null",
  "f1.bak",
  "-i.bak",
  "--in-place",
  "install",
  "truncate",
  "0",
  "tar",
  "-cf",
  "t.tar",
  "-xf",
  "unlink",
  "rmdir",
  "sponge",
  "yes",
  "seq",
  "3",
];

const command = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 9 }).map((ws) => ws.join(" "));

function hookFor(role: string, cmd: string) {
  return {
    agent_id: "a",
    agent_type: role,
    tool_name: "Bash",
    tool_input: { command: cmd },
    cwd: dir,
    hook_event_name: "PreToolUse",
  };
}

// Not under Stryker (stryker.config.json means to leave it out, but the vitest runner does not read testFiles): a
// mutant that allows a command would run it for real, and a never-ending one outlives its timeout.
const UNDER_STRYKER = process.env.STRYKER_MUTATOR_WORKER !== undefined;

describe.skipIf(!BASH || UNDER_STRYKER)("the guard against real bash", () => {
  it("allows a read-only role only commands that leave the tree unchanged", () => {
    let ran = 0;
    fc.assert(
      fc.property(command, (cmd) => {
        const d = decide(hookFor("devrites-code-reviewer", cmd), ctx([]));
        if (d.decision !== "allow") return;
        ran += 1;
        const before = snapshot(dir);
        runBash(cmd);
        expect(changed(before, snapshot(dir)), cmd).toEqual([]);
      }),
      { numRuns: 400 },
    );
    expect(ran).toBeGreaterThan(20);
  }, 120_000);

  it("allows the wright only commands that change allowlisted files", () => {
    const allow = ["f1", "d1/f5"];
    let ran = 0;
    fc.assert(
      fc.property(command, (cmd) => {
        const d = decide(hookFor("devrites-slice-wright", cmd), ctx(allow));
        if (d.decision !== "allow") return;
        ran += 1;
        const before = snapshot(dir);
        runBash(cmd);
        const diff = changed(before, snapshot(dir));
        expect(
          diff.filter((p) => !allow.includes(p)),
          cmd,
        ).toEqual([]);
        // restore for the next run
        rmSync(dir, { recursive: true, force: true });
        const t = makeTree(FILES);
        cleanup();
        dir = t.base;
        cleanup = t.cleanup;
      }),
      { numRuns: 300 },
    );
    expect(ran).toBeGreaterThan(20);
  }, 120_000);

  it.each([
    ["cat f1 > /dev/null", "allow"],
    ["sed -n 1p f1", "allow"],
    ["cat f1 | sort | uniq", "allow"],
    ["echo a#b > f3", "deny"],
    ["echo hi # > f3", "allow"],
    ["sed -i s/a/b/ f1", "deny"],
    ["cat <<< 'x > f3'", "allow"],
    ["ls\ntouch f3", "deny"],
  ])("read-only `%s` → %s, and bash agrees", (cmd, expected) => {
    const d = decide(hookFor("devrites-code-reviewer", cmd), ctx([]));
    expect(d.decision).toBe(expected);
    const before = snapshot(dir);
    runBash(cmd);
    const diff = changed(before, snapshot(dir));
    expect(diff.length === 0).toBe(expected === "allow");
  });
});
