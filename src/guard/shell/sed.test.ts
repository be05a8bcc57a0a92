import { describe, expect, it } from "vitest";
import { checkSedScript } from "./sed.js";

describe("checkSedScript", () => {
  it.each([
    "p",
    "1p",
    "1,20p",
    "$p",
    "/word/p",
    "/w/,/e/d",
    "\\%w%p",
    "s/a/b/",
    "s/a/b/g",
    "s/w/e/gI",
    "s|/w|/e|2",
    "s/a\\/w/b/",
    "y/abc/xyz/",
    "0~3d",
    "1!G;h;$!d",
    "/x/{p;q}",
    ":a;N;$!ba;s/\\n/ /g",
    "a\\\nappended",
    "i hello w",
    "r other.txt",
    "=",
    "l 40",
    "q5",
    "# comment w x\np",
    "",
    "0,/re/d",
    "1,+3p",
    "5,~4p",
    "2~3p",
    "/a/I,/b/Mp",
    "\\,x,p",
    "/x/ ! p",
    "1!{p}",
    "y/a\\/b/x\\/y/",
    "s/a/b/3",
    "s/a/b/Mm",
    "s/a/b/ ; p",
    "1{s/a/b/}",
    "s/a/b/#c",
    "l",
    "Q 3",
    "b end; :end",
    "T x",
    "v 4.2",
    "R other",
    "F;z;x;g;G;h;H;n;N;D;P",
    "a\\\n  text \\\n  more",
    "i\\\ntext w file",
    "$!N",
  ])("reads %j as harmless", (script) => {
    expect(checkSedScript(script)).toEqual({ ok: true });
  });

  it.each([
    ["w out", true],
    ["1w out", true],
    ["/x/W out", true],
    ["s/a/b/w out", true],
    ["s/a/b/gw out", true],
    ["p;w out", true],
    ["e ls", false],
    ["s/a/ls/e", false],
    ["1{w out\n}", true],
  ])("refuses %j (writes: %s)", (script, writes) => {
    const r = checkSedScript(script);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.writes).toBe(writes);
  });

  it.each([
    "s/a/b",
    "s/a/b/x",
    "k",
    "{p",
    "p}",
    "/unterminated",
    "s",
    "s\nx\ny\n",
    "s\\a\\b\\",
    "y/a/",
    "\\",
    "\\\n",
    ",p",
    "1,",
    "/a\nb/p",
    "1~",
  ])("refuses the malformed %j", (script) => {
    expect(checkSedScript(script).ok).toBe(false);
  });
});

describe("checkSedScript names what it refuses", () => {
  const W = "the sed command `w` writes a file";
  const SW = "the `s///w` flag writes a file";
  // A write after an address, a bang, a label, appended text or a comment is still a write: the reader must
  // skip each of those exactly, or the `w` would be read as part of them.
  it.each<[string, boolean, string]>([
    ["w out", true, W],
    ["/x/W out", true, "the sed command `W` writes a file"],
    ["1,+3w x", true, W],
    ["1~2w x", true, W],
    ["0~4w x", true, W],
    ["/a/I,$w x", true, W],
    ["\\,x,w y", true, W],
    ["1 , 3w x", true, W],
    ["1! w x", true, W],
    [" \tw x", true, W],
    ["y/a/b/w", true, W],
    ["l 5w x", true, W],
    ["b x;w y", true, W],
    ["t x\nw y", true, W],
    ["a\\\nx\nw y", true, W],
    ["r x\nw y", true, W],
    ["#x\nw y", true, W],
    ["s/a/b/;w x", true, W],
    ["s/a/b/gw out", true, SW],
    ["s/a/b/pw x", true, SW],
    ["s/a/b/9w x", true, SW],
    ["s/a\\/w/b/w x", true, SW],
    ["s,a,b,w x", true, SW],
    ["e ls", false, "the sed command `e` runs a shell command"],
    ["s/a/ls/e", false, "the `s///e` flag runs the pattern space as a command"],
    ["s/a/b/ w", false, "an unknown `s` flag `w`"],
    ["s/a/b/x", false, "an unknown `s` flag `x`"],
    ["s/a/b", false, "an unterminated `s` command"],
    ["y/a/", false, "an unterminated `y` command"],
    ["s", false, "a malformed `s` command"],
    ["s\nx\ny\n", false, "a malformed `s` command"],
    ["s\\a\\b\\", false, "a malformed `s` command"],
    ["k", false, "an unknown sed command `k`"],
    ["{p", false, "unbalanced braces"],
    ["p}", false, "an unmatched }"],
    ["/unterminated", false, "an unterminated address"],
    ["/a\nb/p", false, "an unterminated address"],
    ["\\", false, "an unterminated address"],
    ["\\\n", false, "an unterminated address"],
    [",p", false, "an empty address"],
    ["1,", false, "an address without a command"],
    ["1~", false, "an address without a command"],
  ])("%j → writes: %s, %s", (script, writes, why) => {
    expect(checkSedScript(script)).toEqual({ ok: false, writes, why });
  });
});

describe("checkSedScript at the end of a script", () => {
  it.each(["p;", "p\n", "1,/x/p"])("reads %j as harmless", (script) => {
    expect(checkSedScript(script)).toEqual({ ok: true });
  });
  it("refuses an unterminated second address", () => {
    expect(checkSedScript("1,/x")).toEqual({ ok: false, writes: false, why: "an unterminated address" });
  });
});
