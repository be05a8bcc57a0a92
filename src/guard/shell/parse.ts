/**
 * Shell command → list of simple commands, using the maintained `shell-quote` tokeniser on the output of the
 * lexical pre-pass (see ./prescan.ts). The structure kept is what the policy needs: per simple command its
 * assignments, words (argv), redirects and here-document input, and whether it runs inside a pipeline or in
 * the background. Anything the parse cannot represent faithfully (subshells, grouping with parentheses,
 * `case` arms, process substitution, complex expansions) is refused with a reason.
 */

import { parse as shellParse } from "shell-quote";
import { GLOB_BRACKET, HEREDOC_WORD, type Heredoc, prescan, QUOTED } from "./prescan.js";

/** Marks where a variable expansion sat inside a word; the pre-pass rejects NUL in the input, so it is unique. */
export const DYN = "\u0000";

export interface Word {
  /**
   * The word after quote removal. A variable expansion appears as `\0name\0` (`\0\x01name\0` when it was
   * double-quoted), a glob bracket as U+E000.
   */
  text: string;
  /** Contains a variable expansion: its value is not known to the guard. */
  dynamic: boolean;
  /** Contains an unquoted expansion (or `$@`/`$*`): it may split into any number of words, options included. */
  split: boolean;
  /** Contains an unquoted glob (`*`, `?`, `[…]`): it may expand to other words. */
  glob: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
}

export interface SimpleCommand {
  assignments: { name: string; value: Word }[];
  words: Word[];
  redirects: Redirect[];
  /** Here-document bodies feeding this command's stdin, in order. */
  heredocs: Heredoc[];
  /** Has a here-string (`<<<`), a here-document or a `<` input redirect. */
  stdinRedirected: boolean;
  /** Reads the previous command's output through a pipe. */
  pipedIn: boolean;
  /** Part of a pipeline or backgrounded: runs in a subshell, so `cd` does not persist. */
  subshell: boolean;
}

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; why: string; hint: string };

const SEPARATORS = new Set([";", "&&", "||", "|", "|&", "&"]);
const REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<", "<<", "<<-", "<<<", "<&", "<>"]);
const VAR_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

export function word(text: string, glob = false): Word {
  const g = glob || text.includes(GLOB_BRACKET);
  let split = false;
  const parts = text.split(DYN);
  for (let k = 1; k < parts.length; k += 2) {
    const name = parts[k] as string;
    if (!name.startsWith(QUOTED) || name === `${QUOTED}@` || name === `${QUOTED}*`) split = true;
  }
  return { text, dynamic: parts.length > 1, split, glob: g };
}

/** Human-readable form of a word: expansions as `$name`, glob brackets as `[`. */
export function showWord(w: Word): string {
  let s = "";
  let inVar = false;
  for (const ch of w.text) {
    if (ch === DYN) {
      s += inVar ? "" : "$";
      inVar = !inVar;
    } else if (ch === QUOTED) {
      // dropped: only marks a double-quoted expansion
    } else if (ch === GLOB_BRACKET) {
      s += "[";
    } else {
      s += ch;
    }
  }
  return s;
}

export function showWords(ws: readonly Word[]): string {
  return ws.map(showWord).join(" ");
}

function emptyCommand(): SimpleCommand {
  return {
    assignments: [],
    words: [],
    redirects: [],
    heredocs: [],
    stdinRedirected: false,
    pipedIn: false,
    subshell: false,
  };
}

export function parseShell(src: string): ParseResult {
  const pre = prescan(src);
  if (!pre.ok) return pre;
  const badVars: string[] = [];
  let tokens: unknown[];
  try {
    tokens = shellParse(pre.text, (name: string) => {
      const bare = name.startsWith(QUOTED) ? name.slice(1) : name;
      if (bare !== "" && !VAR_NAME.test(bare)) badVars.push(bare);
      return `${DYN}${name}${DYN}`;
    });
  } catch (e) {
    return { ok: false, why: `the shell parser rejected it (${(e as Error).message})`, hint: "simplify it" };
  }
  if (badVars.length > 0) {
    return {
      ok: false,
      why: `the expansion \`\${${badVars[0]}}\` is not a plain variable`,
      hint: "write the value literally, or use plain `$NAME`",
    };
  }
  return commandsFromTokens(tokens, pre.heredocs);
}

