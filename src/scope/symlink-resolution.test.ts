/**
 * How scope resolves a path through symlinks: a relative link that stays inside resolves like its target and
 * may be allowlisted, one that leaves is an escape, climbing out of a missing directory onto a link still
 * follows the link, exactly 40 links are followed (Linux's MAXSYMLINKS) and the 41st is refused, and a root
 * reached through another name (a symlinked checkout) is the same root.
 */

import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { checkAllowlist } from "./allowlist.js";
import { resolveHostPath, resolveRepoPath } from "./resolve-repo-path.js";

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
    expect(resolveHostPath(root, "new/../docs/current/app.ts")).toEqual({
      ok: true,
      path: "docs/current/app.ts",
    });
    expect(resolveHostPath(root, "new/deeper/../../docs/current/app.ts")).toEqual({
      ok: true,
      path: "docs/current/app.ts",
    });
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
