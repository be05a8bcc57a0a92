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
 * the directory set is bounded (./cwd.ts).
 */

import type { CmdCx } from "./context.js";
import { enter, union } from "./cwd.js";
import { type Cwd, type Effect, unclassified } from "./effects.js";
import { parseShell, type Word } from "./parse.js";
import type { Heredoc } from "./prescan.js";
import {
  CD,
  cdTarget,
  describe,
  redirectEffects,
  short,
  spend,
  stripKeywords,
  tooComplex,
  type Work,
} from "./script.js";
import { commandBase, literal } from "./words.js";

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
