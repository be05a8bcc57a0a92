import { describe, expect, it } from "vitest";
import type { ManifestEntry } from "../baseline/index.js";
import { samplePacket, sampleSha } from "../envelope/fixtures.js";
import type { RepoWrite } from "../envelope/types.js";
import { BASELINE_RECORD_SCHEMA, type BaselineRecord } from "./baseline-record.js";
import { type CurrentTree, checkTree } from "./tree.js";

const HEAD = "3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a";
const file = (path: string, n: number, exec = false): ManifestEntry => ({
  path,
  type: "file",
  exec,
  sha256: sampleSha(n),
});
const gone = (path: string): ManifestEntry => ({ path, type: "missing", exec: false, sha256: null });

function record(dirty: ManifestEntry[], touched: ManifestEntry[], head = HEAD): BaselineRecord {
  return { schema: BASELINE_RECORD_SCHEMA, run_id: samplePacket().run_id, head, dirty, touched };
}
function now(entries: ManifestEntry[], touched: ManifestEntry[], head = HEAD): CurrentTree {
  return { head, entries, touched };
}
const pairs = (ds: { code: string; path?: string }[]) => ds.map((d) => [d.code, d.path]);

describe("checkTree: read-only roles", () => {
  const scout = samplePacket("devrites-evidence-scout");
  const touched = [file("docs/settings.md", 0x11), gone("src/parser.ts")];

  it("an unchanged candidate, dirty or not, is not stale", () => {
    const dirty = [file("src/a.ts", 1), gone("src/b.ts")];
    const out = checkTree(scout, record(dirty, touched), now([...dirty], [...touched]), []);
    expect(out).toEqual({ diagnostics: [], changedPaths: [] });
  });

  it.each([
    ["a newly dirty file", [], [file("src/a.ts", 1)], "src/a.ts"],
    ["a dirty file edited again", [file("src/a.ts", 1)], [file("src/a.ts", 2)], "src/a.ts"],
    ["a dirty file reverted to HEAD", [file("src/a.ts", 1)], [], "src/a.ts"],
    ["only the exec bit", [file("run.sh", 1)], [file("run.sh", 1, true)], "run.sh"],
    [
      "a file turned into a symlink",
      [file("x", 1)],
      [{ path: "x", type: "symlink", exec: false, sha256: sampleSha(1) } as ManifestEntry],
      "x",
    ],
  ])("%s is stale", (_name, before, after, path) => {
    const out = checkTree(scout, record(before, touched), now(after, touched), []);
    expect(pairs(out.diagnostics)).toEqual([["result.stale", path]]);
    expect(out.changedPaths).toEqual([path]);
  });

  it("an input changed where git does not look (ignored) is stale", () => {
    const out = checkTree(
      scout,
      record([], touched),
      now([], [file("docs/settings.md", 0x12), gone("src/parser.ts")]),
      [],
    );
    expect(pairs(out.diagnostics)).toEqual([["result.stale", "docs/settings.md"]]);
  });

  it("an input that vanished from the description counts as deleted", () => {
    const out = checkTree(scout, record([], touched), now([], [gone("src/parser.ts")]), []);
    expect(pairs(out.diagnostics)).toEqual([["result.stale", "docs/settings.md"]]);
  });

  it("a path changed both ways is reported once, sorted by bytes", () => {
    const out = checkTree(
      scout,
      record([], touched),
      now(
        [file("docs/settings.md", 9), file("Z.md", 1), file("a.md", 1)],
        [file("docs/settings.md", 9), gone("src/parser.ts")],
      ),
      [],
    );
    expect(out.changedPaths).toEqual(["Z.md", "a.md", "docs/settings.md"]);
    expect(out.diagnostics).toHaveLength(3);
  });

  it("HEAD moved: result.head-moved; the dirty diff across heads is not reported", () => {
    const out = checkTree(
      scout,
      record([file("src/a.ts", 1)], touched),
      now([], touched, "b".repeat(40)),
      [],
    );
    expect(pairs(out.diagnostics)).toEqual([["result.head-moved", undefined]]);
    expect(out.diagnostics[0]!.message).toContain(HEAD);
  });
});

