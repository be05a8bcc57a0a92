/**
 * The declarative form of a command handler, and its one interpreter. A program row (./programs.ts) says which
 * options the program takes, which of them decide the command alone, and which operands or option values it
 * writes; or, for a program whose words decide nothing, its one outcome. Handlers that need code (sed scripts,
 * find expressions, awk programs, wrappers, git and the package managers' verbs) stay code beside their tables.
 *
 * Conventions (those of every handler, ./core.ts): an option the row does not list makes the command
 * unclassified; for a writer, a word that may expand into an option is an unknown write.
 */

import type { CmdCx, Handler } from "../context.js";
import { enter } from "../cwd.js";
import {
  type Cwd,
  type DenyRule,
  deny,
  type Effect,
  exec,
  sinks,
  test,
  unclassified,
  writes,
  writeUnknown,
} from "../effects.js";
import { type OptSpec, optValues, type ParsedArgs, parseArgs } from "../options.js";
import { showWord, type Word } from "../parse.js";
import { literal } from "../words.js";

const NONE: Effect[] = [];

/**
 * What a command comes to. `{name}` in a message is the program's name as called; `{option}`, in a `decide`
 * entry's, the option that decided.
 */
export type Outcome =
  | { kind: "read" }
  | { kind: "test" }
  | { kind: "exec"; why: string }
  | { kind: "write-unknown"; why: string }
  | { kind: "unclassified"; why: string; hint: string }
  | { kind: "deny"; rule: DenyRule; why: string; hint: string };

/** Commands a row must come to, by what they come to (./programs.ts, PROGRAM_EXAMPLES). */
export interface Examples {
  /** No effect at all. */
  read?: readonly string[];
  /** Writes only, each a named target. */
  write?: readonly string[];
  /** Among its effects, a write the guard cannot name. */
  unknown?: readonly string[];
  /** Among its effects, an unclassified refusal. */
  unclassified?: readonly string[];
  /** Among its effects, a deny by the row's `deny` rule (the `always` outcome's). */
  deny?: readonly string[];
  test?: readonly string[];
  exec?: readonly string[];
}

export interface ProgramSpec {
  /** The program names the row covers (base names, as the classifier looks them up). */
  names: readonly string[];
  /**
   * Literal words that decide the command before anything else is read, tried in order: `first` when the first word is one of them, `any`
   * when any word is (one ending in `*` stands for every word it begins: `-Z*`). A word that is not literal
   * matches none.
   */
  words?: readonly { first?: readonly string[]; any?: readonly string[]; comes: Outcome }[];
  /** The outcome when no entry of `words` decides: the program's options and operands are not read. */
  always?: Outcome;
  /** The options it takes; any other, or a word that may expand into one, makes the command unclassified. */
  options?: OptSpec;
  /** Options not listed are ignored instead (the program's only way of writing is `writes`). */
  loose?: boolean;
  /** A word that may expand into an option is an unknown write (it may name a file to write), not unclassified. */
  writer?: boolean;
  /** Options that decide the command alone, tried in order. */
  decide?: readonly { options: readonly string[]; outcome: Outcome }[];
  /**
   * A wrapper: its operands from `from` on are a command, judged in its place, in the directories its `chdir`
   * options name. Its options end at its command; an unknown one makes the command unclassified.
   */
  runs?: { from?: number; chdir?: readonly string[] };
  /** A wrapper's hint when an option is unknown (the options it does take). */
  hint?: string;
  writes?: {
    /** The values of these options are written. */
    options?: readonly string[];
    /** The operands from this index on are written. */
    operands?: number;
    /** The operands are directories (`mkdir`, `rmdir`). */
    dir?: boolean;
    /** Written *into* as open files (`tee`): a device target is harmless. */
    sink?: boolean;
    /** Without an operand the command is unclassified (it names nothing to act on). */
    required?: boolean;
  };
}

/** Parses with `spec`; an unknown option or an option-like expansion makes the command unclassified. */
export function strict(
  args: readonly Word[],
  cx: CmdCx,
  name: string,
  spec: OptSpec,
  writer = false,
): { ok: true; p: ParsedArgs } | { ok: false; effect: Effect } {
  const p = parseArgs(args, spec);
  if (p.unknown.length > 0) {
    return {
      ok: false,
      effect: unclassified(
        cx.what,
        `\`${name}\` with the option \`${p.unknown[0]}\``,
        "use its common options",
      ),
    };
  }
  if (p.ambiguous.length > 0) {
    const w = showWord(p.ambiguous[0] as Word);
    if (writer)
      return {
        ok: false,
        effect: writeUnknown(cx.what, `\`${w}\` may expand into an option or a file name of \`${name}\``),
      };
    return {
      ok: false,
      effect: unclassified(
        cx.what,
        `\`${w}\` may expand into an option of \`${name}\``,
        "write the argument literally",
      ),
    };
  }
  return { ok: true, p };
}

