/**
 * Option values at the edges of a command line (see ./test-cx.ts for the notation): an option that takes a value
 * but ends the line names no file (the command fails before writing), and a value made of dashes is still the
 * value (`sed -i--` keeps a backup named FILE--), not a long option.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { runHandler } from "./test-cx.js";

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

describe("a value option at the end of the line", () => {
  check([
    ["find . -fprintf", []],
    ["find . -fprintf out", ["write out@/r"]],
    ["tar cf", ["shell-unclassified: `tar` with the option `-f`"]],
    ["tar xf", ["shell-unclassified: `tar` with the option `-f`"]],
    ["tar cf a.tar x", ["write a.tar@/r"]],
    // old-style letters: `C` finds no word left for its value, so no mode letter follows as an option
    ["tar fCx a.tar", ["shell-unclassified: tar without a recognised mode"]],
    ["tar tf a.tar", []],
    ["curl --output", ["exec: curl reaches the network; use the host's web fetch tool"]],
    ["curl --out", ["exec: curl reaches the network; use the host's web fetch tool"]],
  ]);
});

describe("sed -i with a suffix of dashes", () => {
  check([
    ["sed -i-- s/a/b/ f", ["write f@/r", "write f--@/r"]],
    ["sed -i- s/a/b/ f", ["write f@/r", "write f-@/r"]],
    ["sed -ni-- p f", ["write f@/r", "write f--@/r"]],
    ["sed --in-place=-- s/a/b/ f", ["write f@/r", "write f--@/r"]],
  ]);
});