describe("checkTree: the wright", () => {
  const wright = samplePacket("devrites-slice-wright"); // allowlist: src/parser.ts, src/parser.test.ts, src/legacy-parser.ts
  const before = [
    file("src/parser.ts", 1),
    gone("src/parser.test.ts"),
    file("src/legacy-parser.ts", 3),
    file("docs/settings.md", 0x11),
  ];
  const w = (path: string, op: RepoWrite["op"], n: number | null): RepoWrite =>
    (op === "delete"
      ? { path, op, sha256_after: null }
      : { path, op, sha256_after: sampleSha(n!) }) as RepoWrite;

  function touchedAfter(over: Record<string, ManifestEntry>) {
    return before.map((e) => over[e.path] ?? e);
  }

  it("create, modify and delete, each declared with the disk's hash, are accepted", () => {
    const touchedNow = touchedAfter({
      "src/parser.ts": file("src/parser.ts", 0xa1),
      "src/parser.test.ts": file("src/parser.test.ts", 0xa2),
      "src/legacy-parser.ts": gone("src/legacy-parser.ts"),
    });
    const dirtyNow = [
      file("src/parser.ts", 0xa1),
      file("src/parser.test.ts", 0xa2),
      gone("src/legacy-parser.ts"),
    ];
    const out = checkTree(wright, record([], before), now(dirtyNow, touchedNow), [
      w("src/parser.ts", "modify", 0xa1),
      w("src/parser.test.ts", "create", 0xa2),
      w("src/legacy-parser.ts", "delete", null),
    ]);
    expect(out.diagnostics).toEqual([]);
    expect(out.changedPaths).toEqual(["src/legacy-parser.ts", "src/parser.test.ts", "src/parser.ts"]);
  });

  it("declaring nothing and changing nothing is accepted", () => {
    expect(checkTree(wright, record([], before), now([], before), []).diagnostics).toEqual([]);
  });

  it("a change off the allowlist is out of scope and undeclared", () => {
    const out = checkTree(wright, record([], before), now([file("src/cli.ts", 5)], before), []);
    expect(pairs(out.diagnostics)).toEqual([
      ["result.out-of-scope", "src/cli.ts"],
      ["result.undeclared-write", "src/cli.ts"],
    ]);
  });

  it("a user's pre-existing dirty file the wright left alone is not a change", () => {
    const dirty = [file("notes.txt", 7)];
    expect(
      checkTree(wright, record(dirty, before), now([file("notes.txt", 7)], before), []).diagnostics,
    ).toEqual([]);
  });

  it("an allowlisted change that is not declared is undeclared", () => {
    const touchedNow = touchedAfter({ "src/parser.ts": file("src/parser.ts", 0xa1) });
    const out = checkTree(wright, record([], before), now([file("src/parser.ts", 0xa1)], touchedNow), []);
    expect(pairs(out.diagnostics)).toEqual([["result.undeclared-write", "src/parser.ts"]]);
  });

  it("with an unparsed result only out-of-scope is judged", () => {
    const touchedNow = touchedAfter({ "src/parser.ts": file("src/parser.ts", 0xa1) });
    const out = checkTree(
      wright,
      record([], before),
      now([file("src/parser.ts", 0xa1), file("x.ts", 1)], touchedNow),
      undefined,
    );
    expect(pairs(out.diagnostics)).toEqual([["result.out-of-scope", "x.ts"]]);
  });

  it.each([
    [
      "modify of an unchanged file",
      w("src/parser.ts", "modify", 1),
      {},
      [["result.phantom-write", "src/parser.ts"]],
    ],
    [
      "delete of an absent file",
      w("src/parser.test.ts", "delete", null),
      {},
      [["result.phantom-write", "src/parser.test.ts"]],
    ],
    [
      "create of a file that existed",
      w("src/parser.ts", "create", 0xa1),
      { "src/parser.ts": file("src/parser.ts", 0xa1) },
      [["result.op-mismatch", "src/parser.ts"]],
    ],
    [
      "modify of a file that did not exist",
      w("src/parser.test.ts", "modify", 0xa2),
      { "src/parser.test.ts": file("src/parser.test.ts", 0xa2) },
      [["result.op-mismatch", "src/parser.test.ts"]],
    ],
    [
      "modify of a file that was deleted",
      w("src/legacy-parser.ts", "modify", 3),
      { "src/legacy-parser.ts": gone("src/legacy-parser.ts") },
      [
        ["result.op-mismatch", "src/legacy-parser.ts"],
        ["result.hash-mismatch", "src/legacy-parser.ts"],
      ],
    ],
    [
      "delete of a file still present but changed",
      w("src/legacy-parser.ts", "delete", null),
      { "src/legacy-parser.ts": file("src/legacy-parser.ts", 9) },
      [["result.op-mismatch", "src/legacy-parser.ts"]],
    ],
    [
      "a hash that is not the disk's",
      w("src/parser.ts", "modify", 0xbb),
      { "src/parser.ts": file("src/parser.ts", 0xa1) },
      [["result.hash-mismatch", "src/parser.ts"]],
    ],
    [
      "a symlink where a file was declared, even with the link text's digest",
      w("src/parser.ts", "modify", 0xa1),
      {
        "src/parser.ts": {
          path: "src/parser.ts",
          type: "symlink",
          exec: false,
          sha256: sampleSha(0xa1),
        } as ManifestEntry,
      },
      [["result.hash-mismatch", "src/parser.ts"]],
    ],
  ] as const)("%s", (_name, write, over, expected) => {
    const touchedNow = touchedAfter(over as Record<string, ManifestEntry>);
    const dirtyNow = Object.values(over as Record<string, ManifestEntry>);
    const out = checkTree(wright, record([], before), now(dirtyNow, touchedNow), [write]);
    expect(pairs(out.diagnostics)).toEqual(expected);
  });

  it("a declared path off the allowlist is never looked up on disk", () => {
    const out = checkTree(wright, record([], before), now([], before), [w("../../etc/passwd", "modify", 1)]);
    expect(out.diagnostics).toEqual([]);
  });

  it("HEAD moved under the wright is a rejection, and declared writes are still checked against the disk", () => {
    const touchedNow = touchedAfter({ "src/parser.ts": file("src/parser.ts", 0xa1) });
    const out = checkTree(wright, record([], before), now([], touchedNow, "c".repeat(40)), [
      w("src/parser.ts", "modify", 0xee),
    ]);
    expect(pairs(out.diagnostics)).toEqual([
      ["result.head-moved", undefined],
      ["result.hash-mismatch", "src/parser.ts"],
    ]);
  });
});

