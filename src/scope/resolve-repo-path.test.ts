import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { resolveHostPath, resolveRepoPath } from "./resolve-repo-path.js";
import type { ScopeRule } from "./types.js";

let base = "";
let root = "";
let cleanup = () => {};

beforeAll(() => {
  const t = makeTree({
    "repo/src/a.ts": "a",
    "repo/src/dir/": "",
    "repo/.git/config": "[core]",
    "repo/.git/hooks/": "",
    "repo/.devrites/state.json": "{}",
    "repo-evil/secret": "s",
    "repo-evil/sub/": "",
    "outside/passwd": "p",
    // links that stay inside
    "repo/alias.ts": { link: "src/a.ts" },
    "repo/srclink": { link: "src" },
    "repo/dangle-in": { link: "src/new.ts" },
    "repo/deep/dangle-parent": { link: "../src/newdir/new.ts" },
    // escapes
    "repo/link-out": { link: "../outside" },
    "repo/file-out": { link: "../outside/passwd" },
    "repo/abs-out": { link: "/etc" },
    "repo/linkdir": { link: "../repo-evil" },
    "repo/dangle-out": { link: "../outside-missing/new.txt" },
    "repo/trick": { link: "nonexistent/../link-out" },
    // chained links that each look harmless (node-tar)
    "repo/a/b/up": { link: "../.." },
    "repo/a/b/escape": { link: "up/.." },
    // into .git / .devrites
    "repo/gitlink": { link: ".git/config" },
    "repo/gitdir": { link: ".git" },
    "repo/gitcase": { link: ".GIT/config" },
    "repo/wslink": { link: ".devrites/state.json" },
    "repo/via-parent": { link: "src/../.git/hooks" },
    // loops
    "repo/loop1": { link: "loop2" },
    "repo/loop2": { link: "loop1" },
    "repo/self": { link: "self" },
    // a root reached through a symlink
    repolink: { link: "repo" },
  });
  base = t.base;
  cleanup = t.cleanup;
  root = join(base, "repo");
  execFileSync("ln", ["-s", join(base, "repolink", "src", "a.ts"), join(root, "abs-in")]);
});
afterAll(() => cleanup());

type Row = [repoPath: string, expected: "ok" | ScopeRule, why: string];

const rows: Row[] = [
  ["src/a.ts", "ok", "existing file"],
  ["src/new.ts", "ok", "missing file in an existing directory"],
  ["src/x/y/new.ts", "ok", "missing file under missing directories"],
  ["src/dir", "ok", "an existing directory (rejected by checkAllowlist, not here)"],
  ["alias.ts", "ok", "a link to a file inside"],
  ["srclink/a.ts", "ok", "through a link to a directory inside"],
  ["dangle-in", "ok", "a dangling link whose text stays inside"],
  ["deep/dangle-parent", "ok", "a dangling link with .. that stays inside"],
  ["a/b/up/src/a.ts", "ok", "chained link used to land inside"],
  ["abs-in", "ok", "an absolute link through a symlinked alias of the root"],
  ["link-out/passwd", "scope.symlink-escape", "a symlinked parent directory outside"],
  ["link-out/new.txt", "scope.symlink-escape", "a new file under a link outside"],
  ["file-out", "scope.symlink-escape", "a file link outside"],
  ["abs-out/passwd", "scope.symlink-escape", "absolute link outside"],
  ["linkdir/secret", "scope.symlink-escape", "link to the sibling repo-evil (prefix trick)"],
  ["dangle-out", "scope.symlink-escape", "dangling link outside"],
  ["trick/passwd", "scope.symlink-escape", "missing/../link in link text still follows the link"],
  ["a/b/escape/repo-evil/secret", "scope.symlink-escape", "chained links: escape -> up/.. -> ../.. -> .."],
  ["a/b/escape", "scope.symlink-escape", "chained links to the parent of the root"],
  ["a/b/up", "scope.not-a-file", "a link to the root itself"],
  ["gitlink", "scope.symlink-escape", "a link into .git"],
  ["gitdir/hooks/pre-commit", "scope.symlink-escape", "a link to .git as a parent"],
  ["gitcase", "scope.symlink-escape", "a link to a case variant of .git"],
  ["wslink", "scope.symlink-escape", "a link into .devrites"],
  ["via-parent/x", "scope.symlink-escape", "a link whose text climbs back into .git"],
  ["loop1/x", "scope.unresolvable", "a two-link loop"],
  ["loop1", "scope.unresolvable", "a two-link loop, last component"],
  ["self", "scope.unresolvable", "a self loop"],
  ["src/a.ts/x", "scope.not-a-file", "a file used as a directory"],
  [".git/config", "scope.git", "lexical rules run first"],
  ["src/../x", "scope.traversal", "non-canonical input is not normalised"],
];

