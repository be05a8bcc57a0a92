// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * parseShell's refusals for input the pre-pass lets through but the tokeniser then reads differently: a
 * descriptor number glued between two redirect operators, and a brace expansion joined by a line continuation.
 * bash rejects all of these as syntax errors; the guard must refuse them, never read them as something else.
 */

import { describe, expect, it } from "vitest";
import { parseShell } from "./parse.js";

const HEREDOC = { ok: false, why: "a here-document could not be matched", hint: "use a plain <<'EOF' … EOF" };

describe("parseShell: here-document operators the pre-pass did not make", () => {
  it.each<[string, string]>([
    // `<1<x`: the fd number is dropped, leaving `<<x`: a here-document operator without a body.
    ["a `<<` with no body", "cat <1<x"],
    // … and with a real here-document after it, the body belongs to the other operator.
    ["a `<<` whose word is not the pre-pass's", "cat <1<x <<E\nb\nE"],
    // `<1<<E`: the pre-pass cuts a body, but the tokeniser reads `<<<` (a here-string): a body left over.
    ["a body no operator takes", "cat <1<<E\nx\nE"],
    ["a body no operator takes, at the end", "cat <1<<E"],
    // one `<<` from each trick: the counts match, but the body went to the wrong operator
    ["a body taken by an operator the pre-pass did not make", "cat <1<x <1<<E\nb\nE"],
  ])("refuses %s", (_label, src) => {
    expect(parseShell(src)).toEqual(HEREDOC);
  });

  it("near miss: a plain here-document and a here-string parse", () => {
    const r = parseShell("cat <<E\nb\nE\ncat <<< x");
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.commands.map((c) => [c.heredocs.map((h) => h.body), c.stdinRedirected])).toEqual([
        [["b"], true],
        [[], true],
      ]);
    }
  });
});

describe("parseShell: tokeniser errors are refusals", () => {
  it("an unclosed brace after `$` and a line continuation", () => {
    expect(parseShell("echo $\\\n{x")).toEqual({
      ok: false,
      why: "the shell parser rejected it (Bad substitution: x)",
      hint: "simplify it",
    });
  });

  it("near miss: the closed form is the variable", () => {
    const r = parseShell("echo $\\\n{x}");
    expect(r.ok && r.commands[0]?.words.map((w) => w.dynamic)).toEqual([false, true]);
  });
});

describe("parseShell: escaped characters inside a word with braces or brackets", () => {
  it.each<[string, string]>([
    // An escaped comma is no list separator: `{a\,b}` is the literal word `{a,b}` in bash.
    ["echo {a\\,b}", "{a,b}"],
    ["echo x{a\\,b}y", "x{a,b}y"],
    ["echo {a\\.\\.b}", "{a..b}"],
  ])("%j reads as %j", (src, expected) => {
    const r = parseShell(src);
    expect(r.ok && r.commands[0]?.words[1]?.text).toBe(expected);
  });

  it("near miss: an unescaped comma is a brace expansion and refused", () => {
    expect(parseShell("echo {a,b}")).toMatchObject({
      ok: false,
      why: expect.stringContaining("brace expansion"),
    });
    expect(parseShell("echo {a\\,b,c}")).toMatchObject({
      ok: false,
      why: expect.stringContaining("brace expansion"),
    });
  });
});

describe("parseShell: pipeline stages", () => {
  it("a stage of only redirects is a command (it creates the file)", () => {
    const r = parseShell("a | >out | b");
    expect(r.ok && r.commands.map((c) => [c.words.length, c.redirects.map((x) => x.op), c.pipedIn])).toEqual([
      [1, [], false],
      [0, [">"], true],
      [1, [], true],
    ]);
  });

  it.each<string>(["a | | b", "a | |& b", "a |& | b", "a |& |& b"])("%j has an empty stage", (src) => {
    expect(parseShell(src)).toEqual({
      ok: false,
      why: "an empty pipeline stage",
      hint: "check the `|` operators",
    });
  });

  it("a backgrounded command runs in a subshell, the next one does not", () => {
    const r = parseShell("cd x & cd y; cd z");
    expect(r.ok && r.commands.map((c) => c.subshell)).toEqual([true, false, false]);
  });
});
