/**
 * The matcher of the user's own Claude Code `Bash(...)` rules against a leaf's original command: each rule form
 * with a positive case and near misses, compound commands, wildcards, the readings that make it a superset of
 * Claude's own matching (checked on Claude Code 2.1.328, see docs/guard-policy.md), the fail-closed answer for
 * what the parser cannot read, and the work cap.
 */

import { describe, expect, it } from "vitest";
import {
  candidatesOf,
  compileRule,
  MAX_MATCH_WORK,
  matchUserRules,
  type UserRule,
} from "./user-rules-match.js";

const deny = (...texts: string[]): UserRule[] =>
  texts.map((text) => ({ text, behavior: "deny", source: "/p/.claude/settings.json" }));
const hits = (rule: string, command: string) => matchUserRules(command, deny(rule)) !== undefined;

describe("rule forms", () => {
  it("bare Bash and Bash(*) match every command", () => {
    expect(hits("Bash", "ls")).toBe(true);
    expect(hits("Bash(*)", "echo hi")).toBe(true);
    expect(hits("Bash()", "echo hi")).toBe(true);
  });

  it("rules for other tools never match a shell command", () => {
    for (const r of ["Read(./.env)", "WebFetch", "Edit(src/**)", "BashOutput", "mcp__x__y", "bash(ls)"]) {
      expect(hits(r, "ls"), r).toBe(false);
    }
  });

  it("Bash(cmd) matches exactly that command, whitespace and quotes normalized", () => {
    expect(hits("Bash(npm run build)", "npm run build")).toBe(true);
    expect(hits("Bash(npm run build)", "npm  run   build")).toBe(true);
    expect(hits("Bash(printf hello)", 'printf "hello"')).toBe(true);
    expect(hits("Bash(npm run build)", "npm run build --watch")).toBe(false);
    expect(hits("Bash(npm run build)", "npm run buil")).toBe(false);
    expect(hits("Bash(npm run build)", "pnpm run build")).toBe(false);
  });

  it("Bash(prefix:*) matches the prefix alone or followed by a space, never a longer word", () => {
    expect(hits("Bash(git push:*)", "git push")).toBe(true);
    expect(hits("Bash(git push:*)", "git push origin main")).toBe(true);
    expect(hits("Bash(npm run test:*)", "npm run test -- --watch")).toBe(true);
    // Claude Code 2.1.328 ran `npm run test:unit` under deny Bash(npm run test:*): a word boundary
    expect(hits("Bash(npm run test:*)", "npm run test:unit")).toBe(false);
    expect(hits("Bash(touch:*)", "touchx a")).toBe(false);
    expect(hits("Bash(git push:*)", "git pull")).toBe(false);
    expect(hits("Bash(git push:*)", "echo git push")).toBe(false);
  });

  it("a * matches any text, spaces included, anywhere in the pattern", () => {
    expect(hits("Bash(git * main)", "git log main")).toBe(true);
    expect(hits("Bash(git * main)", "git push origin main")).toBe(true);
    expect(hits("Bash(* --version)", "node --version")).toBe(true);
    expect(hits("Bash(git * main)", "git log master")).toBe(false);
    expect(hits("Bash(git * main)", "git main")).toBe(false);
    expect(hits("Bash(* --version)", "node --versions")).toBe(false);
    expect(hits("Bash(a*b*c)", "abc")).toBe(true);
    expect(hits("Bash(a*b*c)", "acb")).toBe(false);
  });

  it("a single trailing ' *' is optional: Bash(ls *) matches ls and ls -la, not lsof", () => {
    expect(hits("Bash(mkdir *)", "mkdir")).toBe(true);
    expect(hits("Bash(ls *)", "ls -la")).toBe(true);
    expect(hits("Bash(ls *)", "lsof")).toBe(false);
    expect(hits("Bash(ls*)", "lsof")).toBe(true);
    // with a second wildcard the tail is not optional
    expect(hits("Bash(git * *)", "git")).toBe(false);
  });

  it("escaped parentheses in a rule are literal", () => {
    expect(compileRule("Bash(echo \\(x\\))")).toEqual({ kind: "exact", text: "echo (x)" });
  });

  it("a Bash rule of an unknown shape counts as matching, and says why", () => {
    const m = matchUserRules("ls", deny("Bash(ls"));
    expect(m?.unsure).toContain("not of the form");
    expect(hits("Bash[ls]", "echo hi")).toBe(true);
  });
});

