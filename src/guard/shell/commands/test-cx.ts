/**
 * Test support for the command handlers: calls one handler directly with words written in a compact shell-like
 * notation, and summarises the effects it returns. Nested commands (`cx.sub`, `cx.script`) are not classified
 * here; the summary shows what the handler handed on, so a handler test pins only the handler's own reading.
 *
 * Notation, one word per space-separated token:
 * - `$x` anywhere in a token is an unquoted expansion (it may split into several words);
 * - a token wrapped in double quotes is one quoted word: `"$x"` is a quoted expansion, `"a b"` a literal;
 * - `*` or `?` makes the token an unquoted glob; `''` is the empty word.
 */

import type { CmdCx, HandlerTable } from "../context.js";
import type { Effect } from "../effects.js";
import { DYN, showWord, showWords, type Word, word } from "../parse.js";
import { QUOTED } from "../prescan.js";

function tokens(line: string): string[] {
  const out: string[] = [];
  const re = /"[^"]*"|\S+/g;
  for (const m of line.matchAll(re)) out.push(m[0]);
  return out;
}

function toWord(token: string): Word {
  if (token === "''") return word("");
  const quoted = token.length >= 2 && token.startsWith('"') && token.endsWith('"');
  const body = quoted ? token.slice(1, -1) : token;
  const text = body.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) =>
    quoted ? `${DYN}${QUOTED}${name}${DYN}` : `${DYN}${name}${DYN}`,
  );
  return word(text, !quoted && /[*?]/.test(body));
}

export function summary(e: Effect): string {
  switch (e.kind) {
    case "write":
      return `write ${showWord(e.target)}${e.dir ? "/" : ""}${e.sink ? " (sink)" : ""}@${e.cwds.map((c) => c ?? "?").join("|")}`;
    case "deny":
      return `${e.rule.replace("guard.", "")}: ${e.why}`;
    case "env":
      return `env ${e.name}`;
    case "test":
      return "test";
    default:
      return `${e.kind}: ${e.why}`;
  }
}

export interface RunOptions {
  cwds?: (string | null)[];
  stdinFed?: boolean;
  pipedIn?: boolean;
  heredocs?: { body: string; expands: boolean }[];
  hasLocalBin?: (name: string) => boolean;
  /** The nested command reads only (its classification is empty) instead of being shown as `sub …`. */
  readOnlySub?: boolean;
}

/** Runs `line`'s first word's handler from `table` on the rest of the words; returns the summarised effects. */
export function runHandler(table: HandlerTable, line: string, opts: RunOptions = {}): string[] {
  return handlerEffects(table, line, opts).map(summary);
}

/** The hints of the refusals `line`'s handler returns, in order. */
export function refusalHints(table: HandlerTable, line: string, opts: RunOptions = {}): string[] {
  return handlerEffects(table, line, opts).flatMap((e) => (e.kind === "deny" ? [e.hint] : []));
}

function handlerEffects(table: HandlerTable, line: string, opts: RunOptions): Effect[] {
  const [name = "", ...rest] = tokens(line);
  const handler = table.get(name);
  if (!handler) throw new Error(`no handler for ${name}`);
  const cwds = opts.cwds ?? ["/r"];
  const cx: CmdCx = {
    what: line,
    cwds,
    stdinFed: opts.stdinFed ?? false,
    heredocs: opts.heredocs ?? [],
    pipedIn: opts.pipedIn ?? false,
    hasLocalBin: opts.hasLocalBin,
    sub: (argv, innerCwds) =>
      opts.readOnlySub
        ? []
        : [
            {
              kind: "exec",
              what: line,
              why: `sub ${showWords(argv)} @${(innerCwds ?? cwds).map((c) => c ?? "?").join("|")}`,
            },
          ],
    script: (text) => [{ kind: "exec", what: line, why: `script ${text}` }],
  };
  return handler(rest.map(toWord), cx, name);
}
