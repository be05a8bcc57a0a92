/**
 * The user's own Claude Code `Bash(...)` permission rules, matched against a leaf's **original** shell command
 * (pure; the settings files are read in `user-rules.ts`). The hook rewrites a leaf's shell call to run inside
 * the sandbox, and Claude Code then matches its rules against the rewritten command, which no rule written for
 * the original matches; so the hook applies them itself before the rewrite (docs/guard-policy.md, "The host's
 * decision, and the user's own rules").
 *
 * Rule forms, as Claude Code documents them:
 *
 * | rule                      | matches a command (or a subcommand of a compound one) that …                  |
 * | ------------------------- | ----------------------------------------------------------------------------- |
 * | `Bash`, `Bash(*)`         | is anything                                                                   |
 * | `Bash(npm run build)`     | is exactly `npm run build`                                                    |
 * | `Bash(npm run test:*)`    | is `npm run test` or starts with `npm run test ` (legacy prefix, word boundary) |
 * | `Bash(git * main)`        | fits the glob: each `*` stands for any text, spaces included                   |
 * | `Bash(ls *)`              | as a glob, and a single trailing ` *` is optional: `ls` too, never `lsof`     |
 *
 * Compound commands (`&&`, `||`, `;`, `|`, `&`, newlines) are split with the guard's shell parser and every
 * subcommand is matched, as is the whole command. The matching is deliberately a **superset** of Claude's:
 * whitespace runs count as one space; quotes are removed on both sides (`Bash(git commit -m "x")` matches
 * `git commit -m x`); each subcommand is also tried without its leading `VAR=value` assignments, without its
 * redirects, with the program's path reduced to its name, after a process wrapper (`timeout`, `time`, `nice`,
 * `nohup`, `stdbuf`, `env`, `command`, `exec`, `xargs`, `sudo`, …) at every later word, and the script of
 * `bash -c`/`sh -c`/`eval` and a here-document fed to a shell are matched as commands of their own. Where the
 * parser cannot represent the command (`$(…)`, backticks, subshells, brace expansion, …) the matcher cannot
 * tell; a rule then counts as matching when every literal part of it occurs in the command text (with quotes
 * and backslashes removed), and the answer says so. Any doubt ends in a match: for a deny rule that is the
 * fail-closed direction.
 *
 * Budget: parsing is linear in the command (the guard's pre-pass and `shell-quote`); matching one rule against
 * one candidate is a left-to-right scan with `indexOf` per literal part; the total work (candidates × rules ×
 * characters) is capped, and past the cap every rule counts as matching.
 */

import { SHELLS } from "../guard/shell/known-words.js";
import { parseShell, type SimpleCommand, showWord } from "../guard/shell/parse.js";
import { literalWord } from "../guard/shell/words.js";

export type RuleBehavior = "deny" | "ask";

/** One `Bash` rule from one settings file. */
export interface UserRule {
  /** The rule as written in the file, e.g. `Bash(git push:*)`. */
  text: string;
  behavior: RuleBehavior;
  /** The settings file it came from (path as read). */
  source: string;
}

export interface RuleMatch {
  rule: UserRule;
  /** The (sub)command it matched, as the matcher saw it. */
  subject: string;
  /** Set when the matcher could not tell and counted the rule as matching: why. */
  unsure?: string;
}

/** Past this many characters × rules the command is not matched rule by rule: every rule counts as matching. */
export const MAX_MATCH_WORK = 8_000_000;
/** Nested `bash -c` / `eval` scripts are followed this deep. */
const MAX_DEPTH = 3;
/** After a process wrapper, a candidate starts at each of at most this many later words. */
const MAX_WRAPPER_SUFFIXES = 8;

const WRAPPERS = new Set([
  "timeout",
  "time",
  "nice",
  "nohup",
  "stdbuf",
  "env",
  "command",
  "builtin",
  "exec",
  "xargs",
  "sudo",
  "doas",
  "ionice",
  "chrt",
  "taskset",
  "setsid",
  "unbuffer",
  "watch",
  "flock",
  "caffeinate",
]);

/** A rule's `Bash` specifier, compiled. `all` matches everything; `unknown` is a construct not modelled. */
export type CompiledRule =
  | { kind: "all" }
  | { kind: "exact"; text: string }
  | { kind: "prefix"; text: string }
  | { kind: "glob"; parts: string[]; optionalTail: boolean }
  | { kind: "unknown"; why: string }
  | { kind: "other-tool" };

