/** The wright's per-target check and the read-only roles' workspace check, called directly. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { resolveRepoPath } from "../scope/index.js";
import { checkWrightTarget, isDevice, isDevritesTarget } from "./targets.js";
import type { GuardContext } from "./types.js";

let root = "";
let cleanup = () => {};
beforeAll(() => {
  const t = makeTree({ "src/a.ts": "a", ".devrites/state.json": "{}" });
  root = t.base;
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

const ctx = (): GuardContext => ({
  root,
  activePackets: [],
  resolve: (p) => resolveRepoPath(root, p),
  isInstalledRole: () => true,
});
const ALLOW = ["src/a.ts"];

describe("isDevice", () => {
  it.each([
    ["/dev/null", true],
    ["/dev/stdout", true],
    ["/dev/stderr", true],
    ["/dev/tty", true],
    ["/dev/fd/1", true],
    ["/dev/fd/12", true],
    ["/dev/fd/", false],
    ["/dev/fd/1x", false],
    ["/dev/fd/x1", false],
    ["/x/dev/fd/1", false],
    ["/dev/sda", false],
    ["dev/null", false],
  ])("%j → %s", (p, expected) => {
    expect(isDevice(p)).toBe(expected);
  });
});

describe("checkWrightTarget", () => {
  it("passes a device only as a sink", () => {
    expect(checkWrightTarget(ctx(), ALLOW, "/dev/null", root, false, true)).toEqual({ ok: true });
    expect(checkWrightTarget(ctx(), ALLOW, "/dev/null", root, false, false)).toMatchObject({
      ok: false,
      rule: "guard.outside-allowlist",
    });
    // A sink that is not a device is checked like any path.
    expect(checkWrightTarget(ctx(), ALLOW, "src/b.ts", root, false, true)).toMatchObject({
      ok: false,
      rule: "guard.outside-allowlist",
    });
  });

  it("checks an absolute path even when the directory is unknown", () => {
    expect(checkWrightTarget(ctx(), ALLOW, `${root}/src/a.ts`, null)).toEqual({ ok: true });
    expect(checkWrightTarget(ctx(), ALLOW, `${root}/src/b.ts`, null)).toMatchObject({
      ok: false,
      rule: "guard.outside-allowlist",
    });
    expect(checkWrightTarget(ctx(), ALLOW, "src/a.ts", null)).toMatchObject({
      ok: false,
      rule: "guard.write-target-unknown",
    });
  });

  it("names the workspace rule for .devrites", () => {
    expect(checkWrightTarget(ctx(), ALLOW, ".devrites/x", root)).toEqual({
      ok: false,
      rule: "guard.devrites-write",
      why: "`.devrites/x` is inside the devrites workspace",
      hint: "only the devrites CLI writes .devrites/; return your result as your final message",
    });
  });
});

describe("isDevritesTarget", () => {
  it.each<[string, string | null, boolean]>([
    [".devrites/x", "root", true],
    ["src/a.ts", "root", false],
    ["ABS/.devrites/x", null, true],
    ["ABS/src/a.ts", null, false],
    [".devrites/x", null, false],
  ])("%j from %s → %s", (p, cwd, expected) => {
    const path = p.replace("ABS", root);
    expect(isDevritesTarget(ctx(), path, cwd === "root" ? root : cwd)).toBe(expected);
  });
});
