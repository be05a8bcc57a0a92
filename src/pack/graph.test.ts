import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPack } from "./build.js";
import { edit, RITE, withFiles } from "./fixtures.js";
import { findCycles, lintGraph } from "./graph.js";
import type { DelegationGraph } from "./types.js";

const codes = (files: Map<string, string>) =>
  lintGraph(buildPack(files).model)
    .map((d) => d.code)
    .sort();

const rite = (name: string, dispatches: string) =>
  RITE.replaceAll("rite-look", name)
    .replace("[devrites-evidence-scout]", `[${dispatches}]`)
    .replace("[look up, find out]", `[${name}]`);

describe("buildGraph", () => {
  it("has a node per rite and role and an edge per declaration, with its line", () => {
    const { graph } = buildPack(withFiles({})).model;
    expect(graph.nodes).toEqual([
      { id: "rite-look", kind: "rite", phase: "spec", path: "skills/rite-look/SKILL.md" },
      {
        id: "devrites-evidence-scout",
        kind: "role",
        mode: "read-only",
        path: "agents/devrites-evidence-scout.md",
      },
    ]);
    expect(graph.edges).toEqual([{ from: "rite-look", to: "devrites-evidence-scout", line: 6 }]);
  });
});

describe("lintGraph", () => {
  it("accepts rites that dispatch known roles", () => {
    expect(codes(withFiles({}))).toEqual([]);
  });

  it("reports a dangling role reference with the declaring file and line", () => {
    const files = edit(
      "skills/rite-look/SKILL.md",
      "[devrites-evidence-scout]",
      "[devrites-evidence-scout, ghost]",
    );
    const d = lintGraph(buildPack(files).model);
    expect(d).toMatchObject([
      { code: "pack.dispatch-dangling", path: "skills/rite-look/SKILL.md", line: 6, severity: "error" },
    ]);
  });

  it("reports a rite dispatching a rite, and the cycle two rites make", () => {
    const files = withFiles({
      "skills/rite-look/SKILL.md": rite("rite-look", "devrites-evidence-scout, rite-echo"),
      "skills/rite-echo/SKILL.md": rite("rite-echo", "rite-look"),
    });
    const d = lintGraph(buildPack(files).model);
    expect(d.map((x) => x.code).sort()).toEqual([
      "pack.delegation-cycle",
      "pack.dispatch-not-role",
      "pack.dispatch-not-role",
    ]);
    expect(d.find((x) => x.code === "pack.delegation-cycle")?.message).toContain(
      "rite-echo → rite-look → rite-echo",
    );
  });

  it("reports a rite dispatching itself as a cycle", () => {
    const files = withFiles({
      "skills/rite-look/SKILL.md": rite("rite-look", "devrites-evidence-scout, rite-look"),
    });
    expect(codes(files)).toEqual(["pack.delegation-cycle", "pack.dispatch-not-role"]);
  });

  it("reports a role that declares dispatches (depth one)", () => {
    const files = edit(
      "agents/devrites-evidence-scout.md",
      "  payload: evidence-dossier\n",
      "  payload: evidence-dossier\n  dispatches: [devrites-evidence-scout]\n",
    );
    expect(codes(files)).toEqual(["pack.delegation-cycle", "pack.role-dispatches"]);
  });

  it("reports a duplicate declaration once", () => {
    const files = edit(
      "skills/rite-look/SKILL.md",
      "[devrites-evidence-scout]",
      "[devrites-evidence-scout, devrites-evidence-scout]",
    );
    expect(codes(files)).toEqual(["pack.dispatch-duplicate"]);
  });
});

describe("findCycles", () => {
  const graphOf = (n: number, edges: [number, number][]): DelegationGraph => ({
    nodes: Array.from({ length: n }, (_, i) => ({
      id: `n${String(i).padStart(2, "0")}`,
      kind: "rite",
      path: "x",
    })),
    edges: edges.map(([a, b]) => ({
      from: `n${String(a).padStart(2, "0")}`,
      to: `n${String(b).padStart(2, "0")}`,
    })),
  });
  const edgesArb = (n: number) => fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 40 });

  it("finds no cycle in any graph whose edges all go forward (a DAG)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(fc.constant(n), edgesArb(n))),
        ([n, edges]) => {
          const forward = edges.filter(([a, b]) => a < b);
          expect(findCycles(graphOf(n, forward))).toEqual([]);
        },
      ),
    );
  });

  it("finds a cycle once a back edge closes a forward path", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }).chain((n) => fc.tuple(fc.constant(n), edgesArb(n))),
        ([n, edges]) => {
          const forward = edges.filter(([a, b]) => a < b);
          const path: [number, number][] = Array.from({ length: n - 1 }, (_, i) => [i, i + 1]);
          const cycles = findCycles(graphOf(n, [...forward, ...path, [n - 1, 0]]));
          expect(cycles.length).toBeGreaterThan(0);
          for (const c of cycles) expect(c[0]).toBe([...c].sort()[0]);
        },
      ),
    );
  });

  it("ignores edges to unknown nodes", () => {
    const g = graphOf(1, []);
    g.edges.push({ from: "n00", to: "ghost" }, { from: "ghost", to: "n00" });
    expect(findCycles(g)).toEqual([]);
  });
});
