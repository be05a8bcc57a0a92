import { describe, expect, it } from "vitest";
import { checkRepoPath } from "./check-repo-path.js";
import type { ScopeRule } from "./types.js";

type Row = [input: string, expected: "ok" | ScopeRule, why: string];

/** One row per case; the comment is echoed in the test name so a failure says which case broke. */
const rows: Row[] = [
  // accepted: ordinary paths and near misses of every rule below
  ["src/app.ts", "ok", "plain nested file"],
  ["README.md", "ok", "top-level file"],
  ["a/b/c/d/e.txt", "ok", "deep path"],
  ["src/ünïcödé/ß.ts", "ok", "non-ASCII names are fine"],
  ["src/file with spaces.ts", "ok", "spaces inside a name are fine"],
  ["src/..foo", "ok", "a name starting with two dots is not `..`"],
  ["src/foo..", "ok", "a name ending with two dots is not `..`"],
  ["src/.hidden", "ok", "a dotfile is not `.`"],
  ["src/a.b", "ok", "a dot inside a name is fine"],
  [".gitignore", "ok", "near miss of .git: .gitignore"],
  [".gitattributes", "ok", "near miss of .git: .gitattributes"],
  ["src/.github/x", "ok", "near miss of .git: .github"],
  [".github/workflows/ci.yml", "ok", "near miss of .git at the top: .github"],
  ["git/x", "ok", "near miss of .git: git without the dot"],
  ["x.git/y", "ok", "near miss of .git: a suffix .git"],
  [".gitx/y", "ok", "near miss of .git: .gitx"],
  ["git~1x/y", "ok", "near miss of the 8.3 name: git~1x"],
  ["src/git~", "ok", "near miss of the 8.3 name: no digit"],
  [".devrites-old/x", "ok", "near miss of .devrites: .devrites-old"],
  ["devrites/x", "ok", "near miss of .devrites: no dot"],
  ["src/.devritesrc", "ok", "near miss of .devrites: .devritesrc"],
  ["C/x", "ok", "near miss of a drive: no colon"],
  ["src/C:x", "ok", "a colon after the first segment is not a drive"],
  ["a1:b", "ok", "near miss of a drive: two letters before the colon"],
  ["src/#x.ts", "ok", "near miss of globs: # is not a glob character"],
  ["src/x+y=z!.ts", "ok", "near miss of globs: + = ! are fine"],
  ["src/ x", "ok", "a leading space is not trimmed by any file system"],
  ["a".repeat(4096), "ok", "exactly 4096 bytes"],
  ["😀/x", "ok", "astral code points (valid surrogate pairs) are fine"],

  // scope.empty
  ["", "scope.empty", "empty string"],
  // scope.too-long
  ["a".repeat(4097), "scope.too-long", "4097 bytes"],
  [`${"é".repeat(2048)}a`, "scope.too-long", "4097 UTF-8 bytes in 2049 characters"],
  // scope.nul
  ["a\u0000b", "scope.nul", "NUL in a name"],
  ["a/\u0000b", "scope.nul", "NUL at the start of a segment"],
  ["\u0000", "scope.nul", "only NUL"],
  // scope.control-char
  ["a\nb", "scope.control-char", "newline"],
  ["a\tb", "scope.control-char", "tab"],
  ["a\u001bb", "scope.control-char", "escape"],
  ["a\u007fb", "scope.control-char", "DEL"],
  ["a\u0085b", "scope.control-char", "C1 next-line"],
  ["a\u2028b", "scope.control-char", "line separator"],
  ["src/\u202egpj.ts", "scope.control-char", "right-to-left override (Trojan Source)"],
  ["a\ud800b", "scope.control-char", "unpaired high surrogate"],
  ["a\udc00", "scope.control-char", "unpaired low surrogate"],
  // scope.unc
  ["\\\\server\\share\\x", "scope.unc", "UNC with backslashes"],
  ["//server/share/x", "scope.unc", "UNC with slashes"],
  ["\\\\?\\C:\\x", "scope.unc", "Win32 device namespace"],
  ["//?/C:/x", "scope.unc", "device namespace with slashes"],
  ["\\/x", "scope.unc", "mixed leading separators"],
  // scope.drive
  ["C:x", "scope.drive", "drive-relative"],
  ["c:\\x", "scope.drive", "drive-absolute with backslash"],
  ["C:/Windows/x", "scope.drive", "drive-absolute with slash"],
  ["c:..\\x", "scope.drive", "drive-relative traversal"],
  ["z:", "scope.drive", "bare drive"],
  // scope.absolute
  ["/etc/passwd", "scope.absolute", "POSIX absolute"],
  ["/", "scope.absolute", "the root"],
  ["\\x", "scope.absolute", "root-relative on Windows"],
  // scope.backslash
  ["a\\b", "scope.backslash", "backslash separator"],
  ["a\\..\\..\\x", "scope.backslash", "backslash traversal"],
  ["a\\..\\.git\\x", "scope.backslash", "backslash .git"],
  ["src/x\\", "scope.backslash", "trailing backslash"],
  // scope.trailing-slash
  ["src/", "scope.trailing-slash", "directory form"],
  ["a/b/", "scope.trailing-slash", "nested directory form"],
  // scope.empty-segment
  ["a//b", "scope.empty-segment", "doubled slash"],
  ["a/ /b", "scope.empty-segment", "a segment that is only a space"],
  ["a/  ", "scope.empty-segment", "a final segment of spaces"],
  // scope.traversal
  ["..", "scope.traversal", "bare parent"],
  ["../x", "scope.traversal", "leading parent"],
  ["../../etc/passwd", "scope.traversal", "classic escape"],
  ["a/../../x", "scope.traversal", "escape after a segment"],
  ["src/../../x", "scope.traversal", "src/ prefix does not help"],
  ["src/../x", "scope.traversal", "even a contained .. is not canonical"],
  ["a/..", "scope.traversal", "trailing parent"],
  ["a/.. /x", "scope.traversal", "`.. ` is `..` on Windows"],
  ["a/.../x", "scope.traversal", "three dots"],
  ["a/．．/x", "scope.traversal", "fullwidth dots (NFKC ..)"],
  ["a/.\u200c./x", "scope.traversal", "an invisible joiner between the dots"],
  // scope.dot-segment
  [".", "scope.dot-segment", "bare dot"],
  ["./x", "scope.dot-segment", "leading dot"],
  ["a/./b", "scope.dot-segment", "inner dot"],
  ["a/.", "scope.dot-segment", "trailing dot"],
  ["a/. /b", "scope.dot-segment", "`. ` is `.` on Windows"],
  // scope.git
  [".git", "scope.git", "the .git name itself"],
  [".git/config", "scope.git", "inside .git"],
  [".git/hooks/pre-commit", "scope.git", "a hook"],
  [".GIT/x", "scope.git", "upper case"],
  [".Git/x", "scope.git", "mixed case"],
  [".git./x", "scope.git", "trailing dot"],
  [".git /x", "scope.git", "trailing space"],
  [".git. . ./x", "scope.git", "trailing dots and spaces"],
  ["git~1/x", "scope.git", "8.3 short name"],
  ["GIT~1/config", "scope.git", "8.3 short name, upper case"],
  ["git~2/x", "scope.git", "8.3 short name, second collision"],
  [".g\u200cit/x", "scope.git", "U+200C inside (HFS+ ignores it)"],
  [".gi\u200dt/x", "scope.git", "U+200D inside"],
  ["\ufeff.git/x", "scope.git", "BOM in front"],
  [".git\u200b/x", "scope.git", "zero-width space after"],
  [".ｇｉｔ/x", "scope.git", "fullwidth letters (NFKC)"],
  [".gıt/x", "scope.git", "dotless i folds to I"],
  [".git::$INDEX_ALLOCATION/x", "scope.git", "NTFS stream syntax"],
  [".git...:stream", "scope.git", "trailing dots before an NTFS stream"],
  ["sub/.git", "scope.git", "a submodule's gitfile"],
  ["sub/.git/config", "scope.git", "nested .git"],
  ["src/.GIT", "scope.git", "nested, upper case, last segment"],
  // scope.devrites
  [".devrites/x", "scope.devrites", "inside the workspace"],
  [".devrites", "scope.devrites", "the workspace name"],
  [".devrites/runs/r/result.json", "scope.devrites", "a result file"],
  [".DEVRITES/x", "scope.devrites", "upper case"],
  [".devrites./x", "scope.devrites", "trailing dot"],
  [".devrites /x", "scope.devrites", "trailing space"],
  [".dev\u200crites/x", "scope.devrites", "U+200C inside"],
  [".devriteſ/x", "scope.devrites", "long s folds to S"],
  ["DEVRIT~1/x", "scope.devrites", "8.3 short name"],
  ["pkg/.devrites/x", "scope.devrites", "a nested workspace"],
  // scope.glob
  ["src/*.ts", "scope.glob", "star"],
  ["src/**/x.ts", "scope.glob", "globstar"],
  ["src/?.ts", "scope.glob", "question mark"],
  ["src/{a,b}.ts", "scope.glob", "brace expansion"],
  ["src/{,b}.ts", "scope.glob", "brace expansion with an empty alternative"],
  ["app/[slug]/page.tsx", "ok", "near miss of globs: brackets are literal (framework route files)"],
  ["app/[...slug]/page.tsx", "ok", "near miss of globs: catch-all route segment is literal"],
  ["routes/{id}.ts", "ok", "near miss of globs: a lone brace pair without a comma is literal"],
  ["src/a}.ts", "ok", "near miss of globs: a lone closing brace is literal"],
];

