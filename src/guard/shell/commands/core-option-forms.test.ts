/**
 * Option forms the reworked handlers must read as the utility does (see ./test-cx.ts for the notation): `--` and a
 * bare `-` in date, `=` values against next-word values, `xargs --replace=STR` (only STR is replaced), `ln -s` with
 * a target directory (every operand is a link text), and the long flags GNU time accepts.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { runHandler } from "./test-cx.js";

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

const CLOCK = "exec: `date` sets the clock";
const LINK_OUT =
  "write-unknown: a symbolic link whose text is absolute, has `..` or is unknown may point outside the repository";

describe("date: `--`, `-` and values", () => {
  check([
    ["date -- +%s", []],
    ["date -- 0101", [CLOCK]],
    ["date -", [CLOCK]],
    // a value written with `=` leaves the next word an operand, and an operand without `+` sets the clock
    ["date --date=now 0101", [CLOCK]],
    ["date --date 0101 +%s", []],
    ["date --date=now +%s", []],
    // `--d` may be --date or --debug: the next word is not taken as its value
    ["date --d 0101", [CLOCK]],
    ["date --da 0101", []],
  ]);
});

describe("xargs --replace=STR replaces STR only", () => {
  check([
    ["xargs --replace=% echo {} %", ["exec: sub echo {} $xargs @/r"]],
    ["xargs --replace echo {} %", ["exec: sub echo $xargs % @/r"]],
    ["xargs -I % echo {} %", ["exec: sub echo {} $xargs @/r"]],
  ]);
});

describe("ln -s with a target directory: every operand is a link text", () => {
  check([
    ["ln -s -t dir ok ../evil", [LINK_OUT]],
    ["ln -s --target-directory=dir ok ../evil", [LINK_OUT]],
    ["ln -s --target-directory dir ok /etc", [LINK_OUT]],
    ["ln -s ok ../evil", ["write ../evil@/r"]],
    ["ln -s -t dir ok fine", ["write dir/ok@/r", "write dir/fine@/r"]],
  ]);
});

describe("chmod: one mode word that looks like an option", () => {
  check([
    ["chmod -x f", ["write f@/r"]],
    ["chmod -x -- f", ["write f@/r"]],
    // a second one is read as an option, which chmod does not have
    ["chmod -x -w f", ["shell-unclassified: `chmod` with the option `-w`"]],
  ]);
});

describe("time: the long flags it accepts", () => {
  it.each(["portability", "quiet", "verbose", "append"])("time --%s rm a runs rm a", (o) => {
    expect(runHandler(CORE, `time --${o} rm a`)).toEqual(["exec: sub rm a @/r"]);
  });
  it.each(["version", "help"])("time --%s prints only", (o) => {
    expect(runHandler(CORE, `time --${o}`)).toEqual([]);
  });
  check([["time --porcelain rm a", ["shell-unclassified: `time` with the option `--porcelain`"]]]);
});
