/**
 * The on-disk walk behind every scope check, pinned exactly: what it reports for each kind of target, where a
 * missing part ends, which error stops it, and the message that names the input and the rule. Added after
 * mutation testing showed these answers were only checked by their verdicts.
 */

import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { walk } from "./_walk.js";
import { resolveHostPath, resolveRepoPath, resolveTarget } from "./resolve-repo-path.js";

let root = "";
let cleanup = () => {};
const LONG = "a".repeat(300); // longer than any file system's name limit: lstat fails with ENAMETOOLONG

beforeAll(() => {
  const t = makeTree({
    "repo/src/app.ts": "a",
    "repo/.git/config": "c",
    "repo/.devrites/state.json": "{}",
    "repo/gitlink": { link: ".git" },
    "repo/wslink": { link: ".devrites" },
    "repo/self": { link: "." },
  });
  root = join(t.base, "repo");
  cleanup = t.cleanup;
  mkdirSync(join(root, "chain"));
  for (let i = 0; i < 41; i++) symlinkSync(i === 0 ? "../src" : `l${i - 1}`, join(root, "chain", `l${i}`));
});
afterAll(() => cleanup());

describe("walk: the target and its kind", () => {
  it.each([
    ["a file", ["src", "app.ts"], "src/app.ts", "file"],
    ["a directory", ["src"], "src", "dir"],
    ["the start itself", [], "", "dir"],
    ["empty and `.` segments are skipped", ["", ".", "src", "", "app.ts"], "src/app.ts", "file"],
    ["a trailing empty segment is not a component below a file", ["src", "app.ts", ""], "src/app.ts", "file"],
    ["a missing file", ["src", "new.ts"], "src/new.ts", "missing"],
    [
      "climbing back out of a missing part looks at the disk again",
      ["new", "..", "src", "app.ts"],
      "src/app.ts",
      "file",
    ],
    ["climbing inside a missing part stays missing", ["new", "x", ".."], "new", "missing"],
  ])("%s", (_why, segments, rel, kind) => {
    expect(walk(root, segments)).toEqual({
      ok: true,
      real: rel === "" ? root : `${root}/${rel}`,
      kind,
      followed: false,
    });
  });

  it("a special file is `other`; from `/` the path starts at `/`", () => {
    expect(walk("/", ["dev", "null"])).toEqual({
      ok: true,
      real: "/dev/null",
      kind: "other",
      followed: false,
    });
  });

  it("a followed link is reported as followed", () => {
    expect(walk(root, ["chain", "l3", "app.ts"])).toEqual({
      ok: true,
      real: `${root}/src/app.ts`,
      kind: "file",
      followed: true,
    });
  });
});

describe("walk: what stops it, with the message naming where", () => {
  it("a path that continues below a file", () => {
    expect(walk(root, ["src", "app.ts", "x"])).toEqual({
      ok: false,
      rule: "scope.not-a-file",
      message: `${root}/src/app.ts is not a directory but the path continues below it`,
    });
  });

  it("an error other than a missing component (a name too long) is unresolvable, never missing", () => {
    expect(walk(root, [LONG])).toEqual({
      ok: false,
      rule: "scope.unresolvable",
      message: `cannot inspect ${root}/${LONG}: ENAMETOOLONG`,
    });
  });

  it("more links in one lookup than the kernel follows", () => {
    expect(walk(root, ["chain", "l40"])).toEqual({
      ok: false,
      rule: "scope.unresolvable",
      message: `more than 40 symlinks (a loop?) at ${root}/chain/l0`,
    });
  });
});

describe("resolveRepoPath / resolveTarget / resolveHostPath: the messages", () => {
  it("a walk failure names the input and what stopped it", () => {
    const r = resolveRepoPath(root, LONG);
    expect(r).toMatchObject({ ok: false, violation: { rule: "scope.unresolvable", input: LONG } });
    expect(!r.ok && r.violation.message).toBe(
      `"${LONG.slice(0, 160)}…" (300 chars): cannot inspect ${root}/${LONG}: ENAMETOOLONG`,
    );
  });

  it("a link to the root itself is not a file", () => {
    expect(resolveRepoPath(root, "self")).toMatchObject({
      ok: false,
      violation: { rule: "scope.not-a-file", message: `"self" resolves to the repository root itself` },
    });
  });

  it.each([
    ["gitlink/config", `"gitlink/config" resolves to ".git/config", inside .git`],
    ["wslink/state.json", `"wslink/state.json" resolves to ".devrites/state.json", inside .devrites`],
  ])("a link into a protected folder: %s", (p, message) => {
    expect(resolveRepoPath(root, p)).toMatchObject({
      ok: false,
      violation: { rule: "scope.symlink-escape", input: p, message },
    });
  });

  it("near miss: from the root `/` every real path is inside, and the kind is reported", () => {
    expect(resolveTarget("/", "dev/null")).toEqual({ ok: true, path: "dev/null", kind: "other" });
  });

  it("a host path relative to the root or to a cwd below it resolves to the same file", () => {
    expect(resolveHostPath(root, "src/app.ts")).toEqual({ ok: true, path: "src/app.ts" });
    expect(resolveHostPath(root, "app.ts", "src")).toEqual({ ok: true, path: "src/app.ts" });
    expect(resolveHostPath(root, "../src/app.ts", "chain")).toEqual({ ok: true, path: "src/app.ts" });
  });

  it("the kernel's own walk of the raw path failing is reported with the raw path", () => {
    const p = `${LONG}/../src/app.ts`;
    const r = resolveHostPath(root, p);
    expect(r).toMatchObject({ ok: false, violation: { rule: "scope.unresolvable", input: p } });
    expect(!r.ok && r.violation.message).toMatch(/: cannot inspect .*: ENAMETOOLONG$/);
  });
});
