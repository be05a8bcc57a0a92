import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../core/hash.js";
import { diffSnapshots } from "./diff.js";
import { findRepoRoot } from "./find-repo-root.js";
import { freezeBaseline } from "./freeze.js";
import { describePaths, entriesFor, snapshotTree as snapshotWithGitState } from "./snapshot.js";
import type { TreeSnapshot } from "./types.js";

/**
 * The work-tree part of a snapshot: these tests pin what git status and the index flags lead to; the git
 * folder's state (`.git/…` entries) is pinned end to end in tests/contract/tree-coverage.test.ts, and the
 * ignored paths' stat signature in `_extra.ignored-signature.test.ts`.
 */
async function snapshotTree(root: string): Promise<TreeSnapshot> {
  const s = await snapshotWithGitState(root);
  return { ...s, entries: s.entries.filter((e) => !e.path.startsWith(".git/")) };
}

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function tempDir(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "devrites-baseline-")));
  temps.push(d);
  return d;
}

/** Git for fixtures: isolated from the machine's config, fixed identity, no signing. */
function g(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
    encoding: "utf8",
  });
}

function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

/** A repository with one commit: tracked files, a tracked symlink, an ignore rule. */
function repo(files: Record<string, string> = {}): string {
  const root = tempDir();
  g(root, "init", "-q");
  write(root, ".gitignore", "*.log\nbuild/\n");
  write(root, "src/a.ts", "a\n");
  write(root, "src/b.ts", "b\n");
  symlinkSync("src/a.ts", join(root, "link"));
  for (const [rel, content] of Object.entries(files)) write(root, rel, content);
  g(root, "add", "-A");
  g(root, "commit", "-q", "-m", "init");
  return root;
}

async function idOf(root: string, touched: string[] = []): Promise<string> {
  return (await freezeBaseline(root, touched)).baseline.id;
}

