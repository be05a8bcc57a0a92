import { execFileSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { untilCtimeAfter } from "../../tests/helpers/clock.js";
import type { AttackRepo } from "../../tests/tree-attacks/harness.js";
import { forgeIndexStat } from "../../tests/tree-attacks/tamper.js";
import {
  entryRaw,
  flaggedRecords,
  forgedCleanPaths,
  hiddenIndexEntries,
  INDEX_LISTING_ARGS,
  indexFolders,
  parseIndexListing,
} from "./_index-verify.js";
import { SettledTree } from "./_settle.js";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

const g = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args], { cwd: root });

function repo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "devrites-idxv-")));
  temps.push(root);
  g(root, "init", "-q");
  mkdirSync(join(root, "src"));
  mkdirSync(join(root, "lib"));
  writeFileSync(join(root, "src/b.ts"), "export const b = 1;\n");
  writeFileSync(join(root, "lib/b.ts"), "export const b = 2;\n");
  writeFileSync(join(root, "a b.txt"), "x\n");
  g(root, "add", ".");
  g(root, "commit", "-qm", "init");
  return root;
}

const listing = (root: string) => parseIndexListing(g(root, ...INDEX_LISTING_ARGS));
const forger = (root: string) =>
  ({ abs: (p: string) => join(root, p), gitDir: () => join(root, ".git") }) as AttackRepo;
/** A cut after everything the repository holds now: all of it is settled. */
const allSettled = (root: string) => new SettledTree(root, Date.now() + 60_000, undefined);
/** A cut before the repository was made: nothing in it is settled. */
const noneSettled = (root: string) => new SettledTree(root, Date.now() - 60_000, undefined);

describe("parseIndexListing", () => {
  it("reads tag, path and cached ctime of every entry, in index order", () => {
    const root = repo();
    g(root, "update-index", "--assume-unchanged", "lib/b.ts");
    const l = listing(root);
    expect(l.count).toBe(3);
    expect([0, 1, 2].map((i) => entryRaw(l, i).toString())).toEqual(["a b.txt", "lib/b.ts", "src/b.ts"]);
    for (let i = 0; i < l.count; i++) expect(l.ctimeS[i]).toBeGreaterThan(Date.now() / 1000 - 600);
    expect(hiddenIndexEntries(l).map((e) => [e.raw.toString(), e.skipWorktree])).toEqual([
      ["lib/b.ts", false],
    ]);
    expect(flaggedRecords(l).toString()).toBe("h lib/b.ts\0");
    expect(indexFolders(l)).toEqual(["lib", "src"]);
  });
  it("names each folder once, parents included, however the entries run", () => {
    const out = Buffer.from(
      ["a/b/c.ts", "a/b/d.ts", "a/e.ts", "f.ts", "g/h/i.ts"]
        .map(
          (p) =>
            `H 100644 ${"0".repeat(40)} 0\t${p}\0  ctime: 1:0\n  mtime: 1:0\n  dev: 1\tino: 2\n  uid: 0\tgid: 0\n  size: 3\tflags: 0\n`,
        )
        .join(""),
    );
    expect(indexFolders(parseIndexListing(out))).toEqual(["a/b", "a", "g/h", "g"]);
  });
  it("refuses truncated output", () => {
    expect(() => parseIndexListing(Buffer.from(`H 100644 ${"0".repeat(40)} 0\tx\0  ctime: 1:2\n`))).toThrow(
      /truncated/,
    );
  });
  const record = (head: string, ctime = "ctime: 1796180000:12", mtime = "mtime: 17:0") =>
    Buffer.from(`${head}\0  ${ctime}\n  ${mtime}\n  dev: 1\tino: 2\n  uid: 0\tgid: 0\n  size: 3\tflags: 0\n`);
  const blob = "a".repeat(40);
  it("reads the seconds of the ctime line from the bytes", () => {
    const l = parseIndexListing(record(`H 100755 ${blob} 0\tx`));
    expect([l.count, l.ctimeS[0], l.kind[0]]).toEqual([1, 1796180000, 3]);
    expect(parseIndexListing(record(`H 120000 ${blob} 0\tx`)).kind[0]).toBe(2); // a symlink: not regular
    expect(parseIndexListing(record(`M 100644 ${blob} 2\tx`)).kind[0]).toBe(1); // a conflict stage
  });
  it.each([
    ["the lines swapped", `H 100644 ${blob} 0\tx`, "mtime: 1:2", "ctime: 1:2"],
    ["no digits", `H 100644 ${blob} 0\tx`, "ctime: :2", "mtime: 1:2"],
    ["no nanoseconds separator", `H 100644 ${blob} 0\tx`, "ctime: 12", "mtime: 1:2"],
    ["a sign", `H 100644 ${blob} 0\tx`, "ctime: -1:2", "mtime: 1:2"],
    [
      "more digits than a number keeps exactly",
      `H 100644 ${blob} 0\tx`,
      "ctime: 1234567890123456:0",
      "mtime: 1:2",
    ],
    ["no space after the colon", `H 100644 ${blob} 0\tx`, "ctime:1:2", "mtime: 1:2"],
  ])("refuses a debug record with %s", (_why, head, ctime, mtime) => {
    expect(() => parseIndexListing(record(head, ctime, mtime))).toThrow(
      /unexpected git ls-files --debug record/,
    );
  });
  it.each([
    ["no tag", `100644 ${blob} 0\tx`],
    ["a short blob", `H 100644 ${"a".repeat(39)} 0\tx`],
    ["a two-digit stage", `H 100644 ${blob} 01\tx`],
    ["a five-digit mode", `H 10064 ${blob} 0\tx`],
    ["no tab", `H 100644 ${blob} 0 x`],
  ])("refuses an entry line with %s", (_why, head) => {
    expect(() => parseIndexListing(record(head))).toThrow(/unexpected git ls-files record/);
  });
});