/**
 * `shell-quote` tokens (of the pre-pass output) and the here-document bodies the pre-pass cut out → simple
 * commands. Any token of a shape the tokeniser is not known to produce is refused, so a change in the
 * tokeniser fails closed (exported so those shapes can be tested).
 */
export function commandsFromTokens(tokens: readonly unknown[], bodies: readonly Heredoc[]): ParseResult {
  const heredocs = [...bodies];
  const commands: SimpleCommand[] = [];
  let cur = emptyCommand();
  let pipedIn = false;
  const finish = (sep: string | null) => {
    const piped = sep === "|" || sep === "|&";
    cur.pipedIn = pipedIn;
    if (piped || pipedIn) cur.subshell = true; // a backgrounded command is marked where `&` is read
    if (cur.words.length > 0 || cur.assignments.length > 0 || cur.redirects.length > 0) commands.push(cur);
    pipedIn = piped;
    cur = emptyCommand();
  };
  for (let k = 0; k < tokens.length; k += 1) {
    const t = tokens[k];
    if (typeof t === "string") {
      const w = word(t);
      const m = ASSIGNMENT.exec(t);
      if (cur.words.length === 0 && m && !w.glob) {
        cur.assignments.push({ name: m[1] as string, value: word(t.slice(m[0].length)) });
      } else {
        cur.words.push(w);
      }
      continue;
    }
    if (t === null || typeof t !== "object") {
      return { ok: false, why: "unexpected token", hint: "simplify the command" };
    }
    if ("comment" in t) {
      return { ok: false, why: "an unexpected comment token", hint: "put comments on their own line" };
    }
    const op = (t as { op?: unknown }).op;
    if (typeof op !== "string") return { ok: false, why: "unexpected token", hint: "simplify the command" };
    if (op === "glob") {
      cur.words.push(word(String((t as { pattern?: unknown }).pattern ?? ""), true));
      continue;
    }
    if (SEPARATORS.has(op)) {
      if (pipedIn && (op === "|" || op === "|&") && cur.words.length === 0 && cur.redirects.length === 0) {
        return { ok: false, why: "an empty pipeline stage", hint: "check the `|` operators" };
      }
      // `cd x &` and the last stage of `a | b &` run in the background, in a subshell.
      if (op === "&") cur.subshell = true;
      finish(op);
      continue;
    }
    if (REDIRECTS.has(op)) {
      const next = tokens[k + 1];
      let target: Word | undefined;
      if (typeof next === "string") target = word(next);
      else if (next !== null && typeof next === "object" && (next as { op?: unknown }).op === "glob") {
        target = word(String((next as { pattern?: unknown }).pattern ?? ""), true);
      }
      if (!target) {
        return { ok: false, why: `the redirect \`${op}\` has no target`, hint: "give it a file" };
      }
      k += 1;
      if (op === "<<" || op === "<<-") {
        const body = heredocs.shift();
        if (!body || target.text !== HEREDOC_WORD) {
          return {
            ok: false,
            why: "a here-document could not be matched",
            hint: "use a plain <<'EOF' … EOF",
          };
        }
        cur.heredocs.push(body);
        cur.stdinRedirected = true;
        continue;
      }
      if (op === "<<<" || op === "<") cur.stdinRedirected = true;
      cur.redirects.push({ op, target });
      continue;
    }
    if (op === "(" || op === ")") {
      return {
        ok: false,
        why: "subshells, `( … )` grouping, `$(…)`, arithmetic and function definitions are not classified",
        hint: "run the commands one by one without parentheses",
      };
    }
    return {
      ok: false,
      why: `the shell operator \`${op}\` is not classified`,
      hint: "use simple commands joined by ;, &&, || or |",
    };
  }
  finish(null);
  if (heredocs.length > 0) {
    return { ok: false, why: "a here-document could not be matched", hint: "use a plain <<'EOF' … EOF" };
  }
  return { ok: true, commands };
}