describe("checkRepoPath", () => {
  it.each(rows)("%j → %s (%s)", (input, expected, _why) => {
    const r = checkRepoPath(input);
    if (expected === "ok") {
      expect(r).toEqual({ ok: true, path: input });
    } else {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.violation.rule).toBe(expected);
        expect(r.violation.input).toBe(input);
        expect(r.violation.message.length).toBeGreaterThan(0);
        expect(r.violation.hint.length).toBeGreaterThan(0);
      }
    }
  });

  it("covers every rule it can produce with at least one row", () => {
    const lexicalRules: ScopeRule[] = [
      "scope.empty",
      "scope.nul",
      "scope.control-char",
      "scope.too-long",
      "scope.absolute",
      "scope.drive",
      "scope.unc",
      "scope.backslash",
      "scope.traversal",
      "scope.dot-segment",
      "scope.empty-segment",
      "scope.trailing-slash",
      "scope.git",
      "scope.devrites",
      "scope.glob",
    ];
    const seen = new Set(rows.map((r) => r[1]));
    for (const rule of lexicalRules) expect(seen, rule).toContain(rule);
  });

  it("never normalises: the accepted path is the input itself", () => {
    const r = checkRepoPath("src/x.ts");
    expect(r.ok && r.path).toBe("src/x.ts");
  });

  it("rejects non-strings without throwing", () => {
    // `{ toString: {} }` was found by fast-check: String(x) throws on it.
    for (const bad of [undefined, null, 42, {}, ["a"], { toString: {} }, Object.create(null)]) {
      const r = checkRepoPath(bad as unknown as string);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.violation.rule).toBe("scope.empty");
    }
  });

  it("shows invisible characters in the message so a human can see why", () => {
    const r = checkRepoPath(".g\u200cit/x");
    expect(!r.ok && r.violation.message).toContain("\\u{200C}");
  });
});

describe("8.3 short names of .git and .devrites", () => {
  const rule = (r: ReturnType<typeof checkRepoPath>) => (r.ok ? "ok" : r.violation.rule);
  it.each([
    ["git~1/config", "scope.git"],
    ["GIT~12/config", "scope.git"],
    ["a/git~10/HEAD", "scope.git"],
    ["devrit~1/state.json", "scope.devrites"],
    ["DEVRIT~12/state.json", "scope.devrites"],
    ["xgit~1/a.ts", "ok"],
    ["git~1x/a.ts", "ok"],
    ["git~/a.ts", "ok"],
    ["xdevrit~1/a.ts", "ok"],
    ["devrit~1x/a.ts", "ok"],
  ])("%s → %s", (path, expected) => {
    expect(rule(checkRepoPath(path))).toBe(expected);
  });
});
