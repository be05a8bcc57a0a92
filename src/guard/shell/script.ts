/**
 * What every walk over a parsed shell command shares (the full classifier, ./classify.ts, and the front table
 * used when the call runs sandboxed, ./front.ts): the caps on one call's work, how a simple command is shown,
 * redirects as writes, leading keywords, `cd`'s operand. Constants and pure functions only: the hook bundle
 * carries a copy in each of its lazy parts, and two copies behave as one.
 */

import { type Cwd, deny, type Effect, sinks, unclassified } from "./effects.js";
import { type SimpleCommand, showWord, showWords, type Word } from "./parse.js";
import { literal } from "./words.js";

/**
 * Most simple commands one shell call may hold, nested scripts (`sh -c '…'`) included. Beyond it the call is
 * refused unclassified (`guard.input-too-complex`): no model writes a thousand commands in one call, and the cap
 * bounds the walk's work whatever the input.
 */
export const MAX_SIMPLE_COMMANDS = 1000;
/** Most words (command names, operands, assignment values and redirect targets) in one shell call. */
export const MAX_WORDS = 32_768;
const MAX_WHAT = 200;

export const PREFIX_KEYWORDS = new Set(["!", "if", "then", "elif", "else", "while", "until", "do", "{"]);
export const CLOSING_KEYWORDS = new Set(["fi", "done", "}", "esac"]);
export const CD = new Set(["cd", "pushd", "popd"]);

export function short(s: string): string {
  return s.length > MAX_WHAT ? `${s.slice(0, MAX_WHAT)}…` : s;
}

export function describe(cmd: SimpleCommand): string {
  const parts = [
    ...cmd.assignments.map((a) => `${a.name}=${showWord(a.value)}`),
    showWords(cmd.words),
    ...cmd.redirects.map((r) => `${r.op} ${showWord(r.target)}`),
  ].filter((p) => p !== "");
  return short(parts.join(" "));
}

/** The work one classification has done, shared by every nested walk: what the caps count. */
export interface Work {
  commands: number;
  words: number;
  /** Simple commands walked, each weighted by the directories it is followed in: the walk's real cost. */
  steps: number;
  /** The most directories any command was followed in (bounded by MAX_CWDS). */
  maxCwds: number;
}

export function redirectEffects(cmd: SimpleCommand, cwds: Cwd[], what: string): Effect[] {
  const out: Effect[] = [];
  for (const r of cmd.redirects) {
    if (r.op === "<" || r.op === "<<<") continue;
    const t = literal(r.target);
    if (r.op === "<&" || r.op === ">&") {
      if (t !== undefined && (t === "-" || /^[0-9]+-?$/.test(t))) continue;
      if (r.op === "<&") {
        out.push(unclassified(what, `\`<&${showWord(r.target)}\` is not a file descriptor`, "use < file"));
        continue;
      }
    }
    out.push(...sinks(what, [r.target], cwds));
  }
  return out;
}

/** Strips leading keywords; returns the argv still to classify (empty when the words only structure code). */
export function stripKeywords(
  argv: readonly Word[],
  what: string,
): { argv: readonly Word[]; effects: Effect[] } {
  let rest = argv;
  for (;;) {
    const t = literal(rest[0]);
    if (t !== undefined && PREFIX_KEYWORDS.has(t)) {
      rest = rest.slice(1);
      continue;
    }
    if (t !== undefined && CLOSING_KEYWORDS.has(t)) {
      return rest.length === 1
        ? { argv: [], effects: [] }
        : {
            argv: [],
            effects: [unclassified(what, `words after \`${t}\``, "end the compound command on its own")],
          };
    }
    if (t === "for") {
      const v = literal(rest[1]);
      if (v === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) {
        return {
          argv: [],
          effects: [unclassified(what, "a `for` loop without a plain variable name", "use for NAME in …")],
        };
      }
      return { argv: [], effects: [{ kind: "env", name: v, what }] };
    }
    return { argv: rest, effects: [] };
  }
}

export function cdTarget(argv: readonly Word[]): Word | undefined {
  const args = argv.slice(1).filter((a) => !["-L", "-P", "-e", "-@", "--"].includes(literal(a) ?? ""));
  return args[0];
}

/** Counts `cmd` against the caps; says which cap it breaks, if any. */
export function spend(work: Work, cmd: SimpleCommand, cwds: number): string | undefined {
  work.commands += 1;
  work.steps += 1 + cwds;
  if (cwds > work.maxCwds) work.maxCwds = cwds;
  work.words += cmd.words.length + cmd.assignments.length + cmd.redirects.length;
  if (work.commands > MAX_SIMPLE_COMMANDS)
    return `more than ${MAX_SIMPLE_COMMANDS} simple commands in one call`;
  if (work.words > MAX_WORDS) return `more than ${MAX_WORDS} words in one call`;
  return undefined;
}

export function tooComplex(what: string, why: string): Effect {
  return deny(
    "guard.input-too-complex",
    what,
    why,
    "split it into several shell calls, or put it in a script file and run that",
  );
}
