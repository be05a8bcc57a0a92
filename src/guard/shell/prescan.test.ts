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

  it.each([
    [
      "echo ${1} ${10} ${@} ${*} ${#} ${?} ${$} ${!} ${-} ${0} ${_x} ${Z9}",
      "echo ${1} ${10} ${@} ${*} ${#} ${?} ${$} ${!} ${-} ${0} ${_x} ${Z9}",
    ],
    ['echo "$1$@$_x$Z9"', 'echo "${\u00011}${\u0001@}${\u0001_x}${\u0001Z9}"'],
    ['echo "$a-b" "${a}c"', 'echo "${\u0001a}-b" "${\u0001a}c"'],
    ['echo "a\\"b" "\\$(x)" "\\`"', 'echo "a\\"b" "\\$(x)" "\\`"'],
    ['echo "a\\\nb"', 'echo "ab"'],
    ["echo $'a\\'b' $'\\\\'", "echo $'a\\'b' $'\\\\'"],
    ["echo x'{a,b}' x\"{a,b}\" x\\{a,b\\} {a.b} a}b,{c", "echo x'{a,b}' x\"{a,b}\" x\\{a,b\\} {a.b} a}b,{c"],
    ["echo x'[a]' a[b a]b[c", "echo x'[a]' a[b a]b[c"],
    ["ls a[b]c[d]", `ls a${GLOB_BRACKET}b]c${GLOB_BRACKET}d]`],
    ["echo ''#x \"\"#y", "echo ''\\#x \"\"\\#y"],
    ["PATH=a:~/b", "PATH=a:${HOME}/b"],
    ["a 10>x 2<y 2>>z a2>w", "a >x <y >>z a2>w"],
    ["cat <<< 'a > b'", "cat <<< 'a > b'"],
    ["a;;b", "a;;b"],
  ])("%j → %j", (src, out) => {
    expect(text(src)).toBe(out);
  });

  it.each([
    ['cat <<"E"\n$(x)\nE', { body: "$(x)", expands: false }],
    ["cat <<\\E\n$(x)\nE", { body: "$(x)", expands: false }],
    ['cat <<E"O"F\n$(x)\nEOF', { body: "$(x)", expands: false }],
    ["cat << E\nbody\nE", { body: "body", expands: true }],
    ["cat <<-'E'\n\t$(x)\n\tE", { body: "$(x)", expands: false }],
    ["cat <<E\nline1\nline2\n E\nE", { body: "line1\nline2\n E", expands: true }],
    ["cat <<E\nno end", { body: "no end", expands: true }],
    ["cat <<E", { body: "", expands: true }],
    ['cat <<"a\\"b"\nx\na"b', { body: "x", expands: false }],
  ])("here-document %j", (src, doc) => {
    const r = prescan(src);
    expect(r.ok && r.heredocs).toEqual([doc]);
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

  it.each([
    ["cat <<'E", /delimiter/],
    ['cat <<"E', /delimiter/],
    ["cat <<$x", /delimiter/],
    ["cat <<`x`", /delimiter/],
    ["echo ${}", /parameter expansion/],
    ["echo ${1a}", /parameter expansion/],
    ["echo ${a-}", /parameter expansion/],
    ['echo "${x:-y}"', /parameter expansion/],
    ['echo "$[1]"', /arithmetic/],
    ["echo {a..b}", /brace expansion/],
    ["echo {a,{b,c}}", /brace expansion/],
    ["echo x{'a',b}", /brace expansion/],
  ])("also refuses %j", (src, why) => {
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

describe("prescan's refusals tell the leaf what to do instead", () => {
  const SUBST = "command substitution `$(…)` (or arithmetic `$((…))`) runs a command the guard cannot see";
  const PARAM =
    "parameter expansion other than `$NAME` / braced NAME (e.g. `x:…`, `x@P`, `#x` in braces) can evaluate code";
  const HEREDOC_EXPANDS =
    "an unquoted here-document expands `$(…)`, backticks or braced expansions in its body, which can run commands";
  const DELIM = ["a here-document needs a plain delimiter word", "write it as <<'EOF' … EOF"];
  const CONTROL = ["the command contains a NUL or SOH control character", "remove it"];
  const PRIVATE = ["the command contains a private-use character the guard reserves", "remove it"];
  it.each<[string, string, string]>([
    ["echo $(ls)", SUBST, "run the inner command on its own and pass its output literally"],
    ['echo "$(ls)"', SUBST, "run the inner command on its own and pass its output literally"],
    ["echo `ls`", "a backtick command substitution runs a command the guard cannot see", "run it separately"],
    [
      'echo "`ls`"',
      "a backtick command substitution runs a command the guard cannot see",
      "run it separately",
    ],
    ["diff <(ls) x", "process substitution `<(…)` runs a command the guard cannot see", "run it separately"],
    ["tee >(cat)", "process substitution `>(…)` runs a command the guard cannot see", "run it separately"],
    ["echo ${x:-y}", PARAM, "write the value literally, or use plain `$NAME`"],
    ['echo "${x:-y}"', PARAM, "write the value literally, or use plain `$NAME`"],
    ["echo $[1+1]", "arithmetic `$[…]` is not classified", "write the value literally"],
    ["echo {a,b}", "brace expansion `{a,b}` / `{1..3}` is not classified", "write the expanded words out"],
    ["echo 'open", "unterminated single quote", "close the quote"],
    ['echo "open', "unterminated double quote", "close the quote"],
    ["echo $'open", "unterminated $'…' quote", "close the quote"],
    ["cat <<EOF\n$(rm x)\nEOF", HEREDOC_EXPANDS, "quote the delimiter (<<'EOF') so the body is literal"],
    ["cat <<END\n`rm x`\nEND", HEREDOC_EXPANDS, "quote the delimiter (<<'END') so the body is literal"],
    ["cat <<", ...DELIM],
    ["cat <<'E", ...DELIM],
    ["cat <<$x", ...DELIM],
    ["a\u0000b", ...CONTROL],
    ["a\u0001b", ...CONTROL],
    ["a\uE000b", ...PRIVATE],
    ["a\uE0FFb", ...PRIVATE],
  ] as [string, string, string][])("%j", (src, why, hint) => {
    expect(prescan(src)).toEqual({ ok: false, why, hint });
  });

  it.each(["a\u0002b", "a\uDFFFb", "a\uE100b"])(
    "accepts %j, just outside the refused ranges (near miss)",
    (src) => {
      expect(prescan(src)).toEqual({ ok: true, text: src, heredocs: [] });
    },
  );
});

describe("prescan skips escaped quotes inside a quoted part of a braced word", () => {
  it("sees the unquoted comma after the quoted part", () => {
    expect(prescan('echo {a"\\",b",c}')).toMatchObject({
      ok: false,
      why: expect.stringMatching(/brace expansion/),
    });
  });
  it("accepts a comma that only appears inside the quotes (near miss)", () => {
    expect(prescan('echo {a"\\",b"}')).toMatchObject({ ok: true });
  });
});
