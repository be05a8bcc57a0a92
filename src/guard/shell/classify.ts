/**
 * Shell command → effects. Parses the command (./parse.ts), then walks its simple commands in order:
 * assignments become `env` effects, redirects become writes, keywords (`if`, `then`, `do`, `!`, `{` …) are
 * stripped, `cd`/`pushd`/`popd` move the set of directories later relative paths resolve against, and every
 * command is dispatched to its handler (./commands). A command without a handler is an `exec`: a program the
 * guard cannot see into.
 *
 * `cd` may fail, so after `cd dir` the command may be in the old directory or the new one: relative write
 * targets are checked against every directory the shell might be in.
 */

import { CORE } from "./commands/core.js";
import { git } from "./commands/git.js";
import { PACKAGES } from "./commands/packages.js";
import { TOOLS } from "./commands/tools.js";
import type { CmdCx, Handler, HandlerTable } from "./context.js";
import { enter, union } from "./cwd.js";
import { type Cwd, type Effect, exec, unclassified } from "./effects.js";
import { parseShell, showWord, type Word } from "./parse.js";
import type { Heredoc } from "./prescan.js";
import {
  CD,
  cdTarget,
  describe,
  MAX_SIMPLE_COMMANDS,
  MAX_WORDS,
  redirectEffects,
  short,
  spend,
  stripKeywords,
  tooComplex,
  type Work,
} from "./script.js";
import { commandBase, literal, literalWord } from "./words.js";

export { MAX_SIMPLE_COMMANDS, MAX_WORDS, type Work };

/** The command tables, looked up in turn (no name is in two of them: `commands/tables.test.ts`). */
const TABLES: readonly HandlerTable[] = [CORE, PACKAGES, TOOLS, new Map([["git", git]])];

function handlerNamed(name: string): Handler | undefined {
  for (const table of TABLES) {
    const h = table.get(name);
    if (h) return h;
  }
  return undefined;
}

/** Nested `sh -c`, wrappers and `find -exec` deeper than this are refused. */
const MAX_DEPTH = 8;
/** Directories whose programs are the system's own utilities. */
const SYSTEM_DIRS = new Set([
  "/bin",
  "/usr/bin",
  "/usr/local/bin",
  "/sbin",
  "/usr/sbin",
  "/usr/local/sbin",
  "/opt/homebrew/bin",
]);

export interface ShellOptions {
  /** Absolute directory the command starts in. */
  cwd: string;
  hasLocalBin?: (name: string) => boolean;
}

function handlerFor(base: string): Handler | undefined {
  const h = handlerNamed(base);
  if (h) return h;
  if (/^python[0-9.]*$/.test(base)) return handlerNamed("python");
  if (/^pip[0-9.]*$/.test(base)) return handlerNamed("pip");
  if (/^(ruby|perl|php|node)[0-9.]+$/.test(base)) return handlerNamed(base.replace(/[0-9.]+$/, ""));
  return undefined;
}

interface Walk {
  depth: number;
  work: Work;
  hasLocalBin?: (name: string) => boolean;
  /** Set when a `cd` ran somewhere the walk cannot follow (inside a wrapper); shared by nested walks. */
  lost: { cwd: boolean };
}

interface Stdin {
  heredocs: readonly Heredoc[];
  fed: boolean;
  pipedIn: boolean;
}

