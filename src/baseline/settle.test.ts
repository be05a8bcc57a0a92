/**
 * Settled paths (`_settle.ts`): the pure rules, and the snapshot's fast paths judged by their effect — with a
 * cut, the manifest a check builds must be exactly the one a snapshot that trusts nothing builds, whatever
 * happened after the cut (an in-place write, a swap that keeps a file's own ctime, a planted file).
 */
import { execFileSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
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
import {
  CLOCK_SLACK_MS,
  identityOf,
  isStatMark,
  PROBED_SLACK_MS,
  SettledTree,
  settledAt,
  settledSeconds,
  takeStatMark,
} from "./_settle.js";
import { entriesFor, snapshotTree } from "./snapshot.js";
import type { ManifestEntry } from "./types.js";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function tempDir(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "devrites-settle-")));
  temps.push(d);
  return d;
}

const g = (root: string, ...args: string[]) =>
  execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false", ...args],
    {
      cwd: root,
    },
  );

describe("the rules", () => {
  it("a ctime is settled only strictly before the cut", () => {
    expect(settledAt(999.5, 1000)).toBe(true);
    expect(settledAt(1000, 1000)).toBe(false);
    expect(settledAt(Number.NaN, 1000)).toBe(false);
  });
  it("an index entry's whole seconds are settled only when the whole second is before the cut", () => {
    expect(settledSeconds(1, 2000)).toBe(true);
    expect(settledSeconds(1, 1999)).toBe(false); // 1.999 s could still be at or after the cut
    expect(settledSeconds(2, 2000)).toBe(false);
  });
  it("a mark has exactly its two fields", () => {
    expect(isStatMark({ settled_before_ms: 1796000000000, root: "2049:12" })).toBe(true);
    for (const bad of [
      null,
      [],
      { settled_before_ms: 1796000000000 },
      { settled_before_ms: 1796000000000, root: "2049:12", extra: 1 },
      { settled_before_ms: 1796000000000.5, root: "2049:12" },
      { settled_before_ms: 0, root: "2049:12" },
      { settled_before_ms: "1796000000000", root: "2049:12" },
      { settled_before_ms: 1796000000000, root: "2049" },
      { settled_before_ms: 1796000000000, root: "a:b" },
    ])
      expect(isStatMark(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe("takeStatMark", () => {
  it("with a probe, the mark is the file system's clock less the probed slack, and removes the probe", () => {
    const root = tempDir();
    mkdirSync(join(root, ".devrites"));
    const before = Date.now();
    const mark = takeStatMark(root, join(root, ".devrites"))!;
    expect(mark.root).toBe(identityOf(root));
    expect(mark.settled_before_ms).toBeLessThanOrEqual(Date.now() - PROBED_SLACK_MS);
    expect(mark.settled_before_ms).toBeGreaterThan(before - PROBED_SLACK_MS - 50);
    expect(readdirSync(join(root, ".devrites"))).toEqual([]);
  });
  it("without a folder to probe in, the process clock stands in with the wider slack", () => {
    const root = tempDir();
    const mark = takeStatMark(root, join(root, "absent"), 1_796_000_000_000)!;
    expect(mark.settled_before_ms).toBe(1_796_000_000_000 - CLOCK_SLACK_MS);
  });
  it("a root that cannot be read gives no mark", () => {
    expect(takeStatMark(join(tempDir(), "gone"), tmpdir())).toBeUndefined();
  });
});

describe("SettledTree", () => {
  it("a folder is settled only with every folder above it", async () => {
    const root = tempDir();
    mkdirSync(join(root, "a/b"), { recursive: true });
    mkdirSync(join(root, "c"));
    const cut = Date.now() + 1;
    await untilCtimeAfter(`${root}.probe`, cut);
    writeFileSync(join(root, "a/new.txt"), "x"); // a's entries change: a and what is under it unsettle
    const t = new SettledTree(root, cut, identityOf(root));
    expect(t.dir("c")).toBe(true);
    expect(t.dir("a")).toBe(false);
    expect(t.dir("a/b")).toBe(false);
    expect(t.above("c/x.ts")).toBe(true);
    expect(t.above("a/b/x.ts")).toBe(false);
    expect(t.dir("\u0000hex:ff")).toBe(false);
  });
  it("a root that is not the marked one settles nothing", async () => {
    const root = tempDir();
    mkdirSync(join(root, "c"));
    const cut = Date.now() + 1;
    await untilCtimeAfter(`${root}.probe`, cut);
    expect(new SettledTree(root, cut, "0:0").dir("c")).toBe(false);
    expect(new SettledTree(root, cut, undefined).dir("c")).toBe(true);
  });
});

/**
 * A repository with dirty tracked files in two folders, an untracked file and an ignored `node_modules`,
 * all settled before the returned cut (every later write is stamped at or after it).
 */
async function settledRepo(): Promise<{ root: string; cut: number }> {
  const root = tempDir();
  g(root, "init", "-q");
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  for (const d of ["src", "lib", "node_modules/pkg", "node_modules/old"])
    mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, "src/a.ts"), "a0\n");
  writeFileSync(join(root, "lib/a.ts"), "b0\n");
  g(root, "add", ".");
  g(root, "commit", "-qm", "init");
  writeFileSync(join(root, "src/a.ts"), "a1 dirty\n");
  writeFileSync(join(root, "lib/a.ts"), "b1 dirty, other bytes\n");
  writeFileSync(join(root, "src/new.ts"), "untracked\n");
  writeFileSync(join(root, "node_modules/pkg/index.js"), "module.exports = 1;\n");
  writeFileSync(join(root, "node_modules/old/index.js"), "module.exports = 2;\n");
  const cut = Date.now() + 1;
  await untilCtimeAfter(`${root}.probe`, cut);
  return { root, cut };
}

/** The manifest a snapshot that trusts nothing builds (no mark: no file or signature kept, every entry verified). */
async function trusting(root: string): Promise<ManifestEntry[]> {
  return entriesFor(await snapshotTree(root, 0, { settle: { cutMs: 0 } }), []);
}

const SCENARIOS: { name: string; leaf: (root: string) => void; changes: string[] }[] = [
  { name: "nothing changed", leaf: () => {}, changes: [] },
  {
    name: "a settled dirty file rewritten in place",
    leaf: (r) => writeFileSync(join(r, "src/a.ts"), "a2 by the leaf\n"),
    changes: ["src/a.ts"],
  },
  {
    name: "a settled dirty file rewritten with its old mtime put back",
    leaf: (r) => {
      const st = lstatSync(join(r, "src/a.ts"));
      writeFileSync(join(r, "src/a.ts"), "a9 samesize\n".slice(0, st.size));
      utimesSync(join(r, "src/a.ts"), st.atime, st.mtime);
    },
    changes: ["src/a.ts"],
  },
  {
    name: "two folders swapped (each file keeps its own ctime)",
    leaf: (r) => {
      renameSync(join(r, "src"), join(r, "tmp"));
      renameSync(join(r, "lib"), join(r, "src"));
      renameSync(join(r, "tmp"), join(r, "lib"));
    },
    changes: ["lib/a.ts", "src/a.ts", "src/new.ts", "lib/new.ts"],
  },
  {
    name: "an ignored file rewritten in place",
    leaf: (r) => writeFileSync(join(r, "node_modules/pkg/index.js"), "module.exports = 666;\n"),
    changes: ["node_modules/"],
  },
  {
    name: "two ignored folders swapped",
    leaf: (r) => {
      renameSync(join(r, "node_modules/pkg"), join(r, "node_modules/tmp"));
      renameSync(join(r, "node_modules/old"), join(r, "node_modules/pkg"));
      renameSync(join(r, "node_modules/tmp"), join(r, "node_modules/old"));
    },
    changes: ["node_modules/"],
  },
  {
    name: "the ignored folder replaced by another, older one",
    leaf: (r) => {
      renameSync(join(r, "node_modules"), join(r, "nm-moved"));
      mkdirSync(join(r, "node_modules"));
      renameSync(join(r, "nm-moved/old"), join(r, "node_modules/old"));
      renameSync(join(r, "nm-moved/pkg"), join(r, "node_modules/pkg"));
      rmSync(join(r, "nm-moved"), { recursive: true });
    },
    changes: ["node_modules/"],
  },
];

describe("a check's snapshot with a cut", () => {
  it.each(SCENARIOS)(
    "builds the manifest a trusting-nothing snapshot builds: $name",
    async ({ leaf, changes }) => {
      const { root, cut } = await settledRepo();
      const baseline = entriesFor(await snapshotTree(root), []);
      leaf(root);
      const settle = { cutMs: cut, root: identityOf(root)!, reuse: baseline };
      const check = await snapshotTree(root, 0, { settle });
      const fast = entriesFor(check, [], baseline);
      expect(fast).toEqual(await trusting(root));
      const changed = (list: ManifestEntry[]) =>
        [...new Set([...list, ...baseline].map((e) => e.path))].filter(
          (p) =>
            JSON.stringify(list.find((e) => e.path === p)) !==
            JSON.stringify(baseline.find((e) => e.path === p)),
        );
      expect(
        changed(fast)
          .filter((p) => !p.startsWith(".git/"))
          .sort(),
      ).toEqual([...changes].sort());
    },
  );

  it("keeps the baseline's hashes and signature when nothing changed: no file is read", async () => {
    const { root, cut } = await settledRepo();
    const baseline = entriesFor(await snapshotTree(root), []);
    const check = await snapshotTree(root, 0, {
      settle: { cutMs: cut, root: identityOf(root)!, reuse: baseline },
    });
    expect(check.stats.hashedFiles).toBe(0);
    expect(check.ignored?.map((t) => [t.path, t.settled])).toEqual([["node_modules/", true]]);
  });

  it("near miss: without the mark's root nothing is kept (a cut from a packet's creation only narrows)", async () => {
    const { root, cut } = await settledRepo();
    const baseline = entriesFor(await snapshotTree(root), []);
    const check = await snapshotTree(root, 0, { settle: { cutMs: cut, reuse: baseline } });
    expect(check.stats.hashedFiles).toBe(3);
    expect(check.ignored?.map((t) => t.settled)).toEqual([undefined]);
  });

  it("a settled ignored path the packet's baseline does not have is recorded as a change", async () => {
    const { root, cut } = await settledRepo();
    const baseline = entriesFor(await snapshotTree(root), []);
    const check = await snapshotTree(root, 0, {
      settle: { cutMs: cut, root: identityOf(root)!, reuse: baseline },
    });
    const without = baseline.filter((e) => e.path !== "node_modules/");
    const entry = entriesFor(check, [], without).find((e) => e.path === "node_modules/");
    expect(entry?.sha256).not.toBe(baseline.find((e) => e.path === "node_modules/")?.sha256);
  });
});
