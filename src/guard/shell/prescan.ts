/**
 * Lexical pre-pass over a shell command, run before `shell-quote` tokenises it.
 *
 * `shell-quote` is a good tokeniser for quotes, escapes, variables and operators, but it does not model
 * everything bash does, and some of the gaps hide commands from a guard:
 *
 * - a newline is whitespace to it, so `cat a⏎rm b` would read as one `cat` command;
 * - a `#` anywhere in a word starts a comment, so in `echo a#b > out` the redirect would vanish;
 * - a comment runs to the end of the *string*, not the line;
 * - here-document bodies are tokenised as if they were commands;
 * - backticks and `$(…)` inside double quotes are plain text;
 * - `2>file` becomes the argument `2` and a redirect;
 * - brace expansion (`{-i,x}`) and tilde expansion are not performed;
 * - an unterminated quote silently drops the quote character.
 *
 * This pass walks the command once, tracking bash's quoting rules (single, double, ANSI-C `$'…'`, backslash),
 * and either rewrites the construct into something `shell-quote` reads the way bash would, or refuses:
 *
 * | construct                                  | action                                                      |
 * | ------------------------------------------ | ----------------------------------------------------------- |
 * | unquoted newline                           | becomes `;`                                                 |
 * | backslash-newline                          | removed (line continuation)                                 |
 * | `#` starting a word                        | comment removed up to the end of the line                   |
 * | `#` inside a word                          | escaped to `\#` (a literal, as in bash)                     |
 * | `N>`, `N<` (fd number)                     | the number is dropped: every fd redirected to a file writes |
 * | `<<DELIM` … `DELIM`                        | body cut out and returned in order; the operator remains    |
 * | `~` starting a word or after `=`/`:`        | becomes `${HOME}` so the word is dynamic                    |
 * | `[` with a later `]` in the same word       | marked as a glob bracket                                    |
 * | `$(…)`, `` `…` ``, `<(…)`, `>(…)`, `$[…]`   | refused: command substitution                               |
 * | `${…}` other than `${NAME}`                | refused: expansions like `${x@P}` or `${x:$(…)}` run code     |
 * | `{a,b}`, `{1..3}` (brace expansion)        | refused                                                     |
 * | unquoted-delimiter heredoc with `$(`/`` ` `` | refused                                                   |
 * | unterminated quote, NUL, reserved chars    | refused                                                     |
 */

export interface Heredoc {
  body: string;
  /** True when the delimiter was unquoted, so the body is subject to expansion. */
  expands: boolean;
}

export type PrescanResult =
  | { ok: true; text: string; heredocs: Heredoc[] }
  | { ok: false; why: string; hint: string };

/** Stands in for an unquoted `[` that opens a glob bracket expression; the tokens carry it through. */
export const GLOB_BRACKET = "\uE000";
/** The word the pre-pass leaves after a here-document operator in place of its delimiter. */
export const HEREDOC_WORD = "__devrites_heredoc__";
/** What an unquoted `~` becomes: an expansion, so the word is dynamic. */
const HOME_EXPANSION = "$" + "{HOME}";

const RESERVED_LOW = 0xe000;
const RESERVED_HIGH = 0xe0ff;
/** Characters that end an unquoted word. */
const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

