/**
 * Shell command → effects, the classified mode (no sandbox: the guard decides alone). The walk (./walk.ts)
 * parses the command and visits its simple commands: assignments become `env` effects, redirects writes,
 * keywords are stripped, `cd` moves where relative paths land. This module judges each simple command by its
 * handler (./commands); a command without a handler is an `exec`: a program the guard cannot see into.
 */

import { CORE } from "./commands/core.js";
import { git } from "./commands/git.js";
import { PACKAGES } from "./commands/packages.js";
import { TOOLS } from "./commands/tools.js";
import type { Handler, HandlerTable } from "./context.js";
import { type Effect, exec, unclassified } from "./effects.js";
import { showWord, type Word } from "./parse.js";
import {
  CD,
  MAX_SIMPLE_COMMANDS,
  MAX_WORDS,
  type Step,
  type WalkMode,
  type Work,
  walkArgv,
  walkScript,
} from "./walk.js";
import { commandBase, literalWord } from "./words.js";

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

/** The classified mode's judge: the command's handler, or an `exec` for a program without one. */
function judge(argv: readonly Word[], step: Step): Effect[] {
  const what = step.what;
  const first = argv[0] as Word;
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
    step.loseCwd();
    return out;
  }
  const handler = handlerFor(base);
  if (!handler) return [...out, exec(what, `\`${base}\` is not on the read-only allowlist`)];
  return [...out, ...handler(argv.slice(1), step, base)];
}

function mode(opts: ShellOptions): WalkMode {
  return { judge, strict: true, hasLocalBin: opts.hasLocalBin };
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
  return walkScript(mode(opts), command, opts.cwd);
}

/** Classifies an argv (Codex's array form of the shell tool), run from `opts.cwd`. */
export function classifyArgvCommand(argv: readonly string[], opts: ShellOptions): Effect[] {
  const work: Work = { commands: 0, words: argv.length, steps: 0, maxCwds: 0 };
  return walkArgv(mode(opts), argv.map(literalWord), opts.cwd, work);
}
