/**
 * Scope checks fail closed on bad argument types and say what broke: each message names the input (cut to 160
 * characters with its length when long), the rule's reason (which segment, which index, where an outside
 * path resolves, what a relative spelling came from), and a bad root or working directory by its type.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { checkAllowlist, isAllowlisted } from "./allowlist.js";
import { checkRepoPath } from "./check-repo-path.js";
import { resolveRepoPath } from "./resolve-repo-path.js";
import { toRepoPath } from "./to-repo-path.js";

let base = "";
let root = "";
let cleanup = () => {};

beforeAll(() => {
  const t = makeTree({
    "repo/src/app.ts": "a",
    "repo/escape": { link: "../outside" },
    "outside/secret": "s",
  });
  base = t.base;
  root = join(base, "repo");
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

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
