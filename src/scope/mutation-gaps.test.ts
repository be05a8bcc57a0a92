/**
 * Cases added after mutation testing (npm run mutate) showed rules whose boundaries no test pinned:
 * multi-digit 8.3 short names, relative symlinks that stay inside, the symlink-hop limit, a root reached by
 * another name, bad argument types, and the messages that name which input broke which rule.
 */

import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { checkAllowlist, isAllowlisted } from "./allowlist.js";
import { checkRepoPath } from "./check-repo-path.js";
import { resolveHostPath, resolveRepoPath } from "./resolve-repo-path.js";
import { toRepoPath } from "./to-repo-path.js";

let base = "";
let root = "";
let cleanup = () => {};

beforeAll(() => {
  const t = makeTree({
    "repo/src/app.ts": "a",
    "repo/docs/current": { link: "../src" },
    "repo/escape": { link: "../outside" },
    "outside/secret": "s",
  });
  base = t.base;
  root = join(base, "repo");
  cleanup = t.cleanup;
  // A chain of exactly 40 links (Linux's MAXSYMLINKS) ending in src/, and one of 41.
  mkdirSync(join(root, "chain"));
  for (let i = 0; i < 41; i++) symlinkSync(i === 0 ? "../src" : `l${i - 1}`, join(root, "chain", `l${i}`));
  symlinkSync(root, join(base, "alias"));
});
afterAll(() => cleanup());

const rule = (r: { ok: boolean; violation?: { rule: string } }) => (r.ok ? "ok" : r.violation!.rule);

describe("8.3 short names of .git and .devrites", () => {
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

describe("symlinks", () => {
  it("a relative link that stays inside resolves like its target", () => {
    expect(resolveRepoPath(root, "docs/current/app.ts")).toEqual({ ok: true, path: "docs/current/app.ts" });
    expect(checkAllowlist(root, ["docs/current/app.ts"]).ok).toEqual(["docs/current/app.ts"]);
  });

  it("a relative link that leaves is an escape", () => {
    expect(rule(resolveRepoPath(root, "escape/secret"))).toBe("scope.symlink-escape");
  });

  it("climbing out of a missing directory onto a link still follows the link", () => {
    expect(rule(resolveHostPath(root, "new/../escape/secret"))).toBe("scope.symlink-escape");
    expect(rule(resolveHostPath(root, "new/../src/app.ts"))).toBe("ok");
  });

  it("follows exactly 40 links and refuses the 41st", () => {
    expect(resolveRepoPath(root, "chain/l39/app.ts")).toEqual({ ok: true, path: "chain/l39/app.ts" });
    expect(rule(resolveRepoPath(root, "chain/l40/app.ts"))).toBe("scope.unresolvable");
  });

  it("a root reached through another name (a symlinked checkout) is the same root", () => {
    expect(resolveHostPath(root, join(base, "alias", "src", "app.ts"))).toEqual({
      ok: true,
      path: "src/app.ts",
    });
    expect(resolveHostPath(join(base, "alias"), join(root, "src", "app.ts"))).toEqual({
      ok: true,
      path: "src/app.ts",
    });
    expect(rule(resolveHostPath(root, join(base, "outside", "secret")))).toBe("scope.outside-root");
  });
});

describe("bad argument types fail closed", () => {
  it("an allowlist that is not a list", () => {
    const r = checkAllowlist(root, "src/app.ts" as unknown as string[]);
    expect(r.ok).toEqual([]);
    expect(r.violations.map((v) => v.rule)).toEqual(["scope.empty"]);
    expect(r.violations[0]!.message).toBe("expected a list of paths, got string");
  });

  it("isAllowlisted refuses non-strings and non-lists", () => {
    expect(isAllowlisted(["src/app.ts"], 5 as unknown as string)).toBe(false);
    expect(isAllowlisted("src/app.ts" as unknown as string[], "src/app.ts")).toBe(false);
    expect(isAllowlisted(["src/app.ts"], "src/app.ts")).toBe(true);
  });

  it("checkRepoPath names the type it got", () => {
    const r = checkRepoPath(7 as unknown as string);
    expect(r.ok ? "" : r.violation.message).toBe("expected a path string, got number");
  });
});

describe("messages name the input and the rule's reason", () => {
  const message = (r: { ok: boolean; violation?: { message: string } }) => (r.ok ? "" : r.violation!.message);

  it.each([
    ["a//b", 'segment 2 ("") of "a//b" is empty'],
    ["a/ /b", 'segment 2 (" ") of "a/ /b" is blank'],
    ["a\\b", 'the path "a\\b" contains a backslash at index 1'],
    ["a/", 'the path "a/" ends with a slash'],
  ])("checkRepoPath(%j)", (input, expected) => {
    expect(message(checkRepoPath(input))).toBe(expected);
  });

  it.each([
    ["//server/x", 'the path "//server/x" is a UNC or device path'],
    ["C:x", 'the path "C:x" starts with a drive letter'],
    ["a\\b", 'the path "a\\b" contains a backslash at index 1'],
    ["src/", 'the path "src/" ends with a slash'],
    [".", 'the path "." is the repository root itself'],
  ])("toRepoPath(root, %j)", (input, expected) => {
    expect(message(toRepoPath(root, input))).toBe(expected);
  });

  it("toRepoPath says where an outside path resolves and what a relative spelling came from", () => {
    expect(message(toRepoPath("/repo", "/repo-evil/x"))).toBe(
      'the path "/repo-evil/x" resolves to "/repo-evil/x", outside "/repo"',
    );
    expect(message(toRepoPath("/repo", "./a/.git/x"))).toMatch(/\(from "\.\/a\/\.git\/x"\)$/);
    expect(message(toRepoPath("/repo", "a/.git/x"))).not.toMatch(/\(from /);
  });

  it("toRepoPath names a bad root or working directory", () => {
    expect(message(toRepoPath("relative", "a"))).toBe(
      'the repository root "relative" is not an absolute path',
    );
    expect(message(toRepoPath(5 as unknown as string, "a"))).toBe(
      "the repository root number is not an absolute path",
    );
    expect(message(toRepoPath("/repo", "a", "x\u0000"))).toBe(
      'the working directory "x\\u{0}" is not a path',
    );
    expect(message(toRepoPath("/repo", "a", 5 as unknown as string))).toBe(
      "the working directory number is not a path",
    );
  });

  it("long inputs are cut in messages, with their length", () => {
    const long = `${"a".repeat(200)}/.git/x`;
    const m = message(checkRepoPath(long));
    expect(m).toContain(`"${"a".repeat(160)}…" (${long.length} chars)`);
    const exact = `${"b".repeat(155)}/.git`;
    expect(message(checkRepoPath(exact))).toContain(`"${exact}"`);
  });

  it("resolveRepoPath says where an escaping path lands", () => {
    expect(message(resolveRepoPath(root, "escape/secret"))).toBe(
      `"escape/secret" resolves to "${join(base, "outside", "secret")}", outside "${root}"`,
    );
  });
});