describe("forgedCleanPaths", () => {
  it("finds a rewritten file whose index entry was given its new stat data (blob id kept)", async () => {
    const root = repo();
    writeFileSync(join(root, "src/b.ts"), "export const b = 3;\n");
    forgeIndexStat(forger(root), "src/b.ts");
    expect(g(root, "-c", "core.fsmonitor=false", "status", "--porcelain").toString()).toBe(""); // git is fooled
    const found = await forgedCleanPaths(root, listing(root), noneSettled(root), new Set());
    expect(found.map((b) => b.toString())).toEqual(["src/b.ts"]);
    // A path already a candidate is not hashed again.
    const known = new Set([Buffer.from("src/b.ts").toString("hex")]);
    expect(await forgedCleanPaths(root, listing(root), noneSettled(root), known)).toEqual([]);
  });

  it("finds the forgery when the file went in by a folder swap, which keeps the file's own ctime", async () => {
    const root = repo();
    // old mtimes (so git does not take the swapped entries as racily clean), recorded in the index
    const past = Date.now() / 1000 - 30;
    for (const p of ["src/b.ts", "lib/b.ts"]) utimesSync(join(root, p), past, past);
    g(root, "update-index", "--refresh");
    // everything written so far is settled, to the second (the index keeps whole seconds of ctime)
    const newest = Math.max(...["src/b.ts", "lib/b.ts"].map((p) => lstatSync(join(root, p)).ctimeMs));
    const cut = (Math.floor(newest / 1000) + 2) * 1000;
    await untilCtimeAfter(join(root, ".git", "probe"), cut);
    // swap src and lib: src/b.ts is now lib's old file (its ctime is from before the cut), then make git agree
    renameSync(join(root, "src"), join(root, "tmp"));
    renameSync(join(root, "lib"), join(root, "src"));
    renameSync(join(root, "tmp"), join(root, "lib"));
    forgeIndexStat(forger(root), "src/b.ts", { keepTimes: true });
    forgeIndexStat(forger(root), "lib/b.ts", { keepTimes: true });
    expect(g(root, "-c", "core.fsmonitor=false", "status", "--porcelain").toString()).toBe("");
    for (const p of ["src/b.ts", "lib/b.ts"]) expect(lstatSync(join(root, p)).ctimeMs).toBeLessThan(cut);
    const found = await forgedCleanPaths(
      root,
      listing(root),
      new SettledTree(root, cut, undefined),
      new Set(),
    );
    expect(found.map((b) => b.toString()).sort()).toEqual(["lib/b.ts", "src/b.ts"]);
  }, 10_000);

  it("near miss: a file touched after the cut with its content unchanged is not reported", async () => {
    const root = repo();
    writeFileSync(join(root, "src/b.ts"), "export const b = 1;\n");
    g(root, "update-index", "--refresh");
    expect(await forgedCleanPaths(root, listing(root), noneSettled(root), new Set())).toEqual([]);
  });

  it("near miss: settled entries are not hashed at all", async () => {
    const root = repo();
    writeFileSync(join(root, "src/b.ts"), "changed\n");
    forgeIndexStat(forger(root), "src/b.ts");
    expect(await forgedCleanPaths(root, listing(root), allSettled(root), new Set())).toEqual([]);
  });

  it("a root that is not the mark's settles nothing", async () => {
    const root = repo();
    writeFileSync(join(root, "src/b.ts"), "changed\n");
    forgeIndexStat(forger(root), "src/b.ts");
    const elsewhere = new SettledTree(root, Date.now() + 60_000, "1:1");
    expect((await forgedCleanPaths(root, listing(root), elsewhere, new Set())).map(String)).toEqual([
      "src/b.ts",
    ]);
  });

  it("hashes paths git would misread from its input by argument", async () => {
    const root = repo();
    for (const name of ['"quoted.ts', "cr\r.ts"]) writeFileSync(join(root, name), "one\n");
    g(root, "add", ".");
    g(root, "commit", "-qm", "odd names");
    for (const name of ['"quoted.ts', "cr\r.ts"]) {
      writeFileSync(join(root, name), "two\n");
      forgeIndexStat(forger(root), name);
    }
    const found = await forgedCleanPaths(root, listing(root), noneSettled(root), new Set());
    expect(found.map(String).sort()).toEqual(['"quoted.ts', "cr\r.ts"]);
  });
});