function classifyArgv(argv: readonly Word[], cwds: Cwd[], stdin: Stdin, what: string, walk: Walk): Effect[] {
  if (walk.depth > MAX_DEPTH)
    return [unclassified(what, "commands nested too deeply", "flatten the command")];
  const first = argv[0];
  if (first === undefined) return [];
  if (first.dynamic) {
    return [
      unclassified(
        what,
        `the command name \`${showWord(first)}\` is a variable`,
        "write the command name literally",
      ),
    ];
  }
  if (first.glob)
    return [unclassified(what, "the command name is a glob", "write the command name literally")];
  const name = first.text;
  if (name === "") return [unclassified(what, "an empty command name", "write the command name literally")];
  const base = commandBase(name);
  const out: Effect[] = [];
  const slash = name.lastIndexOf("/");
  if (slash >= 0) {
    const dir = name.slice(0, slash);
    if (!SYSTEM_DIRS.has(dir) && !dir.endsWith("node_modules/.bin")) {
      out.push(exec(what, `\`${name}\` runs a program by path`));
    }
  }
  if (CD.has(base)) {
    walk.lost.cwd = true;
    return out;
  }
  const handler = handlerFor(base);
  if (!handler) return [...out, exec(what, `\`${base}\` is not on the read-only allowlist`)];
  const cx: CmdCx = {
    what,
    cwds,
    stdinFed: stdin.fed,
    heredocs: stdin.heredocs,
    pipedIn: stdin.pipedIn,
    hasLocalBin: walk.hasLocalBin,
    sub: (inner, innerCwds) =>
      classifyArgv(inner, innerCwds ?? cwds, stdin, what, { ...walk, depth: walk.depth + 1 }),
    script: (text) => runScript(text, cwds, { ...walk, depth: walk.depth + 1 }).effects,
  };
  const inner = handler(argv.slice(1), cx, base);
  return [...out, ...inner];
}

function runScript(src: string, start: Cwd[], walk: Walk): { effects: Effect[]; cwds: Cwd[] } {
  if (walk.depth > MAX_DEPTH) {
    return {
      effects: [unclassified(short(src), "commands nested too deeply", "flatten the command")],
      cwds: start,
    };
  }
  const parsed = parseShell(src);
  if (!parsed.ok) return { effects: [unclassified(short(src), parsed.why, parsed.hint)], cwds: start };
  let cwds = start;
  const effects: Effect[] = [];
  for (const cmd of parsed.commands) {
    const over = spend(walk.work, cmd, cwds.length);
    if (over) {
      effects.push(tooComplex(short(src), over));
      return { effects, cwds };
    }
    const what = describe(cmd);
    for (const a of cmd.assignments) effects.push({ kind: "env", name: a.name, value: a.value, what });
    effects.push(...redirectEffects(cmd, cwds, what));
    const stripped = stripKeywords(cmd.words, what);
    effects.push(...stripped.effects);
    const argv = stripped.argv;
    const name = literal(argv[0]);
    if (name !== undefined && CD.has(commandBase(name)) && !name.includes("/")) {
      const base = commandBase(name);
      const target = base === "popd" ? undefined : cdTarget(argv);
      // `cd` with no operand goes home, `cd -` back, `popd` to the stack top: all unknown here.
      const next = target === undefined ? [null] : enter(cwds, target);
      cwds = union(cwds, next);
      continue;
    }
    const stdin: Stdin = {
      heredocs: cmd.heredocs,
      fed: cmd.stdinRedirected || cmd.pipedIn,
      pipedIn: cmd.pipedIn,
    };
    const w: Walk = { ...walk, lost: { cwd: false } };
    effects.push(...classifyArgv(argv, cwds, stdin, what, w));
    if (w.lost.cwd) cwds = union(cwds, [null]);
  }
  return { effects, cwds };
}

/** Classifies a shell command string run from `opts.cwd`. Never throws on any string. */
export function classifyShell(command: string, opts: ShellOptions): Effect[] {
  return classifyShellCounted(command, opts).effects;
}

/**
 * {@link classifyShell}, also returning the work it did (simple commands and words walked, nested scripts
 * included): the measure the caps bound, for tests and benchmarks.
 */
export function classifyShellCounted(command: string, opts: ShellOptions): { effects: Effect[]; work: Work } {
  const work: Work = { commands: 0, words: 0, steps: 0, maxCwds: 0 };
  const walk: Walk = { depth: 0, work, hasLocalBin: opts.hasLocalBin, lost: { cwd: false } };
  return { effects: runScript(command, [opts.cwd], walk).effects, work };
}

/** Classifies an argv (Codex's array form of the shell tool), run from `opts.cwd`. */
export function classifyArgvCommand(argv: readonly string[], opts: ShellOptions): Effect[] {
  const words: Word[] = argv.map(literalWord);
  return classifyArgv(
    words,
    [opts.cwd],
    { heredocs: [], fed: false, pipedIn: false },
    short(argv.join(" ")),
    {
      depth: 0,
      work: { commands: 0, words: argv.length, steps: 0, maxCwds: 0 },
      hasLocalBin: opts.hasLocalBin,
      lost: { cwd: false },
    },
  );
}
