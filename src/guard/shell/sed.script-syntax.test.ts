/**
 * How checkSedScript reads a script's syntax: tabs as blanks, every digit in addresses, steps and counts,
 * backslash-delimited addresses, and what may follow an `s` command. A script the reader misreads either hides
 * a `w`/`e` or refuses a harmless one; both are pinned with a near miss.
 */

import { describe, expect, it } from "vitest";
import { checkSedScript } from "./sed.js";

describe("checkSedScript reads these harmless scripts", () => {
  it.each<string>([
    // tabs are blanks, like spaces
    "s/a/b/\t",
    "1\tp",
    "1,\t3p",
    // every digit, 9 included, in line numbers, steps and counts
    "9p",
    "19p",
    "0~9p",
    "2~0p",
    "q9",
    "l 9",
    "s/a/b/10",
    "s/a/b/9",
    // a newline after an `s` command or a numeric argument ends it
    "s/a/b/\np",
    "s/a/b/g\np",
    "q\n/x/p",
    "l 5\n/x/p",
    // a backslash-delimited address after another command
    "p\n\\%x%p",
  ])("%j", (script) => {
    expect(checkSedScript(script)).toEqual({ ok: true });
  });
});

describe("checkSedScript refuses", () => {
  it.each<[string, string]>([
    // a newline cannot delimit an address
    ["\\\nx\np", "an unterminated address"],
    // a comment cannot follow an address or a step
    ["0~3#x", "an unknown sed command `#`"],
    ["1#x", "an unknown sed command `#`"],
    // an unknown flag after `s`, even after a tab
    ["s/a/b/\tx", "an unknown `s` flag `x`"],
  ])("%j: %s", (script, why) => {
    expect(checkSedScript(script)).toEqual({ ok: false, writes: false, why });
  });

  it("a write hidden behind a step or a count is still found", () => {
    expect(checkSedScript("0~3w out")).toEqual({
      ok: false,
      writes: true,
      why: "the sed command `w` writes a file",
    });
    expect(checkSedScript("q5\nw out")).toEqual({
      ok: false,
      writes: true,
      why: "the sed command `w` writes a file",
    });
    expect(checkSedScript("s/a/b/10w out")).toEqual({
      ok: false,
      writes: true,
      why: "the `s///w` flag writes a file",
    });
  });
});