describe("snapshotTree in a git repository", () => {
  it("a clean tree has an empty manifest, hashes nothing and records HEAD", async () => {
    const root = repo();
    const snap = await snapshotTree(root);
    expect(snap.head).toBe(g(root, "rev-parse", "HEAD").trim());
    expect(snap.entries).toEqual([]);
    expect(snap.stats).toEqual({ hashedFiles: 0, hashedBytes: 0 });
  });

  it("records content, type and exec bit of dirty paths only, sorted by path bytes", async () => {
    const root = repo();
    write(root, "src/a.ts", "changed\n");
    write(root, "z-new.sh", "#!/bin/sh\n");
    chmodSync(join(root, "z-new.sh"), 0o755);
    unlinkSync(join(root, "src/b.ts"));
    write(root, "debug.log", "ignored\n");
    const snap = await snapshotTree(root);
    expect(snap.entries).toEqual([
      { path: "src/a.ts", type: "file", exec: false, sha256: sha256Hex("changed\n") },
      { path: "src/b.ts", type: "missing", exec: false, sha256: null },
      { path: "z-new.sh", type: "file", exec: true, sha256: sha256Hex("#!/bin/sh\n") },
    ]);
    expect(snap.stats).toEqual({ hashedFiles: 2, hashedBytes: 8 + 10 });
  });

  it("hashes a symlink's text and never follows it", async () => {
    const root = repo();
    unlinkSync(join(root, "link"));
    symlinkSync("/etc/passwd", join(root, "link"));
    const snap = await snapshotTree(root);
    expect(snap.entries).toEqual([
      { path: "link", type: "symlink", exec: false, sha256: sha256Hex("/etc/passwd") },
    ]);
  });

  it("cost grows with dirty files, not repository size: 500 clean + 3 dirty hashes exactly 3", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 500; i++) files[`pkg/m${Math.floor(i / 50)}/f${i}.txt`] = `file ${i}\n`;
    const root = repo(files);
    write(root, "pkg/m0/f0.txt", "dirty 0\n");
    write(root, "pkg/m9/f499.txt", "dirty 499\n");
    write(root, "pkg/new.txt", "new\n");
    const snap = await snapshotTree(root);
    expect(snap.stats.hashedFiles).toBe(3);
    expect(snap.entries.map((e) => e.path)).toEqual(["pkg/m0/f0.txt", "pkg/m9/f499.txt", "pkg/new.txt"]);
  });

  it("lists both sides of a rename (renames are not detected)", async () => {
    const root = repo();
    g(root, "mv", "src/b.ts", "src/c.ts");
    const paths = (await snapshotTree(root)).entries.map((e) => [e.path, e.type]);
    expect(paths).toEqual([
      ["src/b.ts", "missing"],
      ["src/c.ts", "file"],
    ]);
  });

  it("excludes the workspace .devrites/ whether or not it is ignored, but not look-alikes", async () => {
    const root = repo();
    write(root, ".devrites/state.json", "{}");
    write(root, ".devrites/runs/run-20261202T063000Z-0123abcd/result.json", "{}");
    write(root, ".devrites-old/x", "x");
    write(root, "pkg/.devrites/x", "x");
    const paths = (await snapshotTree(root)).entries.map((e) => e.path);
    expect(paths).toEqual([".devrites-old/x", "pkg/.devrites/x"]);
  });

  it("sees changes to assume-unchanged files that git status hides", async () => {
    const root = repo();
    g(root, "update-index", "--assume-unchanged", "src/b.ts");
    const before = await snapshotTree(root);
    write(root, "src/b.ts", "sneaky\n");
    expect(g(root, "status", "--porcelain")).toBe("");
    const after = await snapshotTree(root);
    expect(diffSnapshots(before, after).map((c) => c.path)).toEqual(["src/b.ts"]);
  });

  it("records a file whose name is not UTF-8 losslessly and sees its content change", async () => {
    const root = repo();
    const name = Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x66, 0xff])]);
    writeFileSync(name, "one");
    const one = await snapshotTree(root);
    expect(one.entries).toEqual([
      { path: "\u0000hex:66ff", type: "file", exec: false, sha256: sha256Hex("one") },
    ]);
    writeFileSync(name, "two");
    expect(diffSnapshots(one, await snapshotTree(root))).toHaveLength(1);
  });

  it("records a nested repository by its checked-out commit and its own work tree", async () => {
    const root = repo();
    const nested = join(root, "vendor/lib");
    mkdirSync(nested, { recursive: true });
    g(nested, "init", "-q");
    write(nested, "x", "1");
    g(nested, "add", "-A");
    g(nested, "commit", "-q", "-m", "one");
    const first = await snapshotTree(root);
    expect(first.entries).toEqual([
      { path: "vendor/lib", type: "submodule", exec: false, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect((await snapshotTree(root)).entries).toEqual(first.entries); // stable
    write(nested, "x", "2");
    g(nested, "commit", "-q", "-am", "two");
    const second = await snapshotTree(root);
    expect(diffSnapshots(first, second).map((c) => c.path)).toEqual(["vendor/lib"]);
    // already dirty inside, then changed again: still seen (its own dirty manifest is part of the digest)
    write(nested, "x", "dirty once");
    const dirty = await snapshotTree(root);
    write(nested, "x", "dirty twice");
    expect(diffSnapshots(dirty, await snapshotTree(root)).map((c) => c.path)).toEqual(["vendor/lib"]);
    // …and so is its git state (a hook planted inside it)
    const before = await snapshotTree(root);
    write(nested, ".git/hooks/pre-commit", "#!/bin/sh\n");
    expect(diffSnapshots(before, await snapshotTree(root)).map((c) => c.path)).toEqual(["vendor/lib"]);
  });

  it("refuses a subdirectory of a repository as the root", async () => {
    const root = repo();
    await expect(snapshotTree(join(root, "src"))).rejects.toThrow(/top level/);
  });

  it("throws when HEAD names a missing commit instead of calling it unborn", async () => {
    const root = repo();
    writeFileSync(join(root, ".git/HEAD"), `${"1".repeat(40)}\n`);
    await expect(snapshotTree(root)).rejects.toThrow();
  });
});

describe("baseline id sensitivity", () => {
  type Mutation = [why: string, mutate: (root: string) => void];
  const changes: Mutation[] = [
    ["one byte of an already dirty file", (r) => write(r, "src/a.ts", "dirty-B\n")],
    ["exec bit of a tracked file", (r) => chmodSync(join(r, "src/b.ts"), 0o755)],
    ["a new untracked file", (r) => write(r, "src/new.ts", "")],
    ["a deleted tracked file", (r) => unlinkSync(join(r, "src/b.ts"))],
    [
      "a symlink retarget",
      (r) => {
        unlinkSync(join(r, "link"));
        symlinkSync("src/b.ts", join(r, "link"));
      },
    ],
    ["a commit (HEAD moves)", (r) => g(r, "commit", "-q", "--allow-empty", "-m", "empty")],
    [
      "a staged change whose work tree is back at HEAD (the path is dirty in the index only)",
      (r) => {
        write(r, "src/b.ts", "staged\n");
        g(r, "add", "src/b.ts");
        write(r, "src/b.ts", "b\n");
      },
    ],
  ];
  it.each(changes)("changes with %s", async (_why, mutate) => {
    const root = repo();
    write(root, "src/a.ts", "dirty-A\n");
    const before = await idOf(root);
    mutate(root);
    expect(await idOf(root)).not.toBe(before);
  });

  // Changed (docs/tree-check.md): ignored paths and the index's side of a listed path are in the baseline.
  const seenNow: Mutation[] = [
    ["an ignored file", (r) => write(r, "debug.log", "x")],
    ["a file in an ignored directory", (r) => write(r, "build/out.js", "x")],
    ["staging an already dirty file as it is (the index changed)", (r) => g(r, "add", "src/a.ts")],
    ["a new .devrites/ record other than the CLI's", (r) => write(r, ".devrites/plan.md", "# plan\n")],
    ["a file planted among the run folders", (r) => write(r, ".devrites/runs/payload.sh", "#!/bin/sh\n")],
    [
      "a folder among the run folders that is no run",
      (r) => write(r, ".devrites/runs/r/events.jsonl", "{}\n"),
    ],
    [
      "a stranger in a run folder",
      (r) => write(r, ".devrites/runs/run-20261202T063000Z-0123abcd/hook.sh", "x\n"),
    ],
    ["a stranger in the anchors folder", (r) => write(r, ".devrites/anchors/notes.json", "{}\n")],
  ];
  it.each(seenNow)("changes with %s", async (_why, mutate) => {
    const root = repo();
    write(root, "src/a.ts", "dirty-A\n");
    const before = await idOf(root);
    mutate(root);
    expect(await idOf(root)).not.toBe(before);
  });

  type Noop = [why: string, mutate: (root: string) => void];
  const noops: Noop[] = [
    [
      "a run folder's own records",
      (r) => write(r, ".devrites/runs/run-20261202T063000Z-0123abcd/events.jsonl", "{}\n"),
    ],
    [
      "the CLI's temporary file in a run folder",
      (r) => write(r, ".devrites/runs/run-20261202T063000Z-0123abcd/.0a1b.devrites-tmp", "x"),
    ],
    [
      "a run's anchor and verdicts",
      (r) => write(r, ".devrites/anchors/run-20261202T063000Z-0123abcd.verdicts.jsonl", "{}\n"),
    ],
    ["the CLI's state and ledgers", (r) => write(r, ".devrites/state.json", "{}\n")],
    ["touching a clean file without changing it", (r) => write(r, "src/b.ts", "b\n")],
    ["a plain git status (it may refresh the index)", (r) => g(r, "status")],
    ["reading an ignored file", (r) => execFileSync("cat", [join(r, "debug.log")])],
    [
      "a remote-tracking ref moving (a background fetch)",
      (r) => g(r, "update-ref", "refs/remotes/origin/main", "HEAD"),
    ],
  ];
  it.each(noops)("does not change with %s", async (_why, mutate) => {
    const root = repo();
    write(root, "src/a.ts", "dirty-A\n");
    write(root, "debug.log", "ignored\n");
    const before = await idOf(root);
    mutate(root);
    expect(await idOf(root)).toBe(before);
  });

  it("the touched digest covers allowlisted paths even when they are clean or missing", async () => {
    const root = repo();
    const touched = ["src/b.ts", "src/planned.ts"];
    const a = await freezeBaseline(root, touched);
    expect(a.baseline.dirty_sha256).toBe((await freezeBaseline(root, [])).baseline.dirty_sha256);
    expect(a.baseline.touched_sha256).not.toBe((await freezeBaseline(root, [])).baseline.touched_sha256);
    write(root, "src/planned.ts", "now here\n");
    const b = await freezeBaseline(root, touched);
    expect(b.baseline.touched_sha256).not.toBe(a.baseline.touched_sha256);
    expect(b.baseline.id).not.toBe(a.baseline.id);
  });

  it("is stable: freezing twice without changes gives the same baseline", async () => {
    const root = repo();
    write(root, "src/a.ts", "dirty\n");
    const x = await freezeBaseline(root, ["src/a.ts"]);
    const y = await freezeBaseline(root, ["src/a.ts"]);
    expect(y.baseline).toEqual(x.baseline);
    expect(x.baseline.head).toMatch(/^[0-9a-f]{40}$/);
  });

  it("git's own housekeeping (gc, info/refs, fetch and prefetch refs) leaves it unchanged; a branch or info/exclude edit does not", async () => {
    const root = repo({ "src/a.ts": "a\n" });
    g(root, "tag", "v1");
    write(root, "src/a.ts", "dirty\n");
    const before = await freezeBaseline(root, ["src/a.ts"]);
    // what a background `git gc --auto` after the user's own commit does while a run is active
    g(root, "gc", "-q");
    g(root, "update-server-info");
    expect(existsSync(join(root, ".git", "info", "refs"))).toBe(true);
    const after = await freezeBaseline(root, ["src/a.ts"]);
    expect(after.baseline.id).toBe(before.baseline.id);
    // a background fetch or `git maintenance` prefetch moves remote-tracking and prefetch refs
    const head = g(root, "rev-parse", "HEAD").trim();
    g(root, "update-ref", "refs/remotes/origin/main", head);
    g(root, "update-ref", "refs/prefetch/remotes/origin/main", head);
    expect((await freezeBaseline(root, ["src/a.ts"])).baseline.id).toBe(before.baseline.id);
    // near misses: a branch of the user's, and a file under .git/info that changes what git sees
    g(root, "update-ref", "refs/heads/prefetch", head);
    expect((await freezeBaseline(root, ["src/a.ts"])).baseline.id).not.toBe(before.baseline.id);
    g(root, "update-ref", "-d", "refs/heads/prefetch");
    write(root, ".git/info/exclude", "src/hidden.ts\n");
    const excluded = await freezeBaseline(root, ["src/a.ts"]);
    expect(excluded.baseline.id).not.toBe(before.baseline.id);
  });
});

describe("unborn and no-git", () => {
  it("an unborn repository reports `unborn` and lists staged and untracked files", async () => {
    const root = tempDir();
    g(root, "init", "-q");
    write(root, "staged.ts", "s");
    write(root, "untracked.ts", "u");
    g(root, "add", "staged.ts");
    const snap = await snapshotTree(root);
    expect(snap.head).toBe("unborn");
    expect(snap.entries.map((e) => e.path)).toEqual(["staged.ts", "untracked.ts"]);
  });

  it("outside git every file except .git/ and the root .devrites/ is an entry; links are not followed", async () => {
    const root = tempDir();
    const outside = tempDir();
    write(outside, "secret", "s");
    write(root, "a.txt", "a");
    write(root, "dir/b.txt", "b");
    write(root, ".devrites/state.json", "{}");
    write(root, "nested/.git/config", "not a real repo, never read");
    write(root, "nested/c.txt", "c");
    symlinkSync(outside, join(root, "out"));
    const snap = await snapshotTree(root);
    expect(snap.head).toBe("no-git");
    expect(snap.entries).toEqual([
      { path: "a.txt", type: "file", exec: false, sha256: sha256Hex("a") },
      { path: "dir/b.txt", type: "file", exec: false, sha256: sha256Hex("b") },
      { path: "nested/c.txt", type: "file", exec: false, sha256: sha256Hex("c") },
      { path: "out", type: "symlink", exec: false, sha256: sha256Hex(outside) },
    ]);
    const before = await idOf(root);
    write(root, "dir/b.txt", "B");
    expect(await idOf(root)).not.toBe(before);
  });

  it("findRepoRoot: the top level from a subdirectory, cwd outside git, and a broken .git fails closed", async () => {
    const root = repo();
    expect(await findRepoRoot(join(root, "src"))).toEqual({ root, git: true });
    const plain = tempDir();
    expect(await findRepoRoot(plain)).toEqual({ root: plain, git: false });
    const broken = tempDir();
    writeFileSync(join(broken, ".git"), "gitdir: /nonexistent\n");
    mkdirSync(join(broken, "sub"));
    await expect(findRepoRoot(join(broken, "sub"))).rejects.toThrow(/git cannot use it/);
    await expect(findRepoRoot(join(plain, "missing"))).rejects.toThrow(/not a directory/);
  });

  it("findRepoRoot: an empty .git folder above is no repository (Codex's mount point), one with content is", async () => {
    const top = tempDir();
    mkdirSync(join(top, ".git"));
    mkdirSync(join(top, "plain"));
    expect(await findRepoRoot(join(top, "plain"))).toEqual({ root: join(top, "plain"), git: false });
    writeFileSync(join(top, ".git", "HEAD"), "not a ref\n");
    await expect(findRepoRoot(join(top, "plain"))).rejects.toThrow(/git cannot use it/);
  });

  it("ignores GIT_DIR and GIT_INDEX_FILE from the caller's environment", async () => {
    const root = repo();
    const other = repo();
    write(root, "src/a.ts", "dirty\n");
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = join(other, ".git");
    process.env.GIT_INDEX_FILE = join(other, ".git/index");
    try {
      const snap = await snapshotTree(root);
      expect(snap.entries.map((e) => e.path)).toEqual(["src/a.ts"]);
    } finally {
      if (saved.dir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved.dir;
      if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
      else process.env.GIT_INDEX_FILE = saved.index;
    }
  });
});

describe("describePaths", () => {
  it("describes exact paths, missing included, deduplicated and sorted", async () => {
    const root = repo();
    const entries = await describePaths(root, ["src/b.ts", "nope.ts", "link", "src/b.ts"]);
    expect(entries).toEqual([
      { path: "link", type: "symlink", exec: false, sha256: sha256Hex("src/a.ts") },
      { path: "nope.ts", type: "missing", exec: false, sha256: null },
      { path: "src/b.ts", type: "file", exec: false, sha256: sha256Hex("b\n") },
    ]);
  });

  it("refuses paths that could read outside the repository", async () => {
    const root = repo();
    await expect(describePaths(root, ["../x"])).rejects.toThrow(/scope.traversal/);
    await expect(describePaths(root, ["/etc/passwd"])).rejects.toThrow(/scope.absolute/);
  });
});

describe("diffSnapshots on a real tree", () => {
  it("new, modified, reverted-to-HEAD and deleted paths", async () => {
    const root = repo();
    write(root, "src/a.ts", "edit\n");
    const before = await snapshotTree(root);
    write(root, "src/a.ts", "a\n"); // back to HEAD's content
    write(root, "src/new.ts", "n\n");
    unlinkSync(join(root, "src/b.ts"));
    const after = await snapshotTree(root);
    expect(diffSnapshots(before, after)).toEqual([
      {
        path: "src/a.ts",
        before: { path: "src/a.ts", type: "file", exec: false, sha256: sha256Hex("edit\n") },
        after: null,
      },
      {
        path: "src/b.ts",
        before: null,
        after: { path: "src/b.ts", type: "missing", exec: false, sha256: null },
      },
      {
        path: "src/new.ts",
        before: null,
        after: { path: "src/new.ts", type: "file", exec: false, sha256: sha256Hex("n\n") },
      },
    ]);
    write(root, "src/new.ts", "n2\n");
    const later = await snapshotTree(root);
    const modified = diffSnapshots(after, later);
    expect(modified.map((c) => [c.path, c.before?.sha256, c.after?.sha256])).toEqual([
      ["src/new.ts", sha256Hex("n\n"), sha256Hex("n2\n")],
    ]);
  });
});

describe("an ignored-directory hint (result check passes the baseline's)", () => {
  const manifest = async (root: string, ignoredHint?: string[]) =>
    entriesFor(await snapshotWithGitState(root, 0, ignoredHint ? { ignoredHint } : {}), []);

  function withIgnored(): string {
    const root = repo();
    write(root, "build/x.js", "x\n");
    write(root, "build/sub/y.js", "y\n");
    write(root, "out/z.log", "z\n");
    write(root, "a.log", "a\n");
    return root;
  }

  it("gives the manifest the snapshot gives without it, whatever it names", async () => {
    const root = withIgnored();
    const plain = await manifest(root);
    expect(plain.map((e) => e.path)).toEqual(expect.arrayContaining(["a.log", "build/", "out/z.log"]));
    for (const hint of [
      ["build/"], // what the walk would list
      ["build/", "build/sub/"], // a directory inside another
      ["gone/", "src/", "a.log", "/", "\u0000hex:ff/", "../", "build/../build/"], // absent, tracked, a file, the root, a raw name, outside, not canonical
      [], // nothing
    ])
      expect(await manifest(root, hint)).toEqual(plain);
  });

  it("still sees a change in a hinted directory, and a directory git lists that it did not name", async () => {
    const root = withIgnored();
    const before = await manifest(root, ["build/"]);
    write(root, "build/sub/y.js", "changed\n");
    write(root, "dist/new.js", "n\n");
    write(root, ".gitignore", "*.log\nbuild/\ndist/\n");
    const after = await manifest(root, ["build/"]);
    const digest = (m: typeof before, p: string) => m.find((e) => e.path === p)?.sha256;
    expect(digest(after, "build/")).not.toBe(digest(before, "build/"));
    expect(after).toEqual(await manifest(root));
    expect(digest(after, "dist/")).toBeDefined();
  });
});

describe("config includes", () => {
  it("an include section in any spelling is followed; a config without one needs no git call to say so", async () => {
    const root = repo();
    const entry = async () =>
      (await snapshotWithGitState(root)).entries.filter((e) => e.path.startsWith(".git/include/"));
    expect(await entry()).toEqual([]);
    writeFileSync(join(root, ".git/extra.cfg"), "[core]\n\thooksPath = x\n");
    g(root, "config", "--local", "INCLUDE.path", "extra.cfg");
    const [inc] = await entry();
    expect(inc?.path).toBe(".git/include/0");
    writeFileSync(join(root, ".git/extra.cfg"), "[core]\n\thooksPath = y\n");
    expect((await entry())[0]?.sha256).not.toBe(inc?.sha256);
  });
});