function outcome(o: Outcome, cx: CmdCx, name: string, option = ""): Effect[] {
  const text = (s: string) => s.replaceAll("{name}", name).replaceAll("{option}", option);
  switch (o.kind) {
    case "read":
      return NONE;
    case "test":
      return [test(cx.what)];
    case "exec":
      return [exec(cx.what, text(o.why))];
    case "write-unknown":
      return [writeUnknown(cx.what, text(o.why))];
    case "unclassified":
      return [unclassified(cx.what, text(o.why), o.hint)];
    case "deny":
      return [deny(o.rule, cx.what, text(o.why), o.hint)];
  }
}

function isOneOf(word: Word | undefined, list: readonly string[] | undefined): boolean {
  const t = literal(word);
  if (t === undefined || list === undefined) return false;
  return list.some((w) => (w.length > 1 && w.endsWith("*") ? t.startsWith(w.slice(0, -1)) : w === t));
}

/** What a row's `writes` says the command writes. */
function written(w: NonNullable<ProgramSpec["writes"]>, p: ParsedArgs, cx: CmdCx, name: string): Effect[] {
  if (w.required === true && p.operands.length === 0)
    return [unclassified(cx.what, `\`${name}\` without an operand`, "name the file")];
  const targets = [
    ...optValues(p, ...(w.options ?? [])),
    ...(w.operands === undefined ? [] : p.operands.slice(w.operands)),
  ];
  return w.sink === true
    ? sinks(cx.what, targets, cx.cwds)
    : writes(cx.what, targets, cx.cwds, w.dir === true);
}

/** Reads the options the way the row says; an effect when the words cannot be read. */
function read(spec: ProgramSpec, args: readonly Word[], cx: CmdCx, name: string): ParsedArgs | Effect {
  const options = spec.options ?? {};
  if (spec.loose === true) return parseArgs(args, options);
  if (spec.runs === undefined) {
    const r = strict(args, cx, name, options, spec.writer === true);
    return r.ok ? r.p : r.effect;
  }
  // a wrapper's options end at its command
  const p = parseArgs(args, { ...options, posix: true });
  if (p.unknown.length > 0)
    return unclassified(
      cx.what,
      `\`${name}\` with the option \`${p.unknown[0]}\``,
      spec.hint ?? "use it without options",
    );
  if (p.ambiguous.length > 0)
    return unclassified(cx.what, `a variable \`${name}\` argument`, "write it literally");
  return p;
}

/** The handler a row describes. */
export function programHandler(spec: ProgramSpec): Handler {
  const { always, runs, writes: w } = spec;
  const words = spec.words ?? [];
  return (args, cx, name) => {
    for (const x of words)
      if (isOneOf(args[0], x.first) || args.some((a) => isOneOf(a, x.any))) return outcome(x.comes, cx, name);
    if (always !== undefined) return outcome(always, cx, name);
    const p = read(spec, args, cx, name);
    if ("kind" in p) return [p];
    for (const d of spec.decide ?? []) {
      const hit = p.opts.find((o) => d.options.includes(o.name));
      if (hit) return outcome(d.outcome, cx, name, hit.name);
    }
    const out = w === undefined ? NONE : written(w, p, cx, name);
    if (runs === undefined || out.some((e) => e.kind === "deny")) return out;
    let cwds: Cwd[] = cx.cwds;
    for (const o of p.opts) if (runs.chdir?.includes(o.name)) cwds = enter(cwds, o.value);
    const inner = p.operands.slice(runs.from ?? 0);
    return inner.length === 0 ? out : [...out, ...cx.sub(inner, cwds)];
  };
}

/** A row table's entries for a handler table: every name of every row. */
export function programEntries(rows: readonly ProgramSpec[]): [string, Handler][] {
  return rows.flatMap((row) => {
    const h = programHandler(row);
    return row.names.map((n): [string, Handler] => [n, h]);
  });
}
