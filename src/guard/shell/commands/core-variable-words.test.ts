/**
 * Variable and glob words where an option would change what fd and dd do (see ./test-cx.ts for the notation):
 * a word that may expand into an option (unquoted, so it may split; a leading expansion; a glob) is refused, and
 * a quoted word that starts with a letter stays one operand.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { runHandler } from "./test-cx.js";

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

const FD_EXEC = "shell-unclassified: a variable argument may expand into `fd --exec`";
const DD_VAR = "write-unknown: `dd` with a variable operand";

describe("fd: a variable word may be --exec", () => {
  check([
    ['fd "a$x" src', []],
    ["fd a$x src", [FD_EXEC]],
    ["fd $x", [FD_EXEC]],
    ["fd *.ts", [FD_EXEC]],
  ]);
});

describe("dd: a variable operand may be of=FILE", () => {
  check([
    ['dd if=a "b$x"', []],
    ["dd if=a b$x", [DD_VAR]],
    ["dd if=a *", [DD_VAR]],
    ["dd if=a $x", [DD_VAR]],
    ['dd "of=$x"', [DD_VAR]],
    ["dd if=a", []],
  ]);
});
