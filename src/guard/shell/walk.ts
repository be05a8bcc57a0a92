/**
 * The one walk over a parsed shell command, shared by the full classifier (./classify.ts, the classified mode:
 * no sandbox, the guard decides alone) and the front table (./front.ts, a call the OS sandbox runs). It parses
 * the command (./parse.ts) and visits its simple commands in order: it counts each against the caps on one
 * call's work, turns redirects into writes, strips keywords, follows `cd`/`pushd`/`popd` (every `cd` may fail, so
 * relative paths resolve against each directory the shell may be in), and hands every other command's words to
 * the mode's {@link Judge}. Nested walks (`sh -c SCRIPT`, a wrapper's command, `find -exec`) go through the
 * judge's `script` and `sub`, which count their depth here, once.
 *
 * Linear in the command's length: the caps bound the commands and words walked, nested scripts included, and
 * the directory set is bounded (./cwd.ts). Pure functions: the hook bundle carries a copy in each of its lazy
 * parts (the classifier's, the front table's), and two copies behave as one.
 */

import { MAX_SIMPLE_COMMANDS, MAX_WORDS } from "./caps.js";
import type { CmdCx } from "./context.js";
import { enter, union } from "./cwd.js";
import { type Cwd, deny, type Effect, sinks, unclassified } from "./effects.js";
import { parseShell, type SimpleCommand, showWord, showWords, type Word } from "./parse.js";
import type { Heredoc } from "./prescan.js";
import { commandBase, literal } from "./words.js";

export { MAX_SIMPLE_COMMANDS, MAX_WORDS };

const MAX_WHAT = 200;

const PREFIX_KEYWORDS = new Set(["!", "if", "then", "elif", "else", "while", "until", "do", "{"]);
const CLOSING_KEYWORDS = new Set(["fi", "done", "}", "esac"]);
export const CD = new Set(["cd", "pushd", "popd"]);

export function short(s: string): string {
  return s.length > MAX_WHAT ? `${s.slice(0, MAX_WHAT)}…` : s;
}