/**
 * Compile a rule string. Rules for other tools (`Read(...)`, `WebFetch`, `mcp__…`, `BashOutput`) are
 * `other-tool`. A `Bash` rule whose shape is not one of the documented forms is `unknown` (counted as matching).
 */
export function compileRule(raw: string): CompiledRule {
  const text = raw.trim();
  if (text === "Bash") return { kind: "all" };
  if (!text.startsWith("Bash")) return { kind: "other-tool" };
  const after = text.slice(4);
  if (/^[A-Za-z0-9_]/.test(after)) return { kind: "other-tool" }; // BashOutput, Bash2, …
  if (!after.startsWith("(") || !after.endsWith(")")) {
    return { kind: "unknown", why: "it is not of the form Bash or Bash(…)" };
  }
  const content = normalize(unescapeParens(after.slice(1, -1)));
  if (content === "" || content === "*") return { kind: "all" };
  const star = content.indexOf("*");
  if (content.endsWith(":*") && star === content.length - 1) {
    const prefix = content.slice(0, -2).trimEnd();
    return prefix === "" ? { kind: "all" } : { kind: "prefix", text: prefix };
  }
  if (star < 0) return { kind: "exact", text: content };
  const parts = content.split("*");
  const optionalTail = parts.length === 2 && content.endsWith(" *");
  return { kind: "glob", parts, optionalTail };
}

/** `\(` and `\)` are how a rule writes literal parentheses; `\\` a backslash. */
function unescapeParens(s: string): string {
  return s.replace(/\\([()\\])/g, "$1");
}

