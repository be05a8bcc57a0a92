// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GLOB_BRACKET, HEREDOC_WORD, prescan } from "./prescan.js";

function text(src: string): string {
  const r = prescan(src);
  if (!r.ok) throw new Error(`refused: ${r.why}`);
  return r.text;
}

describe("prescan rewrites what shell-quote would misread", () => {
  it.each([
    ["a\nb", "a;b"],
    ["a &&\nb", "a && b"],
    ["a |\nb", "a | b"],
    ["a;\nb", "a; b"],
    ["a \\\nb", "a b"],
    ["ls # comment > x\nrm y", "ls ;rm y"],
    ["#!/bin/sh\nls", " ls"],
    ["echo a#b", "echo a\\#b"],
    ["echo 'a#b' \"c#d\"", "echo 'a#b' \"c#d\""],
    ["ls 2>/dev/null", "ls >/dev/null"],
    ["ls 2>&1", "ls >&1"],
    ["echo 2 > f", "echo 2 > f"],
    ["cat ~/x", "cat ${HOME}/x"],
    ["X=~ cmd", "X=${HOME} cmd"],
    ["echo a~b '~'", "echo a~b '~'"],
    ["ls [ab]x", `ls ${GLOB_BRACKET}ab]x`],
    ["[ -f x ]", "[ -f x ]"],
    ["[[ -f x ]]", "[[ -f x ]]"],
    ["echo '[ab]'", "echo '[ab]'"],
    ["git log @{u}", "git log @{u}"],
    ["find . -exec ls {} \\;", "find . -exec ls {} \\;"],
    ['echo "$x"', 'echo "${\u0001x}"'],
    ['echo "${x}"', 'echo "${\u0001x}"'],
    ['echo "$"', 'echo "$"'],
    ["tee \\", "tee \\\\"],
  ])("%j → %j", (src, out) => {
    expect(text(src)).toBe(out);
  });

  it("cuts here-document bodies out, in order, and notes whether they expand", () => {
    const r = prescan("cat <<A <<'B' > out\nx > y\nA\n$(z)\nB\nls");
    expect(r).toEqual({
      ok: true,
      text: `cat << ${HEREDOC_WORD} << ${HEREDOC_WORD} > out;ls`,
      heredocs: [
        { body: "x > y", expands: true },
        { body: "$(z)", expands: false },
      ],
    });
  });

  it("strips leading tabs for <<-", () => {
    const r = prescan("cat <<-E\n\tbody\n\tE\nls");
    expect(r.ok && r.heredocs).toEqual([{ body: "body", expands: true }]);
  });
});

describe("prescan refuses what it cannot model", () => {
  it.each([
    ["echo $(ls)", /command substitution/],
    ['echo "$(ls)"', /command substitution/],
    ["echo $((1+2))", /command substitution/],
    ["echo `ls`", /backtick/],
    ['echo "`ls`"', /backtick/],
    ["diff <(ls) x", /process substitution/],
    ["tee >(cat)", /process substitution/],
    ["echo ${x:-y}", /parameter expansion/],
    ["echo ${x@P}", /parameter expansion/],
    ["echo ${#x}", /parameter expansion/],
    ["echo $[1+1]", /arithmetic/],
    ["echo {a,b}", /brace expansion/],
    ["echo x{1..3}", /brace expansion/],
    ["echo 'open", /unterminated single/],
    ['echo "open', /unterminated double/],
    ["echo $'open", /unterminated/],
    ["cat <<EOF\n$(rm x)\nEOF", /here-document/],
    ["cat <<EOF\n`rm x`\nEOF", /here-document/],
    ["cat <<", /delimiter/],
    ["a\u0000b", /NUL/],
    ["a\uE000b", /private-use/],
  ])("%j", (src, why) => {
    const r = prescan(src);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.why).toMatch(why);
  });

  it("accepts quoted look-alikes (near misses)", () => {
    for (const src of [
      "echo '$(ls)'",
      "echo '`ls`'",
      "echo '{a,b}'",
      "echo \\`ls\\`",
      'echo "\\`"',
      "cat <<'E'\n$(x)\nE",
    ]) {
      expect(prescan(src).ok, src).toBe(true);
    }
  });

  it("never throws and runs in linear time on repeated constructs", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        prescan(s);
      }),
    );
    for (const unit of ["{", "[", "\n", "{a,", "'a'", "\\\n", "#\n", "<<E\n"]) {
      expect(() => prescan(unit.repeat(50_000))).not.toThrow();
    }
  });
});