describe("checkTree: details", () => {
  const scout = samplePacket("devrites-evidence-scout");
  const wright = samplePacket("devrites-slice-wright");
  const touched = [file("docs/settings.md", 0x11), gone("src/parser.ts")];

  it("touched changes and dirty changes are merged in byte order", () => {
    const out = checkTree(
      scout,
      record([], touched),
      now([file("z.md", 1)], [file("docs/settings.md", 2), gone("src/parser.ts")]),
      [],
    );
    expect(out.changedPaths).toEqual(["docs/settings.md", "z.md"]);
    expect(out.diagnostics.map((d) => d.path)).toEqual(["docs/settings.md", "z.md"]);
  });

  it.each([
    ["the exec bit", file("docs/settings.md", 0x11, true)],
    [
      "the type",
      { path: "docs/settings.md", type: "symlink", exec: false, sha256: sampleSha(0x11) } as ManifestEntry,
    ],
    ["the content", file("docs/settings.md", 0x12)],
  ])("a touched path differing only in %s changed", (_name, entry) => {
    const out = checkTree(scout, record([], touched), now([], [entry, gone("src/parser.ts")]), []);
    expect(out.changedPaths).toEqual(["docs/settings.md"]);
  });

  it("a path recorded absent and not described now is still absent", () => {
    expect(
      checkTree(scout, record([], touched), now([], [file("docs/settings.md", 0x11)]), []).changedPaths,
    ).toEqual([]);
  });

  it("a declared create of a path the baseline did not describe counts it as absent before", () => {
    const before = [file("src/parser.ts", 1)];
    const out = checkTree(
      wright,
      record([], before),
      now([file("src/parser.test.ts", 2)], [...before, file("src/parser.test.ts", 2)]),
      [{ path: "src/parser.test.ts", op: "create", sha256_after: sampleSha(2) }],
    );
    expect(out.diagnostics).toEqual([]);
  });

  it("messages say what happened", () => {
    const before = [file("src/parser.ts", 1), gone("src/parser.test.ts"), file("src/legacy-parser.ts", 3)];
    const link = {
      path: "src/parser.ts",
      type: "symlink",
      exec: false,
      sha256: sampleSha(0xa1),
    } as ManifestEntry;
    const out = checkTree(
      wright,
      record([], before),
      now([link, file("x.ts", 1)], [link, gone("src/parser.test.ts"), file("src/legacy-parser.ts", 3)]),
      [
        { path: "src/parser.ts", op: "modify", sha256_after: sampleSha(0xa1) },
        { path: "src/parser.test.ts", op: "create", sha256_after: sampleSha(2) },
        { path: "src/legacy-parser.ts", op: "modify", sha256_after: sampleSha(3) },
      ],
    );
    expect(out.diagnostics.map((d) => d.message)).toEqual([
      "x.ts changed but is not on the allowlist",
      "x.ts changed but the result does not declare it",
      `declared sha256_after ${sampleSha(0xa1)} for src/parser.ts, but on disk it is a symlink`,
      "declared create of src/parser.test.ts, but it is unchanged since the baseline",
      `declared sha256_after ${sampleSha(2)} for src/parser.test.ts, but on disk it is absent`,
      "declared modify of src/legacy-parser.ts, but it is unchanged since the baseline",
    ]);
    const created = checkTree(
      wright,
      record([], before),
      now([], [file("src/parser.ts", 1), file("src/parser.test.ts", 5), file("src/legacy-parser.ts", 3)]),
      [{ path: "src/parser.test.ts", op: "modify", sha256_after: sampleSha(6) }],
    );
    expect(created.diagnostics.map((d) => d.message)).toEqual([
      "declared modify of src/parser.test.ts, but on disk it was a create (missing → file)",
      `declared sha256_after ${sampleSha(6)} for src/parser.test.ts, but on disk it is ${sampleSha(5)}`,
    ]);
    const stale = checkTree(
      samplePacket("devrites-code-reviewer"),
      record([], []),
      now([file("a", 1)], []),
      [],
    );
    expect(stale.diagnostics[0]!.message).toBe("a changed after the packet was frozen");
  });
});