/** Quotes removed and whitespace runs as one space: both rule and subject go through it (a superset match). */
function normalize(s: string): string {
  return s.replace(/["']/g, "").replace(/\s+/g, " ").trim();
}

/** Whether a compiled rule matches one normalized subject. Linear: one left-to-right scan per literal part. */
export function ruleMatches(rule: CompiledRule, subject: string): boolean {
  switch (rule.kind) {
    case "all":
    case "unknown":
      return true;
    case "other-tool":
      return false;
    case "exact":
      return subject === rule.text;
    case "prefix":
      return subject === rule.text || subject.startsWith(`${rule.text} `);
    case "glob":
      if (rule.optionalTail && subject === (rule.parts[0] as string).trimEnd()) return true;
      return globMatches(rule.parts, subject);
  }
}

function globMatches(parts: readonly string[], s: string): boolean {
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!s.startsWith(first)) return false;
  if (s.length < first.length + last.length || !s.endsWith(last)) return false;
  let at = first.length;
  const end = s.length - last.length;
  for (let k = 1; k < parts.length - 1; k += 1) {
    const p = parts[k] as string;
    const i = s.indexOf(p, at);
    if (i < 0 || i + p.length > end) return false;
    at = i + p.length;
  }
  return true;
}

/** The literal parts of a rule: all must occur in a command for the rule to be able to match it. */
function literalParts(rule: CompiledRule): string[] {
  switch (rule.kind) {
    case "exact":
    case "prefix":
      return rule.text.split(" ");
    case "glob":
      return rule.parts.flatMap((p) => p.split(" "));
    default:
      return [];
  }
}

/**
 * The strings a command is matched as: the whole command, every subcommand in several readings (see the
 * header), nested scripts. `unsure` is set when the parser could not represent the command.
 */
export function candidatesOf(command: string | readonly string[]): { subjects: string[]; unsure?: string } {
  const subjects = new Set<string>();
  let unsure: string | undefined;
  const visit = (src: string, depth: number) => {
    subjects.add(normalize(src));
    const parsed = parseShell(src);
    if (!parsed.ok) {
      unsure ??= parsed.why;
      return;
    }
    for (const c of parsed.commands) {
      for (const s of readings(c)) subjects.add(s);
      if (depth < MAX_DEPTH) for (const script of nestedScripts(c)) visit(script, depth + 1);
    }
  };
  if (typeof command === "string") visit(command, 0);
  else {
    subjects.add(normalize(command.join(" ")));
    const argvCommand: SimpleCommand = {
      assignments: [],
      words: command.map(literalWord),
      redirects: [],
      heredocs: [],
      stdinRedirected: false,
      pipedIn: false,
      subshell: false,
    };
    for (const s of readings(argvCommand)) subjects.add(s);
    for (const script of nestedScripts(argvCommand)) visit(script, 1);
  }
  subjects.delete("");
  return unsure === undefined ? { subjects: [...subjects] } : { subjects: [...subjects], unsure };
}

function readings(c: SimpleCommand): string[] {
  const words = c.words.map(showWord);
  const assigns = c.assignments.map((a) => `${a.name}=${showWord(a.value)}`);
  const redirects = c.redirects.map((r) => `${r.op} ${showWord(r.target)}`);
  const out = [[...assigns, ...words, ...redirects], [...assigns, ...words], [...words, ...redirects], words];
  const name = words[0];
  if (name?.includes("/")) out.push([name.slice(name.lastIndexOf("/") + 1), ...words.slice(1)]);
  const base = baseName(name);
  if (base !== undefined && WRAPPERS.has(base)) {
    for (let k = 1; k < words.length && k <= MAX_WRAPPER_SUFFIXES; k += 1) {
      const rest = words.slice(k);
      out.push(rest);
      const head = rest[0];
      if (head?.includes("/")) out.push([head.slice(head.lastIndexOf("/") + 1), ...rest.slice(1)]);
    }
  }
  return out.map((ws) => normalize(ws.join(" ")));
}

function baseName(name: string | undefined): string | undefined {
  return name === undefined ? undefined : name.slice(name.lastIndexOf("/") + 1);
}

/** Scripts a simple command runs as shell code: `sh -c SCRIPT`, `eval WORDS`, a here-document fed to a shell. */
function nestedScripts(c: SimpleCommand): string[] {
  const words = c.words.map(showWord);
  const base = baseName(words[0]);
  if (base === "eval") return words.length > 1 ? [words.slice(1).join(" ")] : [];
  if (base === undefined || !SHELLS.has(base)) return [];
  const scripts: string[] = [];
  const dashC = words.findIndex((w, k) => k > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
  const script = dashC > 0 ? words[dashC + 1] : undefined;
  if (script !== undefined) scripts.push(script);
  if (dashC < 0) for (const h of c.heredocs) scripts.push(h.body);
  return scripts;
}

/**
 * The first matching rule, deny rules before ask rules (Claude's order: deny, then ask, then allow), or
 * undefined. `rules` may hold rules for any tool; only `Bash` rules take part.
 */
export function matchUserRules(
  command: string | readonly string[],
  rules: readonly UserRule[],
): RuleMatch | undefined {
  const compiled = rules
    .map((rule) => ({ rule, c: compileRule(rule.text) }))
    .filter((r) => r.c.kind !== "other-tool");
  if (compiled.length === 0) return undefined;
  const ordered = [
    ...compiled.filter((r) => r.rule.behavior === "deny"),
    ...compiled.filter((r) => r.rule.behavior === "ask"),
  ];
  const flat = typeof command === "string" ? command : command.join(" ");
  const { subjects, unsure } = candidatesOf(command);
  const chars = subjects.reduce((n, s) => n + s.length, 0);
  if (chars * ordered.length > MAX_MATCH_WORK) {
    const first = ordered[0] as { rule: UserRule };
    return {
      rule: first.rule,
      subject: clipSubject(flat),
      unsure: `the command is too large to check against ${ordered.length} rules within the guard's budget`,
    };
  }
  for (const { rule, c } of ordered) {
    if (c.kind === "unknown") return { rule, subject: clipSubject(flat), unsure: `the rule ${c.why}` };
    const hit = subjects.find((s) => ruleMatches(c, s));
    if (hit !== undefined) return { rule, subject: clipSubject(hit) };
  }
  if (unsure !== undefined) {
    // The parser could not represent the command: a rule whose literal parts all occur in it might match.
    const text = normalize(flat.replace(/\\/g, ""));
    const ansiC = flat.includes("$'");
    for (const { rule, c } of ordered) {
      const parts = literalParts(c).filter((p) => p !== "");
      if (ansiC || parts.every((p) => text.includes(p))) {
        return {
          rule,
          subject: clipSubject(flat),
          unsure: `the matcher cannot read this command (${unsure}${ansiC ? "; it has $'…' quoting" : ""})`,
        };
      }
    }
  }
  return undefined;
}

function clipSubject(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 200 ? `${one.slice(0, 197)}...` : one;
}
