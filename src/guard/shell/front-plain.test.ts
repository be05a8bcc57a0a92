/**
 * The front table's shortcut skips only what the full walk would find nothing in: checked on examples both ways
 * and, on generated commands, against the walk itself (`frontShellCounted` never takes the shortcut).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frontShell, frontShellCounted, frontStarters } from "./front.js";
import { FRONT_STARTERS, PLAIN_MAX, plainlyUnmatched } from "./front-plain.js";
import { FRONT_RULES } from "./front-table.js";

const opts = { cwd: "/r" };
const WRAPPERS = ["env", "timeout", "xargs", "sudo", "npx", "command", "exec", "time", "nice"];
const START = FRONT_STARTERS;
const walk = (c: string) => frontShellCounted(c, opts).effects;

describe("plainly unmatched commands", () => {
  it.each([
    "grep -rn parse src | sort | head -20",
    "ls -la src; wc -l src/a.ts",
    "cat package.json && rg -n TODO src",
    "head -n 40 src/a.ts && tail -5 src/b.ts",
    "FORCE_COLOR=0 vitest run src/a.test.ts",
    "",
  ])("`%s` is answered without parsing, as the walk answers it", (c) => {
    expect(plainlyUnmatched(c, START)).toBe(true);
    expect(walk(c)).toEqual([]);
    expect(frontShell(c, opts)).toEqual([]);
  });

  it.each([
    ["a rule's program", "git push"],
    ["a rule's program by path", "/usr/bin/git push"],
    ["a rule's program in capitals (a case-insensitive file system)", "GIT push"],
    ["a rule's program after a pipe", "grep x a | tee out.txt"],
    ["a writer", "cat a; rm -rf src"],
    ["a program a rule matches only with some option (`sed -i`)", "sed -n 1,40p src/a.ts"],
    ["a wrapper", "env git push"],
    ["a shell", "bash -c ls"],
    ["a redirect", "grep x src > notes.txt"],
    ["a here-string", "cat <<< x"],
    ["a quote", "g'i't push"],
    ["an escape", "g\\it push"],
    ["an expansion", "$CMD push"],
    ["a command substitution", "echo `git push`"],
    ["a glob", "ls src/*"],
    ["a brace", "echo {a,b}"],
    ["a comment", "ls # rm"],
  ])("%s is parsed (`%s`)", (_what, c) => {
    expect(plainlyUnmatched(c, START)).toBe(false);
  });

  it("parses a command longer than PLAIN_MAX, so the walk's caps still apply", () => {
    const long = Array(PLAIN_MAX)
      .fill("l")
      .join(";")
      .slice(0, PLAIN_MAX + 1);
    expect(long.length).toBe(PLAIN_MAX + 1);
    expect(plainlyUnmatched(long, START)).toBe(false);
    expect(plainlyUnmatched(long.slice(0, PLAIN_MAX), START)).toBe(true);
  });

  it("knows every rule's program, wrapper and shell as a start word", () => {
    for (const rule of FRONT_RULES) {
      const first = rule.prefix[0];
      for (const name of typeof first === "string" ? [first] : first)
        expect(START.has(name), name).toBe(true);
    }
    for (const w of [...WRAPPERS, "sh", "bash", "zsh"]) expect(START.has(w), w).toBe(true);
    expect(START.has("grep")).toBe(false);
  });

  it("lists exactly the start words the table derives (a rule added without its program listed fails here)", () => {
    expect([...FRONT_STARTERS].sort()).toEqual([...frontStarters()].sort());
  });

  it("skips only commands the walk finds nothing in (generated)", () => {
    const pool = [
      ...[...START].slice(0, 40),
      "grep",
      "ls",
      "cat",
      "sort",
      "head",
      "-n",
      "-rf",
      "-c",
      "-lc",
      "src",
      "a.ts",
      "push",
      "install",
      "-i",
      "x=1",
      "/usr/bin/git",
      "./node_modules/.bin/vitest",
    ];
    const command = fc
      .array(
        fc.tuple(
          fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 5 }),
          fc.constantFrom(" | ", "; ", " && ", " || ", " & ", "\n"),
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((parts) => parts.map(([ws, sep]) => ws.join(" ") + sep).join(""));
    fc.assert(
      fc.property(command, (c) => {
        if (plainlyUnmatched(c, START)) expect(walk(c)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
