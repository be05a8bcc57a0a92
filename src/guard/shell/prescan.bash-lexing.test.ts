// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * The pre-pass lexes as bash does: where a word starts (a `#` there begins a comment that would hide the rest
 * of the line, a digit there may be a descriptor, a `~` there is $HOME), braced parameters, where brace
 * expansion happens around quotes and unclosed braces, here-document tab handling, and glob brackets. Checked
 * through the classifier where a mistake would hide or invent a write, and on the pre-pass text where only the
 * rewriting is at stake.
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "./classify.js";
import type { Effect } from "./effects.js";
import { parseShell, showWord } from "./parse.js";
import { GLOB_BRACKET, prescan } from "./prescan.js";

function show(e: Effect): string {
  switch (e.kind) {
    case "write":
      return `write ${showWord(e.target)}${e.target.dynamic ? "(dynamic)" : ""}`;
    case "deny":
      return `${e.rule.replace("guard.", "")}: ${e.why}`;
    default:
      return e.kind;
  }
}
const run = (c: string) => classifyShell(c, { cwd: "/r" }).map(show);

function text(src: string): string {
  const r = prescan(src);
  if (!r.ok) throw new Error(`refused: ${r.why}`);
  return r.text;
}

describe("a `#` inside a word is a literal, so the redirect after it is still seen", () => {
  it.each<string>([
    "echo \\a#b > out",
    "echo $'a'#b > out",
    "echo $# > out",
    "echo a## > out",
    "echo ~#x > out",
    "echo {#x} > out",
    "echo [#] > out",
  ])("%j writes out", (command) => {
    expect(run(command)).toEqual(["write out"]);
  });

  it("near miss: a `#` that starts a word is a comment", () => {
    expect(run("echo a #b > out")).toEqual([]);
  });
});

describe("after a redirect operator a new word starts", () => {
  it.each<[string, string[]]>([
    // `#` there starts a comment, so the operator has no target: bash reports a syntax error.
    ["echo x >#y", ["shell-unclassified: the redirect `>` has no target"]],
    ["cat <<<#x", ["shell-unclassified: the redirect `<<<` has no target"]],
    // `~` there is the home directory: not a literal file name.
    ["echo x >~/f", ["write $HOME/f(dynamic)"]],
    ["echo x >>~", ["write $HOME(dynamic)"]],
    // near miss: inside a word `~` is literal
    ["echo x >a~", ["write a~"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("braced parameters", () => {
  it.each<string>(["echo ${A}", "echo ${Z}", "echo ${A1}", 'echo "${A}"'])(
    "%j is a plain variable",
    (src) => {
      const r = parseShell(src);
      expect(r.ok && r.commands[0]?.words[1]?.dynamic).toBe(true);
    },
  );
});

describe("brace expansion is detected only where bash performs it", () => {
  it.each<[string, string]>([
    // a quoted comma or dots are no list separator
    ["echo {a','b}", "{a,b}"],
    ['echo {a","b}', "{a,b}"],
    ["echo {a'..'b}", "{a..b}"],
    // without an opening brace, or without a closing one, nothing expands
    ["echo [a,b}", "[a,b}"],
    ["echo {a,b", "{a,b"],
    ["echo {a,bc", "{a,bc"],
    // a list separator before any `{` does not count, even when a `{` follows in the same word
    ["echo [x],y}{z", "[x],y}{z"],
    // an escaped dot is no range
    ["echo {a\\..b}", "{a..b}"],
    ["echo {\\..}", "{..}"],
  ])("%j is the literal word %j", (src, word) => {
    const r = parseShell(src);
    expect(r.ok && r.commands[0]?.words[1]?.text.replaceAll(GLOB_BRACKET, "[")).toBe(word);
  });

  it.each<string>(["echo {a,b}", "ls [a] {-i,x}", "ls x [a] y{1..2}", "echo [a]{b,c}"])(
    "%j is refused",
    (src) => {
      expect(prescan(src)).toMatchObject({ ok: false, why: expect.stringContaining("brace expansion") });
    },
  );
});

describe("here-documents and tabs", () => {
  it("`<<` keeps leading tabs: a tab-indented delimiter does not end the body", () => {
    // The indented `E` and `rm a` are body lines of `cat`, never run.
    expect(run("cat <<'E'\n\tE\nrm a\nE")).toEqual([]);
    const r = prescan("cat <<'E'\n\tx\nE");
    expect(r.ok && r.heredocs).toEqual([{ body: "\tx", expands: false }]);
  });

  it("`<<-` strips them", () => {
    expect(run("cat <<-'E'\n\tE\nrm a")).toEqual(["write a"]);
    const r = prescan("cat <<-'E'\n\tx\n\tE");
    expect(r.ok && r.heredocs).toEqual([{ body: "x", expands: false }]);
  });

  it("a tab may separate the operator from its delimiter", () => {
    const r = prescan("cat <<\tE\nx\nE");
    expect(r.ok && r.heredocs).toEqual([{ body: "x", expands: true }]);
  });
});

describe("glob brackets", () => {
  it.each<[string, string]>([
    // `[[` at a word start keeps its first bracket literal (it is the test keyword's spelling)
    ["[[x]]", `[${GLOB_BRACKET}x]]`],
    ["ls [[x]]", `ls [${GLOB_BRACKET}x]]`],
    // inside a word every `[` with a later `]` opens a glob bracket
    ["ls a[[x]]", `ls a${GLOB_BRACKET}${GLOB_BRACKET}x]]`],
    ["ls []]", `ls ${GLOB_BRACKET}]]`],
  ])("%j → %j", (src, out) => {
    expect(text(src)).toBe(out);
  });
});
