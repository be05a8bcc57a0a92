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
