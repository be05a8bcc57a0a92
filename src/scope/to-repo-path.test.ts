import { describe, expect, it } from "vitest";
import { toRepoPath } from "./to-repo-path.js";
import type { ScopeRule } from "./types.js";

const ROOT = "/tmp/x/repo";

type Row = [p: string, cwd: string | undefined, expected: string | ScopeRule, why: string];

const rows: Row[] = [
  // accepted, with the canonical path they map to
  ["/tmp/x/repo/src/a.ts", undefined, "src/a.ts", "absolute inside"],
  ["src/a.ts", undefined, "src/a.ts", "relative to the root by default"],
  ["a.ts", "/tmp/x/repo/src", "src/a.ts", "relative to an absolute cwd"],
  ["a.ts", "src", "src/a.ts", "relative to a cwd relative to the root"],
  ["./src/./a.ts", undefined, "src/a.ts", "./ is normalised"],
  ["/tmp/x/repo/src/../lib/a.ts", undefined, "lib/a.ts", "a/../b is normalised lexically"],
  ["../repo/src/a.ts", undefined, "src/a.ts", "leaving and re-entering the root lexically"],
  ["../a.ts", "/tmp/x/repo/src", "a.ts", "cwd parent inside the root"],
  ["/tmp/x/repo//src/a.ts", undefined, "src/a.ts", "doubled slash in a host path is normalised"],
  [".gitignore", undefined, ".gitignore", "near miss of .git"],
  // rejected
  ["/tmp/x/repo-evil/x", undefined, "scope.outside-root", "sibling prefix is not inside"],
  ["/tmp/x/repository/x", undefined, "scope.outside-root", "longer sibling name"],
  ["/tmp/x/repo/../repo-evil/x", undefined, "scope.outside-root", "traversal into a sibling"],
  ["../../etc/passwd", undefined, "scope.outside-root", "relative escape"],
  ["/etc/passwd", undefined, "scope.outside-root", "absolute elsewhere"],
  ["../x", "/tmp/x/repo", "scope.outside-root", "one level up from the root"],
  ["/tmp/x/repo", undefined, "scope.not-a-file", "the root itself"],
  [".", undefined, "scope.not-a-file", "the root as ."],
  ["src/..", undefined, "scope.not-a-file", "back to the root"],
  ["/tmp/x/repo/", undefined, "scope.trailing-slash", "root with a slash"],
  ["src/", undefined, "scope.trailing-slash", "a directory form"],
  ["/tmp/x/repo/.git/config", undefined, "scope.git", ".git via an absolute path"],
  ["/tmp/x/repo/.GIT./hooks/x", undefined, "scope.git", ".git disguised"],
  ["src/../.git/config", undefined, "scope.git", ".git after normalisation"],
  ["/tmp/x/repo/.devrites/state.json", undefined, "scope.devrites", "workspace"],
  ["/tmp/x/repo/src/*.ts", undefined, "scope.glob", "glob"],
  ["", undefined, "scope.empty", "empty"],
  ["/tmp/x/repo/a\u0000b", undefined, "scope.nul", "NUL"],
  ["/tmp/x/repo/a\nb", undefined, "scope.control-char", "newline"],
  ["\\\\server\\share\\x", undefined, "scope.unc", "UNC"],
  ["//server/share/x", undefined, "scope.unc", "UNC with slashes"],
  ["C:\\repo\\x", undefined, "scope.drive", "Windows absolute"],
  ["c:x", undefined, "scope.drive", "drive-relative"],
  ["src\\a.ts", undefined, "scope.backslash", "backslash"],
  [`/tmp/x/repo/${"a".repeat(5000)}`, undefined, "scope.too-long", "too long"],
];

describe("toRepoPath", () => {
  it.each(rows)("%j (cwd %j) → %s (%s)", (p, cwd, expected, _why) => {
    const r = toRepoPath(ROOT, p, cwd);
    if (expected.startsWith("scope.")) {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.violation.rule).toBe(expected);
        expect(r.violation.input).toBe(p);
      }
    } else {
      expect(r).toEqual({ ok: true, path: expected });
    }
  });

  it("treats a root given with a trailing slash the same", () => {
    expect(toRepoPath(`${ROOT}/`, `${ROOT}/src/a.ts`)).toEqual({ ok: true, path: "src/a.ts" });
    const evil = toRepoPath(`${ROOT}/`, "/tmp/x/repo-evil/a.ts");
    expect(!evil.ok && evil.violation.rule).toBe("scope.outside-root");
  });

  it("works with / as the root", () => {
    expect(toRepoPath("/", "/etc/passwd")).toEqual({ ok: true, path: "etc/passwd" });
  });

  it("refuses a relative root instead of consulting process.cwd()", () => {
    const r = toRepoPath("repo", "repo/x");
    expect(!r.ok && r.violation.rule).toBe("scope.unresolvable");
  });

  it("compares the root exactly: a case variant of the root is outside", () => {
    const r = toRepoPath(ROOT, "/tmp/x/REPO/src/a.ts");
    expect(!r.ok && r.violation.rule).toBe("scope.outside-root");
  });
});
