/**
 * Shell command → effects, by the front table (./front-table.ts), for a call that runs in the OS sandbox.
 * The walk is the full classifier's (./walk.ts: redirects are writes, `cd` moves where relative paths land, the
 * same caps on one call's work), but each command is asked only the table's question: is it plainly not
 * allowed? Wrappers that run the rest of their words as a command (`env`, `timeout`, `xargs`, `sudo`, `npx` …)
 * and `sh -c SCRIPT` are looked through. Anything else (any other
 * program, inline code, a construct it cannot read) yields no effect: the kernel decides.
 *
 * Linear in the command's length: one pass over the parsed words per pattern, a bounded table, and nested
 * scripts counted against the same caps.
 */

import { type Cwd, deny, type Effect, sinks, writes } from "./effects.js";
import { plainlyUnmatched } from "./front-plain.js";
import { END, FRONT_RULES, type FrontRule, type PatternWord } from "./front-table.js";
import { SHELLS } from "./known-words.js";
import type { Word } from "./parse.js";
import { type Step, short, type WalkMode, type Work, walkArgv, walkScript } from "./walk.js";
import { commandBase, literal, literalWord } from "./words.js";

/**
 * Programs that run the rest of their words as a command: the options they take a value for, and how many
 * leading operands are theirs (`timeout DURATION cmd`).
 */
const WRAPPERS: ReadonlyMap<
  string,
  { valueOptions: readonly string[]; operands?: number; assignments?: boolean }
