/**
 * A getopt-style reader for the commands the guard inspects. It follows GNU conventions: short options may be
 * bundled (`-sSLo file`), a short option's value may be attached (`-ofile`) or the next word, long options may be
 * abbreviated to any unambiguous prefix (`--in-pl` is `--in-place`) and take `=value` or the next word, `--` ends
 * the options, and options may follow operands unless `posix` is set.
 *
 * A word that may expand into an option (see `mayBeOption`) while options are still being read is reported as
 * `ambiguous`: the caller decides whether that matters for the command.
 */

import type { Word } from "./parse.js";
import { literal, mayBeOption } from "./words.js";

export interface OptSpec {
  /** Short options without a value, e.g. "nrv". */
  flags?: string;
  /** Short options that take a value, e.g. "fo". */
  values?: string;
  /** Long options without a value (names without the dashes). */
  longFlags?: readonly string[];
  /** Long options that take a value (`--name=v` or `--name v`). */
  longValues?: readonly string[];
  /** Long options whose value is optional (only the `--name=v` form carries one). */
  longOptional?: readonly string[];
  /** Stop reading options at the first operand (POSIX utilities and command wrappers). */
  posix?: boolean;
}

export interface Opt {
  /** `-x` or `--long`, the canonical (unabbreviated) spelling. */
  name: string;
  value?: Word;
}

export interface ParsedArgs {
  opts: Opt[];
  operands: Word[];
  /** Options the spec does not know, as written. */
  unknown: string[];
  /** Words that may expand into options, met while options were still being read. */
  ambiguous: Word[];
}

function longName(spec: OptSpec, name: string): { name: string; kind: "flag" | "value" | "optional" } | null {
  const all: [string, "flag" | "value" | "optional"][] = [
    ...(spec.longFlags ?? []).map((n) => [n, "flag"] as [string, "flag"]),
    ...(spec.longValues ?? []).map((n) => [n, "value"] as [string, "value"]),
    ...(spec.longOptional ?? []).map((n) => [n, "optional"] as [string, "optional"]),
  ];
  const exact = all.find(([n]) => n === name);
  if (exact) return { name: exact[0], kind: exact[1] };
  const prefixed = all.filter(([n]) => n.startsWith(name));
  if (prefixed.length === 1 && name.length > 0) {
    const [n, kind] = prefixed[0] as [string, "flag" | "value" | "optional"];
    return { name: n, kind };
  }
  return null;
}

export function parseArgs(args: readonly Word[], spec: OptSpec): ParsedArgs {
  const out: ParsedArgs = { opts: [], operands: [], unknown: [], ambiguous: [] };
  let optionsDone = false;
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const text = literal(w);
    if (optionsDone) {
      out.operands.push(w);
      continue;
    }
    if (text === undefined) {
      if (mayBeOption(w)) out.ambiguous.push(w);
      out.operands.push(w);
      if (spec.posix) optionsDone = true;
      continue;
    }
    if (text === "--") {
      optionsDone = true;
      continue;
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const raw = eq === -1 ? text.slice(2) : text.slice(2, eq);
      const found = longName(spec, raw);
      if (!found) {
        out.unknown.push(text);
        continue;
      }
      const name = `--${found.name}`;
      if (eq !== -1) {
        out.opts.push({
          name,
          value: { text: text.slice(eq + 1), dynamic: false, split: false, glob: false },
        });
      } else if (found.kind === "value") {
        const v = args[k + 1];
        k += 1;
        if (v === undefined) out.unknown.push(text);
        else out.opts.push({ name, value: v });
      } else {
        out.opts.push({ name });
      }
      continue;
    }
    if (text.startsWith("-") && text.length > 1) {
      for (let p = 1; p < text.length; p += 1) {
        const c = text[p] as string;
        if (spec.values?.includes(c)) {
          const rest = text.slice(p + 1);
          if (rest !== "") {
            out.opts.push({
              name: `-${c}`,
              value: { text: rest, dynamic: false, split: false, glob: false },
            });
          } else {
            const v = args[k + 1];
            k += 1;
            if (v === undefined) out.unknown.push(`-${c}`);
            else out.opts.push({ name: `-${c}`, value: v });
          }
          break;
        }
        if (spec.flags?.includes(c)) out.opts.push({ name: `-${c}` });
        else out.unknown.push(`-${c}`);
      }
      continue;
    }
    out.operands.push(w);
    if (spec.posix) optionsDone = true;
  }
  return out;
}

export function hasOpt(p: ParsedArgs, ...names: string[]): boolean {
  return p.opts.some((o) => names.includes(o.name));
}

export function optValues(p: ParsedArgs, ...names: string[]): Word[] {
  return p.opts.filter((o) => names.includes(o.name) && o.value !== undefined).map((o) => o.value as Word);
}
