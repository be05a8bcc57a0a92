import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { checkAllowlist, isAllowlisted } from "./allowlist.js";

let root = "";
let cleanup = () => {};

beforeAll(() => {
  const t = makeTree({
    "repo/src/a.ts": "a",
    "repo/src/dir/": "",
    "repo/dirlink": { link: "src/dir" },
    "repo/link-out": { link: "../outside" },
    "outside/x": "x",
  });
  root = join(t.base, "repo");
  cleanup = t.cleanup;
  execFileSync("mkfifo", [join(root, "src", "fifo")]);
});
afterAll(() => cleanup());

describe("checkAllowlist", () => {
  it("accepts existing and new files, in input order", () => {
    expect(checkAllowlist(root, ["src/new.ts", "src/a.ts"])).toEqual({
      ok: ["src/new.ts", "src/a.ts"],
      violations: [],
    });
  });

  it("an empty allowlist grants nothing and reports nothing", () => {
    expect(checkAllowlist(root, [])).toEqual({ ok: [], violations: [] });
  });

  it("reports each bad entry with its rule and input, keeping the good ones", () => {
    const r = checkAllowlist(root, [
      "src/a.ts",
      "src/dir",
      "dirlink",
      "src/fifo",
      "link-out/x",
      "src/a.ts",
      "../x",
      ".git/config",
      "src/*.ts",
      "src/b.ts",
    ]);
    expect(r.ok).toEqual(["src/a.ts", "src/b.ts"]);
    expect(r.violations.map((v) => [v.rule, v.input])).toEqual([
      ["scope.not-a-file", "src/dir"],
      ["scope.not-a-file", "dirlink"],
      ["scope.not-a-file", "src/fifo"],
      ["scope.symlink-escape", "link-out/x"],
      ["scope.duplicate", "src/a.ts"],
      ["scope.traversal", "../x"],
      ["scope.git", ".git/config"],
      ["scope.glob", "src/*.ts"],
    ]);
    for (const v of r.violations) expect(v.hint).not.toBe("");
  });

  it("does not treat case or Unicode variants as duplicates (they are different paths)", () => {
    const r = checkAllowlist(root, ["src/é.ts", "src/e\u0301.ts", "src/A.ts", "src/a.ts"]);
    expect(r.violations).toEqual([]);
    expect(r.ok).toHaveLength(4);
  });

  it("reports a root that cannot be resolved for every entry", () => {
    const r = checkAllowlist(join(root, "missing-root"), ["a.ts", "b.ts"]);
    expect(r.ok).toEqual([]);
    expect(r.violations.map((v) => v.rule)).toEqual(["scope.unresolvable", "scope.unresolvable"]);
  });
});

describe("isAllowlisted", () => {
  const list = ["src/a.ts", "src/é.ts", "docs/Read Me.md"];
  type Row = [path: string, expected: boolean, why: string];
  const rows: Row[] = [
    ["src/a.ts", true, "exact entry"],
    ["docs/Read Me.md", true, "exact entry with a space"],
    ["src/é.ts", true, "exact NFC entry"],
    ["src/e\u0301.ts", false, "NFD variant of an NFC entry"],
    ["SRC/a.ts", false, "case variant of a directory"],
    ["src/A.ts", false, "case variant of the file"],
    ["src/a.ts.", false, "trailing dot variant"],
    ["src/a.ts ", false, "trailing space variant"],
    ["src/a\u200c.ts", false, "invisible character variant"],
    ["./src/a.ts", false, "non-canonical spelling"],
    ["src//a.ts", false, "doubled slash"],
    ["src/a.t", false, "prefix of an entry"],
    ["src/a.tsx", false, "extension of an entry"],
    ["src", false, "the parent directory"],
    ["src/a.ts/x", false, "below an entry"],
    ["", false, "empty"],
  ];
  it.each(rows)("%j → %s (%s)", (path, expected) => {
    expect(isAllowlisted(list, path)).toBe(expected);
  });

  it("an empty allowlist allows nothing (the rules end in DISALLOW)", () => {
    expect(isAllowlisted([], "src/a.ts")).toBe(false);
  });

  it("a bad entry on the list never matches: non-canonical paths are refused first", () => {
    expect(isAllowlisted(["../x", ".git/config", "src/*.ts"], "../x")).toBe(false);
    expect(isAllowlisted(["../x", ".git/config", "src/*.ts"], ".git/config")).toBe(false);
    expect(isAllowlisted(["../x", ".git/config", "src/*.ts"], "src/*.ts")).toBe(false);
  });

  it("does not expand globs on the list", () => {
    expect(isAllowlisted(["src/*.ts"], "src/a.ts")).toBe(false);
  });

  it("never throws on non-string input", () => {
    expect(isAllowlisted(list, undefined as unknown as string)).toBe(false);
    expect(isAllowlisted(null as unknown as string[], "src/a.ts")).toBe(false);
  });
});
