// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * How parseShell reads the tokeniser's output into commands. Input the pre-pass lets through but the tokeniser
 * reads differently (a descriptor number glued between two redirect operators, a brace joined by a line
 * continuation) is refused, as bash rejects it, never read as something else. Escaped commas and dots inside
 * braces are literal; a pipeline stage of only redirects is a command and an empty one is refused; a
 * backgrounded command runs in a subshell; a lone `$` is an unknown word; showWord shows globs and expansions;
 * token shapes the tokeniser does not produce today are refused. Each with a near miss.
 */

import { describe, expect, it } from "vitest";
import { commandsFromTokens, parseShell, showWord } from "./parse.js";

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

describe("parseShell: a lone `$`", () => {
  it.each<string>(["echo $", 'echo "$"', "echo a$ b"])("%j is an unknown word, not a refusal", (src) => {
    const r = parseShell(src);
    expect(r.ok && r.commands[0]?.words[1]?.dynamic).toBe(true);
  });
});

describe("showWord", () => {
  it("shows glob brackets as `[` and expansions as `$name`", () => {
    const r = parseShell('cat [ab]x "$v" > [cd]');
    if (!r.ok) throw new Error(r.why);
    const c = r.commands[0];
    expect(c?.words.map(showWord)).toEqual(["cat", "[ab]x", "$v"]);
    expect(c?.redirects.map((x) => showWord(x.target))).toEqual(["[cd]"]);
  });
});

describe("commandsFromTokens: token shapes the tokeniser does not produce today are refused", () => {
  const UNEXPECTED = { ok: false, why: "unexpected token", hint: "simplify the command" };
  it.each<[string, unknown[]]>([
    ["null", ["ls", null]],
    ["a number", ["ls", 3]],
    ["undefined", [undefined]],
    ["an op that is not a string", ["ls", { op: 5 }]],
    ["an object without op", ["ls", {}]],
  ])("%s", (_label, tokens) => {
    expect(commandsFromTokens(tokens, [])).toEqual(UNEXPECTED);
  });

  it("a comment token", () => {
    expect(commandsFromTokens(["ls", { comment: " > out" }], [])).toEqual({
      ok: false,
      why: "an unexpected comment token",
      hint: "put comments on their own line",
    });
  });

  it("a glob without a pattern is an empty glob word, as a word or a redirect target", () => {
    const r = commandsFromTokens(["ls", { op: "glob" }, { op: ">" }, { op: "glob" }], []);
    expect(r.ok && r.commands[0]).toMatchObject({
      words: [{ text: "ls" }, { text: "", glob: true }],
      redirects: [{ op: ">", target: { text: "", glob: true } }],
    });
  });

  it("near miss: the tokens of a plain command", () => {
    expect(commandsFromTokens(["ls", "-l", { op: "&&" }, "pwd"], [])).toMatchObject({
      ok: true,
      commands: [{ words: [{ text: "ls" }, { text: "-l" }] }, { words: [{ text: "pwd" }] }],
    });
  });
});
