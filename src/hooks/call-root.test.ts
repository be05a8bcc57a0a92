import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { findCallRoot } from "./call-root.js";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function tree(spec: Parameters<typeof makeTree>[0]): string {
  const t = makeTree(spec);
  cleanups.push(t.cleanup);
  return t.base;
}

describe("findCallRoot", () => {
  it("walks up to the folder holding .devrites", () => {
    const base = tree({ ".devrites/": "", "a/b/c/": "" });
    expect(findCallRoot([join(base, "a/b/c")])).toBe(base);
  });

  it("prefers the nearest .devrites over a nearer .git (a submodule inside a devrites repo)", () => {
    const base = tree({
      ".devrites/": "",
      ".git/": "",
      "sub/.git": "gitdir: ../.git/modules/sub",
      "sub/x/": "",
    });
    expect(findCallRoot([join(base, "sub/x")])).toBe(base);
  });

  it("falls back to the nearest .git (folder or file) when there is no workspace", () => {
    const base = tree({ ".git/": "", "a/": "" });
    expect(findCallRoot([join(base, "a")])).toBe(base);
    const wt = tree({ ".git": "gitdir: /elsewhere", "a/": "" });
    expect(findCallRoot([join(wt, "a")])).toBe(wt);
  });

  it("a .devrites that is a file does not count", () => {
    const base = tree({ ".git/": "", "a/.devrites": "not a folder", "a/b/": "" });
    expect(findCallRoot([join(base, "a/b")])).toBe(base);
  });

  it("tries the candidates in order and skips unusable ones", () => {
    const first = tree({ ".devrites/": "" });
    const second = tree({ ".devrites/": "" });
    expect(findCallRoot([undefined, 7, "", "relative/path", "/a\0b", second, first])).toBe(second);
    expect(findCallRoot([first, second])).toBe(first);
  });

  it("a later candidate with a workspace beats an earlier one with only .git", () => {
    const gitOnly = tree({ ".git/": "" });
    const ws = tree({ ".devrites/": "" });
    expect(findCallRoot([gitOnly, ws])).toBe(ws);
  });

  it("returns the realpath of the root", () => {
    const base = tree({ ".devrites/": "", "real/": "", link: { link: "real" } });
    mkdirSync(join(base, "real", "deep"));
    expect(findCallRoot([join(base, "link", "deep")])).toBe(base);
  });

  it("without any marker, the first existing candidate; without any, undefined", () => {
    const plain = tree({ "a/": "" });
    writeFileSync(join(plain, "f"), "");
    // tmp dirs may sit under a repo on some machines; only assert the no-candidate cases strictly
    expect(findCallRoot([join(plain, "missing", "deeper")])).not.toBe(join(plain, "missing", "deeper"));
    expect(findCallRoot([])).toBeUndefined();
    expect(findCallRoot(["relative"])).toBeUndefined();
  });
});
