/**
 * Find the `devrites …` commands a pack text tells the model to run, and check them against the CLI's
 * command names. Only code is scanned: inline code spans and fenced code blocks, where a command is written
 * to be run. Prose that merely names devrites, paths such as `.devrites/…` and role names such as
 * `devrites-slice-wright` are not commands.
 */

export interface CommandMention {
  /** The words after `devrites` up to the first argument, flag or placeholder, e.g. `["result", "check"]`. */
  words: string[];
  /** 1-based line within the scanned text. */
  line: number;
  /** The mention as written, for messages. */
  text: string;
  /** Named through the launcher (`.devrites/bin/devrites …`), the one way a rite runs the CLI. */
  launcher: boolean;
}

/** How a rite runs the CLI: the launcher `devrites init` writes, relative to the repository's top level. */
export const LAUNCHER_PREFIX = ".devrites/bin/";

/**
 * `devrites` (or the launcher `.devrites/bin/devrites`) preceded by start, whitespace or a shell separator,
 * followed by whitespace and a word.
 */
const MENTION =
  /(?:^|[\s;&|(`$])(\.devrites\/bin\/)?devrites[ \t]+([a-z][a-z0-9-]*(?:[ \t]+[a-z][a-z0-9-]*)*)/g;

/** Code regions of markdown `text`: each fenced block line and each inline code span, with its line. */
export function codeSegments(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      const marker = (f[1] as string).slice(0, 3);
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      return;
    }
    if (fence !== undefined) {
      out.push({ text: line, line: i + 1 });
      return;
    }
    for (const m of line.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
      out.push({ text: m[2] as string, line: i + 1 });
    }
  });
  return out;
}

/** Every `devrites <words>` mention inside code in `text`. */
export function findCommandMentions(text: string): CommandMention[] {
  const out: CommandMention[] = [];
  for (const seg of codeSegments(text)) {
    for (const m of seg.text.matchAll(MENTION)) {
      const words = (m[2] as string).split(/[ \t]+/);
      const launcher = m[1] !== undefined;
      out.push({
        words,
        line: seg.line,
        text: `${launcher ? LAUNCHER_PREFIX : ""}devrites ${words.join(" ")}`,
        launcher,
      });
    }
  }
  return out;
}

/**
 * The longest known command whose words are a prefix of `words`, or undefined. `devrites resolve q-1` matches
 * `resolve`; `devrites result chek` matches nothing when only `result check` and `result record` exist.
 */
export function matchCommand(words: readonly string[], known: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const name of known) {
    const parts = name.split(" ");
    if (parts.length <= words.length && parts.every((p, i) => words[i] === p)) {
      if (!best || parts.length > best.split(" ").length) best = name;
    }
  }
  return best;
}

/** A command line a pack text tells the model to run, with its placeholders filled in. */
export interface CommandLine {
  /** The words after `devrites`, ready for the CLI's parser. */
  argv: string[];
  /** As written, for messages. */
  text: string;
  line: number;
}

/** The text of a code segment from `devrites` (or the launcher) to the end of the command. */
const LINE_START = /(?:^|[\s;&|(`$])(?:\.devrites\/bin\/)?devrites[ \t]+(?=[a-z])/g;

/**
 * Fill a command's placeholders the way a model following the rite would: optional parts `[…]` are taken,
 * `<a|b|c>` is its first choice, `<x>` a word `x`, and `…`/`...` repeats nothing. Stops at a pipe, a heredoc,
 * `&&`, `;` or a redirect.
 */
export function fillPlaceholders(written: string): string {
  let t = written;
  t = t.replace(/\s(?:\|\||&&|;|\||<<|>|2>).*$/, "");
  t = t.replace(/\[([^\]]*)\]/g, "$1");
  t = t.replace(/(?:\.\.\.|…)/g, "");
  t = t.replace(/<([^<>|]+)(?:\|[^<>]*)?>/g, (_m, first: string) => first.trim().replace(/\s+/g, "-"));
  return t.trim();
}

/**
 * Every devrites command line inside code in `text`, split into words with `split` (a shell parser, e.g.
 * shell-quote's, keeping only its string words).
 */
export function findCommandLines(text: string, split: (line: string) => string[]): CommandLine[] {
  const out: CommandLine[] = [];
  for (const seg of codeSegments(text)) {
    for (const m of seg.text.matchAll(LINE_START)) {
      const written = seg.text.slice((m.index ?? 0) + m[0].length);
      const argv = split(fillPlaceholders(written));
      if (argv.length === 0) continue;
      out.push({ argv, text: `devrites ${written.trim()}`, line: seg.line });
    }
  }
  return out;
}