function fail(why: string, hint: string): PrescanResult {
  return { ok: false, why, hint };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && (c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
}

function isNameChar(c: string | undefined): boolean {
  return isNameStart(c) || isDigit(c);
}

const SPECIAL_PARAMS = new Set(["@", "*", "#", "?", "$", "!", "-", "0"]);

/**
 * At `src[i] === "$"`, `src[i+1] === "{"`: accept only `${NAME}`, `${N}` and `${<special>}`.
 * Returns the index after the closing brace, or -1.
 */
function simpleBracedParam(src: string, i: number): number {
  let j = i + 2;
  const first = src[j];
  if (first !== undefined && SPECIAL_PARAMS.has(first)) {
    j += 1;
  } else if (isDigit(first)) {
    while (isDigit(src[j])) j += 1;
  } else if (isNameStart(first)) {
    while (isNameChar(src[j])) j += 1;
  } else {
    return -1;
  }
  return src[j] === "}" ? j + 1 : -1;
}

/**
 * Checks a `$` at `src[i]` (unquoted or inside double quotes). Returns the index to continue from and the
 * text to emit, or a failure.
 */
function dollar(src: string, i: number): { next: number; emit: string } | PrescanResult {
  const next = src[i + 1];
  if (next === "(") {
    return fail(
      "command substitution `$(…)` (or arithmetic `$((…))`) runs a command the guard cannot see",
      "run the inner command on its own and pass its output literally",
    );
  }
  if (next === "[") {
    return fail("arithmetic `$[…]` is not classified", "write the value literally");
  }
  if (next === "{") {
    const end = simpleBracedParam(src, i);
    if (end < 0) {
      return fail(
        "parameter expansion other than `$NAME` / braced NAME (e.g. `x:…`, `x@P`, `#x` in braces) can evaluate code",
        "write the value literally, or use plain `$NAME`",
      );
    }
    return { next: end, emit: src.slice(i, end) };
  }
  return { next: i + 1, emit: "$" };
}

/** Reads a double-quoted string starting at `src[i] === '"'`. */
function doubleQuoted(src: string, i: number): { next: number; emit: string } | PrescanResult {
  let out = '"';
  let j = i + 1;
  while (j < src.length) {
    const c = src[j] as string;
    if (c === "\\") {
      if (src[j + 1] === "\n") {
        j += 2;
        continue;
      }
      out += src.slice(j, j + 2);
      j += 2;
      continue;
    }
    if (c === '"') return { next: j + 1, emit: `${out}"` };
    if (c === "`") {
      return fail("a backtick command substitution runs a command the guard cannot see", "run it separately");
    }
    if (c === "$") {
      const d = dollar(src, j);
      if ("ok" in d) return d;
      out += quotedParam(src, j, d);
      j = d.next === j + 1 ? quotedParamEnd(src, j) : d.next;
      continue;
    }
    out += c;
    j += 1;
  }
  return fail("unterminated double quote", "close the quote");
}

/**
 * Inside double quotes an expansion is not word-split (except `$@` and `$*`). The pre-pass rewrites it to
 * `${<QUOTED>NAME}` so the classifier can tell `"$x"` (one word) from `$x` (any number of words).
 */
export const QUOTED = "\u0001";

/** End index of a plain `$NAME`, `$N` or `$<special>` at `src[i] === "$"` (i + 1 when none follows). */
function quotedParamEnd(src: string, i: number): number {
  const first = src[i + 1];
  if (isNameStart(first)) {
    let j = i + 2;
    while (isNameChar(src[j])) j += 1;
    return j;
  }
  if (isDigit(first) || (first !== undefined && SPECIAL_PARAMS.has(first))) return i + 2;
  return i + 1;
}

function quotedParam(src: string, i: number, d: { next: number; emit: string }): string {
  if (d.emit.startsWith("${")) return `\${${QUOTED}${d.emit.slice(2)}`;
  const end = quotedParamEnd(src, i);
  if (end === i + 1) return "$";
  return `\${${QUOTED}${src.slice(i + 1, end)}}`;
}

/** Reads `$'…'` starting at `src[i] === "$"`. */
function ansiQuoted(src: string, i: number): { next: number; emit: string } | PrescanResult {
  let j = i + 2;
  while (j < src.length) {
    const c = src[j];
    if (c === "\\") {
      j += 2;
      continue;
    }
    if (c === "'") return { next: j + 1, emit: src.slice(i, j + 1) };
    j += 1;
  }
  return fail("unterminated $'…' quote", "close the quote");
}

/** What one forward scan of the rest of a word found (quotes skipped). */
interface WordScan {
  /** Index just past the word. */
  end: number;
  /** An unquoted `{`, later `,` or `..`, later `}`: brace expansion (or something close enough to refuse). */
  braces: boolean;
  /** Index of the last unquoted `]` in the word, or -1. */
  lastBracket: number;
}

/** Scans from `i` to the end of the current unquoted word once; callers reuse it for the rest of the word. */
function scanWord(src: string, i: number): WordScan {
  let open = false;
  let list = false;
  let braces = false;
  let lastBracket = -1;
  let j = i;
  while (j < src.length) {
    const c = src[j] as string;
    if (WORD_END.has(c)) break;
    if (c === "\\") {
      j += 2;
      continue;
    }
    if (c === "'") {
      const end = src.indexOf("'", j + 1);
      if (end < 0) break;
      j = end + 1;
      continue;
    }
    if (c === '"') {
      j += 1;
      while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      j += 1;
      continue;
    }
    if (c === "{") open = true;
    else if (open && (c === "," || (c === "." && src[j + 1] === "."))) list = true;
    else if (c === "}" && list) braces = true;
    else if (c === "]") lastBracket = j;
    j += 1;
  }
  return { end: j, braces, lastBracket };
}

interface PendingHeredoc {
  delim: string;
  strip: boolean;
  expands: boolean;
}

/** Reads a here-document delimiter word starting at `src[i]`. */
function heredocDelimiter(src: string, i: number): { next: number; delim: string; quoted: boolean } | null {
  let j = i;
  let delim = "";
  let quoted = false;
  while (j < src.length && !WORD_END.has(src[j] as string)) {
    const c = src[j] as string;
    if (c === "'") {
      const end = src.indexOf("'", j + 1);
      if (end < 0) return null;
      delim += src.slice(j + 1, end);
      quoted = true;
      j = end + 1;
    } else if (c === '"') {
      quoted = true;
      j += 1;
      while (j < src.length && src[j] !== '"') {
        if (src[j] === "\\" && j + 1 < src.length) {
          delim += src[j + 1];
          j += 2;
        } else {
          delim += src[j];
          j += 1;
        }
      }
      if (j >= src.length) return null;
      j += 1;
    } else if (c === "\\") {
      quoted = true;
      if (j + 1 < src.length) delim += src[j + 1];
      j += 2;
    } else if (c === "$" || c === "`") {
      return null;
    } else {
      delim += c;
      j += 1;
    }
  }
  return delim === "" ? null : { next: j, delim, quoted };
}

/** Reads the bodies of pending here-documents starting at line start `i`. */
function heredocBodies(
  src: string,
  i: number,
  pending: PendingHeredoc[],
  into: Heredoc[],
): { next: number } | PrescanResult {
  let j = i;
  for (const p of pending) {
    const lines: string[] = [];
    for (;;) {
      if (j >= src.length) break;
      const nl = src.indexOf("\n", j);
      const end = nl < 0 ? src.length : nl;
      let line = src.slice(j, end);
      j = nl < 0 ? src.length : nl + 1;
      if (p.strip) {
        let k = 0;
        while (line[k] === "\t") k += 1;
        line = line.slice(k);
      }
      if (line === p.delim) break;
      lines.push(line);
    }
    const body = lines.join("\n");
    if (
      p.expands &&
      (body.includes("$(") || body.includes("`") || body.includes("${") || body.includes("$["))
    ) {
      return fail(
        "an unquoted here-document expands `$(…)`, backticks or braced expansions in its body, which can run commands",
        `quote the delimiter (<<'${p.delim}') so the body is literal`,
      );
    }
    into.push({ body, expands: p.expands });
  }
  return { next: j };
}

export function prescan(src: string): PrescanResult {
  for (let k = 0; k < src.length; k += 1) {
    const code = src.charCodeAt(k);
    if (code === 0 || code === 1)
      return fail("the command contains a NUL or SOH control character", "remove it");
    if (code >= RESERVED_LOW && code <= RESERVED_HIGH) {
      return fail("the command contains a private-use character the guard reserves", "remove it");
    }
  }
  const out: string[] = [];
  const heredocs: Heredoc[] = [];
  let pending: PendingHeredoc[] = [];
  let wordStart = true;
  /** The scan of the word being read, from its first `{` or `[`; reused until the word ends. */
  let scan: WordScan | null = null;
  /** The last significant chunk emitted was `;`, `&` or `|` (or nothing yet): a newline there continues. */
  let afterOperator = true;
  /** The previous unquoted character of the current word ("" at a word start). */
  let prev = "";
  let i = 0;
  const n = src.length;
  const emit = (s: string, startsWord: boolean, last: string) => {
    out.push(s);
    wordStart = startsWord;
    prev = startsWord ? "" : last;
    // Operators are emitted one character per chunk; an escaped `\;` is a two-character chunk, a word.
    const t = s.trim();
    if (t !== "") afterOperator = t === ";" || t === "&" || t === "|";
  };
  while (i < n) {
    const c = src[i] as string;
    if (c === "\\") {
      if (src[i + 1] === "\n") {
        i += 2;
        continue;
      }
      if (i + 1 >= n) {
        // A backslash at the very end is a literal backslash in bash (`tee \` writes a file named `\`).
        emit("\\\\", false, "\\");
        i += 1;
        continue;
      }
      emit(src.slice(i, i + 2), false, "\\");
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) return fail("unterminated single quote", "close the quote");
      emit(src.slice(i, end + 1), false, "'");
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const d = doubleQuoted(src, i);
      if ("ok" in d) return d;
      emit(d.emit, false, '"');
      i = d.next;
      continue;
    }
    if (c === "$") {
      if (src[i + 1] === "'") {
        const a = ansiQuoted(src, i);
        if ("ok" in a) return a;
        emit(a.emit, false, "'");
        i = a.next;
        continue;
      }
      const d = dollar(src, i);
      if ("ok" in d) return d;
      emit(d.emit, false, "$");
      i = d.next;
      continue;
    }
    if (c === "`") {
      return fail("a backtick command substitution runs a command the guard cannot see", "run it separately");
    }
    if (c === "#") {
      if (wordStart) {
        const nl = src.indexOf("\n", i);
        i = nl < 0 ? n : nl;
        continue;
      }
      emit("\\#", false, "#");
      i += 1;
      continue;
    }
    if (c === "\n") {
      // A newline ends a command, except after an operator that continues it (`&&`, `||`, `|`) or after an
      // explicit `;` / `&` — emitting `;` there would make `;;` or an empty command.
      emit(afterOperator ? " " : ";", true, "");
      i += 1;
      if (pending.length > 0) {
        const r = heredocBodies(src, i, pending, heredocs);
        if ("ok" in r) return r;
        i = r.next;
        pending = [];
      }
      continue;
    }
    if (c === "<") {
      if (src.startsWith("<<<", i)) {
        emit("<<<", true, "");
        i += 3;
        continue;
      }
      if (src[i + 1] === "<") {
        const strip = src[i + 2] === "-";
        let j = i + (strip ? 3 : 2);
        while (src[j] === " " || src[j] === "\t") j += 1;
        const d = heredocDelimiter(src, j);
        if (!d) {
          return fail("a here-document needs a plain delimiter word", "write it as <<'EOF' … EOF");
        }
        pending.push({ delim: d.delim, strip, expands: !d.quoted });
        emit(`${strip ? "<<-" : "<<"} ${HEREDOC_WORD}`, false, "_");
        i = d.next;
        continue;
      }
      if (src[i + 1] === "(") {
        return fail("process substitution `<(…)` runs a command the guard cannot see", "run it separately");
      }
      emit("<", true, "");
      i += 1;
      continue;
    }
    if (c === ">") {
      if (src[i + 1] === "(") {
        return fail("process substitution `>(…)` runs a command the guard cannot see", "run it separately");
      }
      emit(">", true, "");
      i += 1;
      continue;
    }
    if (wordStart && isDigit(c)) {
      let j = i;
      while (isDigit(src[j])) j += 1;
      if (src[j] === ">" || src[j] === "<") {
        i = j;
        continue;
      }
    }
    if (c === "~" && (wordStart || prev === "=" || prev === ":")) {
      emit(HOME_EXPANSION, false, "}");
      i += 1;
      continue;
    }
    if (c === "{") {
      if (scan === null || i >= scan.end) scan = scanWord(src, i);
      if (scan.braces) {
        return fail("brace expansion `{a,b}` / `{1..3}` is not classified", "write the expanded words out");
      }
      emit("{", false, "{");
      i += 1;
      continue;
    }
    if (c === "[") {
      if (scan === null || i >= scan.end) scan = scanWord(src, i);
      emit(scan.lastBracket > i && !wordStartOnlyBracket(src, i, wordStart) ? GLOB_BRACKET : "[", false, "[");
      i += 1;
      continue;
    }
    if (WORD_END.has(c)) {
      emit(c, true, "");
      i += 1;
      continue;
    }
    emit(c, false, c);
    i += 1;
  }
  if (pending.length > 0) {
    for (const p of pending) heredocs.push({ body: "", expands: p.expands });
  }
  return { ok: true, text: out.join(""), heredocs };
}

/** `[[` and a lone `[` are the test commands, not glob brackets. */
function wordStartOnlyBracket(src: string, i: number, wordStart: boolean): boolean {
  if (!wordStart) return false;
  const next = src[i + 1];
  return next === "[" || next === undefined || WORD_END.has(next);
}