> = new Map([
  ["env", { valueOptions: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], assignments: true }],
  ["timeout", { valueOptions: ["-s", "--signal", "-k", "--kill-after"], operands: 1 }],
  ["nice", { valueOptions: ["-n", "--adjustment"] }],
  ["nohup", { valueOptions: [] }],
  ["time", { valueOptions: ["-f", "--format", "-o", "--output"] }],
  ["command", { valueOptions: [] }],
  ["exec", { valueOptions: ["-a"] }],
  ["stdbuf", { valueOptions: ["-i", "-o", "-e"] }],
  [
    "xargs",
    {
      valueOptions: [
        "-I",
        "-i",
        "-n",
        "-P",
        "-L",
        "-l",
        "-s",
        "-d",
        "-a",
        "-E",
        "-e",
        "--arg-file",
        "--delimiter",
      ],
    },
  ],
  ["sudo", { valueOptions: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"] }],
  ["doas", { valueOptions: ["-u", "-C"] }],
  ["npx", { valueOptions: ["-p", "--package", "-c", "--call"] }],
  ["bunx", { valueOptions: ["-p", "--package"] }],
]);

export interface FrontOptions {
  /** Absolute directory the command starts in. */
  cwd: string;
}

/** Whether `w` is the pattern word `p` (a literal word only). */
function wordIs(w: Word | undefined, p: PatternWord, base = false): boolean {
  const t = literal(w);
  if (t === undefined) return false;
  const text = base ? commandBase(t) : t;
  return typeof p === "string" ? text === p : p.includes(text);
}

function optionName(t: string): string {
  const eq = t.indexOf("=");
  return eq > 0 && t.startsWith("--") ? t.slice(0, eq) : t;
}

/** Index of the next operand at or after `i`, stepping over options (and their values) that `want` is not. */
function nextOperand(
  args: readonly Word[],
  i: number,
  valueOptions: readonly string[],
  want: PatternWord,
): number {
  let k = i;
  while (k < args.length) {
    const t = literal(args[k]);
    if (t === undefined || !t.startsWith("-") || t === "-" || wordIs(args[k], want)) return k;
    k += t === "--" ? 1 : valueOptions.includes(optionName(t)) && !t.includes("=") ? 2 : 1;
    if (t === "--") return k;
  }
  return k;
}

/**
 * Where the rule's prefix ends in `argv` (the index after its last word), or -1 when it does not match. The
 * program word is compared by base name.
 */
export function matchPrefix(rule: FrontRule, argv: readonly Word[]): number {
  if (!wordIs(argv[0], rule.prefix[0], true)) return -1;
  const valueOptions = rule.valueOptions ?? [];
  let i = 1;
  for (const p of rule.prefix.slice(1)) {
    const alternatives = typeof p === "string" ? [p] : p;
    if (i >= argv.length && alternatives.includes(END)) continue;
    const concrete = alternatives.filter((a) => a !== END);
    const k = nextOperand(argv, i, valueOptions, concrete);
    if (k >= argv.length || !wordIs(argv[k], concrete)) return -1;
    i = k + 1;
  }
  if (rule.anyOf !== undefined) {
    const any = rule.anyOf;
    const found = argv.slice(i).some((w) => {
      const t = literal(w);
      return (
        t !== undefined &&
        any.some((a) => (a.endsWith("*") ? t.startsWith(a.slice(0, -1)) : a === optionName(t)))
      );
    });
    if (!found) return -1;
  }
  return i;
}

/** The operands after the prefix (options and their values stepped over; everything after `--`). */
function operandsAfter(rule: FrontRule, argv: readonly Word[], from: number): Word[] {
  const valueOptions = rule.valueOptions ?? [];
  const out: Word[] = [];
  let options = true;
  for (let k = from; k < argv.length; k++) {
    const w = argv[k] as Word;
    const t = literal(w);
    if (options && t === "--") {
      options = false;
      continue;
    }
    if (options && t?.startsWith("-") && t !== "-") {
      if (valueOptions.includes(optionName(t)) && !t.includes("=")) k += 1;
      continue;
    }
    out.push(w);
  }
  return out;
}

function ruleEffects(
  rule: FrontRule,
  argv: readonly Word[],
  from: number,
  cwds: Cwd[],
  what: string,
): Effect[] {
  const does = rule.does;
  if ("deny" in does) return [deny(does.deny, what, `\`${short(what)}\`: ${does.why}`, does.hint)];
  const operands = operandsAfter(rule, argv, from);
  const targets =
    does.writes === "last"
      ? operands.length >= 2
        ? operands.slice(-1)
        : []
      : does.writes === "after-first"
        ? operands.slice(1)
        : operands;
  return does.sink === true ? sinks(what, targets, cwds) : writes(what, targets, cwds);
}

/** The command a wrapper runs, or undefined when `argv` is not a wrapper call with a command to run. */
function unwrap(argv: readonly Word[]): readonly Word[] | undefined {
  const name = literal(argv[0]);
  if (name === undefined) return undefined;
  const spec = WRAPPERS.get(commandBase(name));
  if (spec === undefined) return undefined;
  let k = 1;
  let operands = spec.operands ?? 0;
  while (k < argv.length) {
    const t = literal(argv[k]);
    if (t === undefined) return undefined;
    if (t === "--") {
      k += 1;
      continue;
    }
    if (t.startsWith("-") && t !== "-") {
      // `command -v x`, `command -V x` look a name up; they run nothing
      if (name === "command" && (t === "-v" || t === "-V")) return undefined;
      k += spec.valueOptions.includes(optionName(t)) && !t.includes("=") ? 2 : 1;
      continue;
    }
    if (spec.assignments === true && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      k += 1;
      continue;
    }
    if (operands > 0) {
      operands -= 1;
      k += 1;
      continue;
    }
    break;
  }
  return k < argv.length ? argv.slice(k) : undefined;
}

/** The script of `sh -c SCRIPT` (and `bash -lc`, `bash -ec` …), when it is literal. */
function shellScript(argv: readonly Word[]): string | undefined {
  const name = literal(argv[0]);
  if (name === undefined || !SHELLS.has(commandBase(name))) return undefined;
  let sawC = false;
  for (let k = 1; k < argv.length; k++) {
    const t = literal(argv[k]);
    if (t === undefined) return undefined;
    if (!sawC && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(t)) {
      sawC = true;
      continue;
    }
    if (t.startsWith("-") || t.startsWith("+")) continue;
    return sawC ? t : undefined;
  }
  return undefined;
}

/**
 * The sandboxed mode's judge: `sh -c SCRIPT` is walked, a wrapper's command judged in its place, anything else
 * asked the front table's rules in turn; what no rule names yields nothing (the kernel decides).
 */
function judge(argv: readonly Word[], step: Step): Effect[] {
  const script = shellScript(argv);
  if (script !== undefined) return step.script(script);
  const inner = unwrap(argv);
  if (inner !== undefined) return step.sub(inner);
  for (const rule of FRONT_RULES) {
    const end = matchPrefix(rule, argv);
    if (end >= 0) return ruleEffects(rule, argv, end, step.cwds, step.what);
  }
  return [];
}

const MODE: WalkMode = { judge, strict: false };

/**
 * The words that can start a match, derived from the table: its rules' programs, the wrappers, the shells. The
 * shortcut's list (`FRONT_STARTERS`, ./front-plain.ts) must be exactly this (front-plain.test.ts).
 */
export function frontStarters(): Set<string> {
  const out = new Set<string>([...WRAPPERS.keys(), ...SHELLS]);
  for (const rule of FRONT_RULES) {
    const first = rule.prefix[0];
    for (const name of typeof first === "string" ? [first] : first) out.add(name);
  }
  return out;
}

/**
 * The front table's effects for a shell command string run from `opts.cwd`. Never throws on any string. A
 * command no rule can match (./front-plain.ts) is not parsed.
 */
export function frontShell(command: string, opts: FrontOptions): Effect[] {
  if (plainlyUnmatched(command)) return [];
  return frontShellCounted(command, opts).effects;
}

/** {@link frontShell}, also returning the work it did: the measure the caps bound. */
export function frontShellCounted(command: string, opts: FrontOptions): { effects: Effect[]; work: Work } {
  return walkScript(MODE, command, opts.cwd);
}

/** The front table's effects for an argv (Codex's array form of the shell tool), run from `opts.cwd`. */
export function frontArgv(argv: readonly string[], opts: FrontOptions): Effect[] {
  const work: Work = { commands: 1, words: argv.length, steps: 0, maxCwds: 0 };
  return walkArgv(MODE, argv.map(literalWord), opts.cwd, work);
}
