// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * parseShell on its own: per simple command its assignments, words (globs and split expansions marked),
 * redirects, here-documents and pipeline position; or the reason it refuses. Summaries list assignments, words,
 * `<op><target>` redirects, then `heredocs:N`, `stdin`, `piped` and `subshell` flags.
 */

import { describe, expect, it } from "vitest";
import { parseShell, type SimpleCommand, showWord } from "./parse.js";

const summary = (c: SimpleCommand): string =>
  [
    ...c.assignments.map((a) => `${a.name}=${showWord(a.value)}`),
    ...c.words.map((w) => showWord(w) + (w.glob ? "(glob)" : "") + (w.split ? "(split)" : "")),
    ...c.redirects.map((r) => `${r.op}${showWord(r.target)}${r.target.glob ? "(glob)" : ""}`),
    ...(c.heredocs.length > 0 ? [`heredocs:${c.heredocs.length}`] : []),
    ...(c.stdinRedirected ? ["stdin"] : []),
    ...(c.pipedIn ? ["piped"] : []),
    ...(c.subshell ? ["subshell"] : []),
  ].join(" ");

describe("parseShell", () => {
  it.each<[string, string[] | { why: string; hint: string }]>([
    [
      "echo $1a",
      {
        why: "the expansion `${1a}` is not a plain variable",
        hint: "write the value literally, or use plain `$NAME`",
      },
    ],
    ["echo a >", { why: "the redirect `>` has no target", hint: "give it a file" }],
    ["a | | b", { why: "an empty pipeline stage", hint: "check the `|` operators" }],
    ["cat < *.ts", ["cat <*.ts(glob) stdin"]],
    ["cat <> f", ["cat <>f"]],
    ["a & b", ["a subshell", "b"]],
    ["a |& b", ["a subshell", "b piped subshell"]],
    ["a | b | c", ["a subshell", "b piped subshell", "c piped subshell"]],
    ["a | b &", ["a subshell", "b piped subshell"]],
    ["cd x &", ["cd x subshell"]],
    ["x=1 y=$v cmd", ["x=1 y=$v cmd"]],
    ["cmd x=1", ["cmd x=1"]],
    ["*=1 cmd", ["*=1(glob) cmd"]],
    [
      "a=(1 2)",
      {
        why: "subshells, `( … )` grouping, `$(…)`, arithmetic and function definitions are not classified",
        hint: "run the commands one by one without parentheses",
      },
    ],
    ['echo "$x" $y *.ts', ["echo $x $y(split) *.ts(glob)"]],
    ["cat <<< word", ["cat <<<word stdin"]],
    ["cat <<E\nbody\nE", ["cat heredocs:1 stdin"]],
    ["cat <<E <<F\na\nE\nb\nF", ["cat heredocs:2 stdin"]],
    [
      "(a)",
      {
        why: "subshells, `( … )` grouping, `$(…)`, arithmetic and function definitions are not classified",
        hint: "run the commands one by one without parentheses",
      },
    ],
    ["a; b && c || d", ["a", "b", "c", "d"]],
    ["a >& 2", ["a >&2"]],
    ["a >| f", ["a >|f"]],
    ["a &>> f", ["a &>>f"]],
    [
      "f() { x; }",
      {
        why: "subshells, `( … )` grouping, `$(…)`, arithmetic and function definitions are not classified",
        hint: "run the commands one by one without parentheses",
      },
    ],
    [
      "a;;b",
      {
        why: "the shell operator `;;` is not classified",
        hint: "use simple commands joined by ;, &&, || or |",
      },
    ],
  ])("%j → %j", (src, expected) => {
    const r = parseShell(src);
    expect(r.ok ? r.commands.map(summary) : { why: r.why, hint: r.hint }).toEqual(expected);
  });
});
