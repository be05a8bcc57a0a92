/**
 * The stat signature `_extra.ts` gives an ignored path (docs/tree-check.md), through both walks (`find` and
 * Node's): stable, and unchanged by reading a file; changed by a same-size rewrite whose mtime was put back
 * (ctime moved), a new file, a chmod and a hard link; and blind, as it must be, to the packet's own touched
 * files.
 */

import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ignoredEntries, ignoredTree, ignoredTrees } from "./_extra.js";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function tree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "devrites-extra-")));
  temps.push(root);
  mkdirSync(join(root, "node_modules/a/b"), { recursive: true });
  writeFileSync(join(root, "node_modules/a/b/x.js"), "1234\n");
  writeFileSync(join(root, "node_modules/y.js"), "y\n");
  return root;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const walks = {
  find: async (root: string) => ignoredTrees(root, [{ raw: Buffer.from("node_modules"), dir: true }]),
  node: async (root: string) => [ignoredTree(root, Buffer.from("node_modules"), true)],
};

describe.each(Object.entries(walks))("the ignored-path stat signature (%s)", (_name, walk) => {
  const digest = async (root: string, exclude: string[] = []) =>
    ignoredEntries(await walk(root), new Set(exclude))[0]!.sha256;

  it("is stable, and unchanged by reading a file", async () => {
    const root = tree();
    const before = await digest(root);
    readFileSync(join(root, "node_modules/a/b/x.js"));
    expect(await digest(root)).toBe(before);
  });

  it("sees a same-size rewrite whose mtime was put back (ctime moved)", async () => {
    const root = tree();
    const f = join(root, "node_modules/a/b/x.js");
    const st = statSync(f);
    const before = await digest(root);
    await sleep(20);
    writeFileSync(f, "abcd\n");
    utimesSync(f, st.atime, st.mtime);
    expect(statSync(f).size).toBe(st.size);
    expect(await digest(root)).not.toBe(before);
  });

  it("sees a new file, a chmod and a hard link", async () => {
    const root = tree();
    let before = await digest(root);
    writeFileSync(join(root, "node_modules/a/new.js"), "");
    expect(await digest(root)).not.toBe(before);
    before = await digest(root);
    execFileSync("chmod", ["+x", join(root, "node_modules/y.js")]);
    expect(await digest(root)).not.toBe(before);
    before = await digest(root);
    execFileSync("ln", [join(root, "node_modules/y.js"), join(root, "node_modules/y2.js")]);
    expect(await digest(root)).not.toBe(before);
  });

  it("leaves out the packet's touched files: a change to one of them does not change the signature", async () => {
    const root = tree();
    const touched = ["node_modules/y.js"];
    const before = await digest(root, touched);
    await sleep(20);
    writeFileSync(join(root, "node_modules/y.js"), "changed, allowlisted\n");
    expect(await digest(root, touched)).toBe(before);
    expect(await digest(root)).not.toBe(await digest(root, touched));
  });
});
