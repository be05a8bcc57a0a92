import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareBytes, isWorkspacePath, pathFromBytes, pathToBytes, sortByPathBytes } from "./_paths.js";
import { mapLimit } from "./_pool.js";
import { diffSnapshots } from "./diff.js";
import type { ManifestEntry, TreeSnapshot } from "./types.js";

const snap = (...entries: ManifestEntry[]): TreeSnapshot => ({
  head: "unborn",
  entries,
  stats: { hashedFiles: 0, hashedBytes: 0 },
});
const file = (path: string, sha: string, exec = false): ManifestEntry => ({
  path,
  type: "file",
  exec,
  sha256: sha,
});
const H1 = "1".repeat(64);
const H2 = "2".repeat(64);

describe("diffSnapshots", () => {
  it("is empty for equal snapshots", () => {
    expect(diffSnapshots(snap(file("a", H1)), snap(file("a", H1)))).toEqual([]);
    expect(diffSnapshots(snap(), snap())).toEqual([]);
  });

  it("reports new, modified, reverted and deleted paths, sorted by path bytes", () => {
    const gone: ManifestEntry = { path: "d", type: "missing", exec: false, sha256: null };
    const changes = diffSnapshots(
      snap(file("b", H1), file("c", H1)),
      snap(file("c", H2), gone, file("a", H1)),
    );
    expect(changes).toEqual([
      { path: "a", before: null, after: file("a", H1) },
      { path: "b", before: file("b", H1), after: null },
      { path: "c", before: file("c", H1), after: file("c", H2) },
      { path: "d", before: null, after: gone },
    ]);
  });

  it("sees an exec-bit flip and a type change with the same hash", () => {
    expect(diffSnapshots(snap(file("a", H1)), snap(file("a", H1, true)))).toHaveLength(1);
    const link: ManifestEntry = { path: "a", type: "symlink", exec: false, sha256: H1 };
    expect(diffSnapshots(snap(file("a", H1)), snap(link))).toHaveLength(1);
  });

  it("a path is reported iff its records differ (property)", () => {
    const entry = fc.record({
      path: fc.constantFrom("a", "b", "c", "é", "😀"),
      type: fc.constantFrom("file", "missing") as fc.Arbitrary<ManifestEntry["type"]>,
      exec: fc.boolean(),
      sha256: fc.constantFrom(H1, H2, null),
    });
    const entries = fc.uniqueArray(entry, { selector: (e) => e.path });
    fc.assert(
      fc.property(entries, entries, (x, y) => {
        const changes = diffSnapshots(snap(...x), snap(...y));
        for (const path of ["a", "b", "c", "é", "😀"]) {
          const bx = x.find((e) => e.path === path) ?? null;
          const ay = y.find((e) => e.path === path) ?? null;
          const differs = JSON.stringify(bx) !== JSON.stringify(ay);
          expect(changes.some((c) => c.path === path)).toBe(differs);
        }
        const order = changes.map((c) => c.path);
        expect(order).toEqual([...order].sort(compareBytes));
      }),
    );
  });

  it("lists with repeated paths: the last record of a path counts, on each side (property)", () => {
    const entry = fc.record({
      path: fc.constantFrom("a", "b", "é"),
      type: fc.constantFrom("file", "missing") as fc.Arbitrary<ManifestEntry["type"]>,
      exec: fc.boolean(),
      sha256: fc.constantFrom(H1, H2, null),
    });
    const lists = fc.array(entry, { maxLength: 5 });
    fc.assert(
      fc.property(lists, lists, fc.boolean(), (x, y, same) => {
        const after = same ? x.map((e) => ({ ...e })) : y;
        const last = (l: ManifestEntry[], p: string) => l.filter((e) => e.path === p).at(-1) ?? null;
        const changes = diffSnapshots(snap(...x), snap(...after));
        for (const path of ["a", "b", "é"]) {
          const differs = JSON.stringify(last(x, path)) !== JSON.stringify(last(after, path));
          expect(changes.some((c) => c.path === path)).toBe(differs);
        }
        if (same) expect(changes).toEqual([]);
      }),
    );
  });

  it("record-for-record equal lists differ nowhere; one field changed anywhere is seen", () => {
    const x = [file("a", H1), file("b", H1), file("c", H1, true)];
    expect(diffSnapshots(snap(...x), snap(...x.map((e) => ({ ...e }))))).toEqual([]);
    expect(diffSnapshots(snap(...x), snap(file("a", H1), file("b", H2), file("c", H1, true)))).toEqual([
      { path: "b", before: file("b", H1), after: file("b", H2) },
    ]);
    expect(diffSnapshots(snap(...x), snap(file("a", H1), file("b", H1), file("c", H1)))).toHaveLength(1);
    const renamed = [file("a", H1), file("b2", H1), file("c", H1, true)];
    expect(diffSnapshots(snap(...x), snap(...renamed)).map((c) => c.path)).toEqual(["b", "b2"]);
    const link: ManifestEntry = { path: "a", type: "symlink", exec: false, sha256: H1 };
    expect(diffSnapshots(snap(...x), snap(link, x[1]!, x[2]!)).map((c) => c.path)).toEqual(["a"]);
    // the same records in another order are the same manifest
    expect(diffSnapshots(snap(...x), snap(x[2]!, x[0]!, x[1]!))).toEqual([]);
  });
});

describe("raw path helpers", () => {
  it("sortByPathBytes orders exactly as compareBytes, stably (property)", () => {
    const path = fc.constantFrom("a", "b", "é", "😀", "\uff5e", "a/b", "\u0000hex:ff");
    fc.assert(
      fc.property(fc.array(fc.record({ path, n: fc.nat() })), (items) => {
        const expected = [...items].sort((p, q) => compareBytes(p.path, q.path));
        const got = [...items];
        expect(sortByPathBytes(got)).toBe(got);
        expect(got).toEqual(expected);
      }),
    );
  });

  it("round-trips every byte string, and only non-UTF-8 names get the inert NUL spelling", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 12 }), (bytes) => {
        const raw = Buffer.from(bytes);
        const s = pathFromBytes(raw);
        expect(pathToBytes(s).equals(raw)).toBe(true);
        const utf8 = Buffer.from(raw.toString("utf8")).equals(raw);
        expect(s.startsWith("\u0000hex:")).toBe(!utf8);
      }),
    );
  });

  it("recognises the workspace exactly", () => {
    expect(isWorkspacePath(Buffer.from(".devrites"))).toBe(true);
    expect(isWorkspacePath(Buffer.from(".devrites/state.json"))).toBe(true);
    expect(isWorkspacePath(Buffer.from(".devrites-old/x"))).toBe(false);
    expect(isWorkspacePath(Buffer.from(".devrite"))).toBe(false);
    expect(isWorkspacePath(Buffer.from("src/.devrites/x"))).toBe(false);
    expect(isWorkspacePath(Buffer.from(".DEVRITES/x"))).toBe(false);
  });
});

describe("mapLimit", () => {
  it("keeps input order and never runs more than the limit at once", async () => {
    let inFlight = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const run = mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => gates.push(resolve));
      inFlight -= 1;
      return n * 10;
    });
    while (gates.length > 0 || inFlight > 0) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    expect(await run).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(most).toBe(3);
  });

  it("rejects when one item fails", async () => {
    await expect(
      mapLimit([1, 2], 2, async (n) => {
        if (n === 2) throw new Error("boom");
        return n;
      }),
    ).rejects.toThrow("boom");
  });
});
