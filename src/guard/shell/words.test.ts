import { describe, expect, it } from "vitest";
import { DYN, word } from "./parse.js";
import { QUOTED } from "./prescan.js";
import { mayBecomeOption } from "./words.js";

const unquoted = (name: string) => `${DYN}${name}${DYN}`;
const quoted = (name: string) => `${DYN}${QUOTED}${name}${DYN}`;

describe("mayBecomeOption: an unknown word that could still be an option", () => {
  it.each([
    ["an unquoted expansion ($x)", word(unquoted("x"))],
    ['a quoted expansion at the start ("$x")', word(quoted("x"))],
    ["a glob starting with a wildcard (*)", word("*", true)],
    ["an expansion after a dash (-$x)", word(`-${unquoted("x")}`)],
  ])("%s", (_why, w) => {
    expect(mayBecomeOption(w)).toBe(true);
  });

  it.each([
    ["a literal option is known, not unknown (-i)", word("-i")],
    ["a literal operand (file.txt)", word("file.txt")],
    ['a quoted expansion after a fixed prefix ("a$x")', word(`a${quoted("x")}`)],
    ["a glob that starts with a fixed character (src/*.ts)", word("src/*.ts", true)],
  ])("near miss: %s", (_why, w) => {
    expect(mayBecomeOption(w)).toBe(false);
  });
});