describe("resolveRepoPath", () => {
  it.each(rows)("%j → %s (%s)", (repoPath, expected, _why) => {
    const r = resolveRepoPath(root, repoPath);
    if (expected === "ok") {
      expect(r).toEqual({ ok: true, path: repoPath });
    } else {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.violation.rule).toBe(expected);
        expect(r.violation.input).toBe(repoPath);
      }
    }
  });

  it("canonicalises both sides: a root given through a symlink resolves the same", () => {
    const viaLink = join(base, "repolink");
    expect(resolveRepoPath(viaLink, "src/a.ts")).toEqual({ ok: true, path: "src/a.ts" });
    const out = resolveRepoPath(viaLink, "link-out/passwd");
    expect(!out.ok && out.violation.rule).toBe("scope.symlink-escape");
  });

  it("reports an unresolvable root instead of throwing", () => {
    const r = resolveRepoPath(join(base, "no-such-root"), "src/a.ts");
    expect(!r.ok && r.violation.rule).toBe("scope.unresolvable");
  });

  it("the sibling repo-evil is not inside repo even though its path starts with it", () => {
    const evilRoot = join(base, "repo-evil");
    expect(evilRoot.startsWith(root)).toBe(true);
    expect(resolveRepoPath(evilRoot, "secret")).toEqual({ ok: true, path: "secret" });
    const r = resolveRepoPath(root, "linkdir/secret");
    expect(!r.ok && r.violation.message).toContain("repo-evil");
  });
});

describe("resolveHostPath", () => {
  it("accepts an ordinary absolute and relative path", () => {
    expect(resolveHostPath(root, join(root, "src/a.ts"))).toEqual({ ok: true, path: "src/a.ts" });
    expect(resolveHostPath(root, "a.ts", join(root, "src"))).toEqual({ ok: true, path: "src/a.ts" });
  });

  it("rejects `link/..` where the kernel would leave the repository", () => {
    // Lexically linkdir/../repo-evil-like → `secret`; the kernel follows linkdir first and opens repo-evil/../secret.
    const p = join(root, "linkdir", "sub", "..", "secret");
    const r = resolveHostPath(root, p);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.violation.rule).toBe("scope.symlink-escape");
      expect(r.violation.input).toBe(p);
    }
  });

  it("rejects `srclink/..` that lands on a different in-repo file than its lexical reading", () => {
    // srclink -> src, so srclink/../alias.ts is repo/alias.ts both ways; a/b/up/.. is the parent of the root.
    expect(resolveHostPath(root, `${root}/srclink/../alias.ts`)).toEqual({ ok: true, path: "alias.ts" });
    const r = resolveHostPath(root, `${root}/a/b/up/../src/a.ts`);
    expect(!r.ok && r.violation.rule).toBe("scope.symlink-escape");
  });

  it("accepts a host path through a symlinked alias of the root", () => {
    expect(resolveHostPath(root, join(base, "repolink", "src", "a.ts"))).toEqual({
      ok: true,
      path: "src/a.ts",
    });
  });

  it("passes on lexical and resolution failures with the host input", () => {
    const a = resolveHostPath(root, `${root}/.git/config`);
    expect(!a.ok && a.violation.rule).toBe("scope.git");
    const b = resolveHostPath(root, `${root}/link-out/passwd`);
    expect(!b.ok && b.violation).toMatchObject({
      rule: "scope.symlink-escape",
      input: `${root}/link-out/passwd`,
    });
    const c = resolveHostPath(root, "/tmp/elsewhere/x");
    expect(!c.ok && c.violation.rule).toBe("scope.outside-root");
  });
});