function describe(cmd: SimpleCommand): string {
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

function redirectEffects(cmd: SimpleCommand, cwds: Cwd[], what: string): Effect[] {
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
function stripKeywords(argv: readonly Word[], what: string): { argv: readonly Word[]; effects: Effect[] } {
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

function cdTarget(argv: readonly Word[]): Word | undefined {
  const args = argv.slice(1).filter((a) => !["-L", "-P", "-e", "-@", "--"].includes(literal(a) ?? ""));
  return args[0];
}

/** Counts `cmd` against the caps; says which cap it breaks, if any. */
function spend(work: Work, cmd: SimpleCommand, cwds: number): string | undefined {
  work.commands += 1;
  work.steps += 1 + cwds;
  if (cwds > work.maxCwds) work.maxCwds = cwds;
  work.words += cmd.words.length + cmd.assignments.length + cmd.redirects.length;
  if (work.commands > MAX_SIMPLE_COMMANDS)
    return `more than ${MAX_SIMPLE_COMMANDS} simple commands in one call`;
  if (work.words > MAX_WORDS) return `more than ${MAX_WORDS} words in one call`;
  return undefined;
}

function tooComplex(what: string, why: string): Effect {
  return deny(
    "guard.input-too-complex",
    what,
    why,
    "split it into several shell calls, or put it in a script file and run that",
  );
}

/** Nested `sh -c`, wrappers and `find -exec` deeper than this are not followed. */
export const MAX_DEPTH = 8;

/** What a judge knows about the simple command it judges: a handler's context, and a way to lose the cwd. */
export interface Step extends CmdCx {
  /** A `cd` ran where the walk cannot follow it (inside a wrapper): later commands may run anywhere. */
  loseCwd(): void;
}

/** How one simple command is judged: its words (keywords stripped, never a top-level `cd`, never empty). */
export type Judge = (argv: readonly Word[], step: Step) => Effect[];

export interface WalkMode {
  judge: Judge;
  /**
   * Whether the walk reports what it cannot read or what is no write. The classified mode sets it: the guard
   * decides alone, so a parse failure, nesting deeper than {@link MAX_DEPTH}, a redirect effect that is not a
   * write (`<&WORD`, unclassified), and the effects of assignments and keywords (`env`, a malformed `for`) are
   * all reported. The sandboxed mode leaves it unset: the kernel runs or refuses what the walk cannot read, so
   * only redirect writes and the judge's own effects count.
   */
  strict: boolean;
  hasLocalBin?: (name: string) => boolean;
}

interface State {
  depth: number;
  work: Work;
  /** Set when a `cd` ran where the walk cannot follow it; shared by the nested walks of one simple command. */
  lost: { cwd: boolean };
}

interface Stdin {
  heredocs: readonly Heredoc[];
  fed: boolean;
  pipedIn: boolean;
}

const NO_STDIN: Stdin = { heredocs: [], fed: false, pipedIn: false };

function tooDeep(mode: WalkMode, what: string): Effect[] {
  return mode.strict ? [unclassified(what, "commands nested too deeply", "flatten the command")] : [];
}

function command(
  mode: WalkMode,
  argv: readonly Word[],
  cwds: Cwd[],
  stdin: Stdin,
  what: string,
  st: State,
): Effect[] {
  if (st.depth > MAX_DEPTH) return tooDeep(mode, what);
  if (argv.length === 0) return [];
  const deeper = (): State => ({ ...st, depth: st.depth + 1 });
  return mode.judge(argv, {
    what,
    cwds,
    stdinFed: stdin.fed,
    heredocs: stdin.heredocs,
    pipedIn: stdin.pipedIn,
    hasLocalBin: mode.hasLocalBin,
    sub: (inner, innerCwds) => command(mode, inner, innerCwds ?? cwds, stdin, what, deeper()),
    script: (text) => runScript(mode, text, cwds, deeper()).effects,
    loseCwd: () => {
      st.lost.cwd = true;
    },
  });
}

function runScript(mode: WalkMode, src: string, start: Cwd[], st: State): { effects: Effect[]; cwds: Cwd[] } {
  if (st.depth > MAX_DEPTH) return { effects: tooDeep(mode, short(src)), cwds: start };
  const parsed = parseShell(src);
  if (!parsed.ok)
    return { effects: mode.strict ? [unclassified(short(src), parsed.why, parsed.hint)] : [], cwds: start };
  let cwds = start;
  const effects: Effect[] = [];
  for (const cmd of parsed.commands) {
    const over = spend(st.work, cmd, cwds.length);
    if (over) {
      effects.push(tooComplex(short(src), over));
      return { effects, cwds };
    }
    const what = describe(cmd);
    if (mode.strict)
      for (const a of cmd.assignments) effects.push({ kind: "env", name: a.name, value: a.value, what });
    const redirects = redirectEffects(cmd, cwds, what);
    effects.push(...(mode.strict ? redirects : redirects.filter((e) => e.kind === "write")));
    const stripped = stripKeywords(cmd.words, what);
    if (mode.strict) effects.push(...stripped.effects);
    const argv = stripped.argv;
    const name = literal(argv[0]);
    if (name !== undefined && CD.has(commandBase(name)) && !name.includes("/")) {
      const target = commandBase(name) === "popd" ? undefined : cdTarget(argv);
      // `cd` with no operand goes home, `cd -` back, `popd` to the stack top: all unknown here.
      cwds = union(cwds, target === undefined ? [null] : enter(cwds, target));
      continue;
    }
    const stdin: Stdin = {
      heredocs: cmd.heredocs,
      fed: cmd.stdinRedirected || cmd.pipedIn,
      pipedIn: cmd.pipedIn,
    };
    const one: State = { ...st, lost: { cwd: false } };
    effects.push(...command(mode, argv, cwds, stdin, what, one));
    if (one.lost.cwd) cwds = union(cwds, [null]);
  }
  return { effects, cwds };
}

/** Walks a shell command string run from `cwd`; also returns the work it did (what the caps bound). */
export function walkScript(mode: WalkMode, src: string, cwd: string): { effects: Effect[]; work: Work } {
  const work: Work = { commands: 0, words: 0, steps: 0, maxCwds: 0 };
  const st: State = { depth: 0, work, lost: { cwd: false } };
  return { effects: runScript(mode, src, [cwd], st).effects, work };
}

/**
 * Judges an argv (Codex's array form of the shell tool: literal words, no stdin, no shell) run from `cwd`.
 * `work` is where the caps start: the call's own words already counted.
 */
export function walkArgv(mode: WalkMode, argv: readonly Word[], cwd: string, work: Work): Effect[] {
  const what = short(argv.map((w) => w.text).join(" "));
  return command(mode, argv, [cwd], NO_STDIN, what, { depth: 0, work, lost: { cwd: false } });
}
