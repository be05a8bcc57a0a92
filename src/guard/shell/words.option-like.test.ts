/**
 * Which words may be options: a literal `-x`, an expansion, a split word or a leading wildcard (`mayBeOption`),
 * the unknown ones among them (`mayBecomeOption`), and a literal option that changes what `printf` does.
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "./classify.js";
import { word } from "./parse.js";
import { GLOB_BRACKET } from "./prescan.js";
import { mayBecomeOption, mayBeOption } from "./words.js";

describe("mayBeOption", () => {
  it.each<[string, boolean, boolean]>([
    ["-x", false, true],
    ["--", false, true],
    ["-", false, true],
    ["x", false, false],
    ["x-", false, false],
    ["\u0000x\u0000", false, true],
    ["a\u0000x\u0000", false, true],
    ["a\u0000\u0001x\u0000", false, false],
    ["*", true, true],
    ["?x", true, true],
    [`${GLOB_BRACKET}a]`, true, true],
    ["x*", true, false],
  ])("%j (glob %s) → %s", (text, glob, expected) => {
    expect(mayBeOption(word(text, glob))).toBe(expected);
  });

  it("mayBecomeOption is only for words whose text is not known", () => {
    expect(mayBecomeOption(word("-x"))).toBe(false);
    expect(mayBecomeOption(word("\u0000x\u0000"))).toBe(true);
    expect(mayBecomeOption(word("*", true))).toBe(true);
    expect(mayBecomeOption(word("x*", true))).toBe(false);
  });
});

describe("a literal option where one option changes what a command does", () => {
  it.each<[string, string[]]>([
    // `printf -vNAME` assigns through a name; any option-like first word is refused
    ["printf -vx y", ["guard.shell-unclassified"]],
    ["printf -v x y", ["guard.shell-unclassified"]],
    ["printf -- x", []],
    ["printf x -v", []],
  ])("%j → %j", (command, expected) => {
    expect(classifyShell(command, { cwd: "/r" }).map((e) => (e.kind === "deny" ? e.rule : e.kind))).toEqual(
      expected,
    );
  });
});