describe("compound commands", () => {
  it("every subcommand is matched: && || ; | & and newlines", () => {
    for (const c of [
      "echo hi && touch a",
      "false || touch a",
      "ls; touch a",
      "echo hi | touch a",
      "touch a & echo hi",
      "echo hi\ntouch a",
    ]) {
      expect(hits("Bash(touch:*)", c), c).toBe(true);
    }
    expect(hits("Bash(touch:*)", "echo touch && ls")).toBe(false);
  });

  it("a prefix rule also matches the whole command (git push && … starts with git push)", () => {
    expect(hits("Bash(git push:*)", "git push && echo done")).toBe(true);
  });

  it("reads each subcommand without assignments, redirects, the program's path, after a process wrapper", () => {
    expect(hits("Bash(touch:*)", "FOO=1 touch a")).toBe(true);
    expect(hits("Bash(python:*)", "python x.py > out.txt 2>&1")).toBe(true);
    expect(hits("Bash(touch:*)", "/usr/bin/touch a")).toBe(true);
    for (const w of [
      "timeout 5 touch a",
      "nohup touch a",
      "env A=1 touch a",
      "nice -n 5 touch a",
      "xargs touch",
    ]) {
      expect(hits("Bash(touch:*)", w), w).toBe(true);
    }
    expect(hits("Bash(touch:*)", "timeout 5 echo touch")).toBe(true); // a superset: a wrapper's later word
    expect(hits("Bash(touch:*)", "echo 5 touch")).toBe(false); // echo is no wrapper
  });

  it("follows sh -c / bash -lc scripts, eval and a here-document fed to a shell", () => {
    expect(hits("Bash(touch:*)", "bash -c 'touch a'")).toBe(true);
    expect(hits("Bash(touch:*)", "sh -lc 'cd x && touch a'")).toBe(true);
    expect(hits("Bash(touch:*)", "eval touch a")).toBe(true);
    expect(hits("Bash(touch:*)", "bash <<'EOF'\ntouch a\nEOF")).toBe(true);
    expect(hits("Bash(touch:*)", "cat <<'EOF'\ntouch a\nEOF")).toBe(false);
    expect(hits("Bash(touch:*)", "bash -c 'echo touch'")).toBe(false);
  });

  it("a word list (Codex argv) is one command, and its shell script is followed", () => {
    expect(matchUserRules(["git", "push", "origin"], deny("Bash(git push:*)"))).toBeDefined();
    expect(matchUserRules(["bash", "-lc", "git push"], deny("Bash(git push:*)"))).toBeDefined();
    expect(matchUserRules(["git", "pull"], deny("Bash(git push:*)"))).toBeUndefined();
  });
});

describe("what the parser cannot read", () => {
  it("counts a rule as matching when all its literal parts occur, and says it could not tell", () => {
    const m = matchUserRules("echo $(touch a)", deny("Bash(touch:*)"));
    expect(m?.rule.text).toBe("Bash(touch:*)");
    expect(m?.unsure).toContain("cannot read this command");
    expect(hits("Bash(touch:*)", "(touch a)")).toBe(true);
    expect(hits("Bash(touch:*)", "echo `t''ouch a`")).toBe(true);
  });

  it("does not match when a literal part is absent from the command", () => {
    expect(hits("Bash(touch:*)", "echo $(ls)")).toBe(false);
    expect(hits("Bash(git * main)", "(git log master)")).toBe(false);
  });

  it("treats $'…' quoting as able to spell anything", () => {
    expect(hits("Bash(touch:*)", "$'\\x74ouch' a; (x)")).toBe(true);
  });
});

describe("order and budget", () => {
  it("a deny rule wins over an ask rule that also matches", () => {
    const rules: UserRule[] = [
      { text: "Bash(git:*)", behavior: "ask", source: "u" },
      { text: "Bash(git push:*)", behavior: "deny", source: "p" },
    ];
    expect(matchUserRules("git push", rules)?.rule.behavior).toBe("deny");
    expect(matchUserRules("git status", rules)?.rule.behavior).toBe("ask");
    expect(matchUserRules("ls", rules)).toBeUndefined();
  });

  it("no Bash rule: no work, no match", () => {
    expect(matchUserRules("touch a", [{ text: "Read(x)", behavior: "deny", source: "u" }])).toBeUndefined();
  });

  it("past the work cap every rule counts as matching, quickly", () => {
    const many = deny(...Array.from({ length: 400 }, (_, k) => `Bash(tool${k}:*)`));
    const big = `echo ${"a".repeat(Math.ceil(MAX_MATCH_WORK / 400))}`;
    const t0 = performance.now();
    const m = matchUserRules(big, many);
    expect(m?.unsure).toContain("too large");
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it("a long command under the cap is matched within a fixed budget", () => {
    const cmd = Array.from({ length: 2000 }, (_, k) => `echo ${k}`).join(" && ");
    const t0 = performance.now();
    expect(hits("Bash(touch:*)", cmd)).toBe(false);
    expect(hits("Bash(touch:*)", `${cmd} && touch z`)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(candidatesOf(cmd).subjects.length).toBeGreaterThan(1000);
  });
});
