import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeScopePath, type PlanItem, pathsOverlap, planWaves, scopesOverlap } from "./plan.js";

const r = (...paths: string[]): PlanItem => ({ mode: "read-only", paths });
const w = (...paths: string[]): PlanItem => ({ mode: "writer", paths });

describe("pathsOverlap", () => {
  it("is true for equal paths and for a path under another, by whole segments", () => {
    expect(pathsOverlap("src/a", "src/a")).toBe(true);
    expect(pathsOverlap("src/a", "src/a/b.ts")).toBe(true);
    expect(pathsOverlap("src/a/b.ts", "src/a/")).toBe(true);
    expect(pathsOverlap("./src/a", "src//a")).toBe(true);
  });
  it("is false for siblings and for a shared name prefix that is not a segment", () => {
    expect(pathsOverlap("src/a", "src/b")).toBe(false);
    expect(pathsOverlap("src/a", "src/ab")).toBe(false);
    expect(pathsOverlap("src/a.ts", "src/a.tsx")).toBe(false);
  });
  it("treats the root as overlapping everything", () => {
    expect(pathsOverlap(".", "src")).toBe(true);
    expect(pathsOverlap("", "x")).toBe(true);
    expect(normalizeScopePath("./")).toBe("");
  });
  it("treats an empty scope as the whole repository", () => {
    expect(scopesOverlap([], ["src"])).toBe(true);
    expect(scopesOverlap(["a"], ["b", "c"])).toBe(false);
    expect(scopesOverlap(["a"], ["b", "a/x"])).toBe(true);
  });
});

describe("planWaves", () => {
  it("puts at most three disjoint readers in a wave", () => {
    expect(planWaves([r("a"), r("b"), r("c"), r("d")])).toEqual([[0, 1, 2], [3]]);
  });
  it("serialises overlapping readers and back-fills later disjoint ones", () => {
    expect(planWaves([r("a"), r("a/x"), r("b")])).toEqual([[0, 2], [1]]);
  });
  it("runs a writer alone and never moves a reader across it", () => {
    expect(planWaves([r("a"), w("z"), r("b"), r("c")])).toEqual([[0], [1], [2, 3]]);
    expect(planWaves([w("a"), w("b")])).toEqual([[0], [1]]);
  });
  it("serialises a reader with no scope against everything around it", () => {
    expect(planWaves([r("a"), r(), r("b")])).toEqual([[0], [1], [2]]);
  });

  const seg = fc.constantFrom("a", "b", "c", "d");
  const path = fc.array(seg, { minLength: 0, maxLength: 3 }).map((s) => s.join("/"));
  const item: fc.Arbitrary<PlanItem> = fc.record({
    mode: fc.constantFrom("read-only", "read-only", "read-only", "writer") as fc.Arbitrary<PlanItem["mode"]>,
    paths: fc.array(path, { maxLength: 3 }),
  });

  it("property: every item once; waves ≤ 3; no overlap in a wave; a writer alone; order kept", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 14 }), (items) => {
        const waves = planWaves(items);
        const flat = waves.flat();
        expect([...flat].sort((x, y) => x - y)).toEqual(items.map((_, i) => i));
        const waveOf = new Map<number, number>();
        waves.forEach((wave, wi) => {
          for (const i of wave) waveOf.set(i, wi);
        });
        for (const wave of waves) {
          expect(wave.length).toBeGreaterThan(0);
          expect(wave.length).toBeLessThanOrEqual(3);
          if (wave.some((i) => items[i]?.mode === "writer")) expect(wave).toHaveLength(1);
          for (const i of wave)
            for (const j of wave)
              if (i < j) expect(scopesOverlap(items[i]?.paths ?? [], items[j]?.paths ?? [])).toBe(false);
        }
        // A writer is a barrier, and overlapping items keep their input order.
        for (let i = 0; i < items.length; i++)
          for (let j = i + 1; j < items.length; j++) {
            const a = items[i] as PlanItem;
            const b = items[j] as PlanItem;
            if (a.mode === "writer" || b.mode === "writer" || scopesOverlap(a.paths, b.paths))
              expect(waveOf.get(i) as number).toBeLessThan(waveOf.get(j) as number);
          }
      }),
      { numRuns: 400 },
    );
  });
});
