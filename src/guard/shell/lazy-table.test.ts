import { describe, expect, it } from "vitest";
import { PACKAGES } from "./commands/packages.js";
import { TOOLS } from "./commands/tools.js";
import { type Handler, LazyTable } from "./context.js";

const a: Handler = () => [];
const b: Handler = () => [{ kind: "env", name: "X" } as never];

describe("LazyTable", () => {
  it("builds its table once, on first use, and answers every ReadonlyMap question from it", () => {
    let builds = 0;
    const t = new LazyTable(() => {
      builds += 1;
      return new Map([
        ["a", a],
        ["b", b],
      ]);
    });
    expect(builds).toBe(0);
    expect(t.get("a")).toBe(a);
    expect(t.get("c")).toBeUndefined();
    expect(builds).toBe(1);
    expect([t.has("b"), t.has("c"), t.size]).toEqual([true, false, 2]);
    expect([...t.keys()]).toEqual(["a", "b"]);
    expect([...t.values()]).toEqual([a, b]);
    expect([...t.entries()]).toEqual([
      ["a", a],
      ["b", b],
    ]);
    expect([...t]).toEqual([
      ["a", a],
      ["b", b],
    ]);
    const seen: [string, Handler, unknown][] = [];
    t.forEach((h, name, table) => {
      seen.push([name, h, table]);
    });
    expect(seen).toEqual([
      ["a", a, t],
      ["b", b, t],
    ]);
    expect(builds).toBe(1);
  });

  it("each question alone builds the table (near miss: a size or has before any get)", () => {
    for (const ask of [
      (t: LazyTable) => t.size,
      (t: LazyTable) => t.has("a"),
      (t: LazyTable) => [...t.keys()],
      (t: LazyTable) => [...t],
    ]) {
      let builds = 0;
      const t = new LazyTable(() => {
        builds += 1;
        return new Map([["a", a]]);
      });
      ask(t);
      ask(t);
      expect(builds).toBe(1);
    }
  });

  it("is how the package and tool tables are kept", () => {
    expect(PACKAGES).toBeInstanceOf(LazyTable);
    expect(TOOLS).toBeInstanceOf(LazyTable);
    expect(PACKAGES.has("npm")).toBe(true);
    expect(TOOLS.has("python")).toBe(true);
  });
});
