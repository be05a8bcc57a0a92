import { describe, expect, it } from "vitest";
import { renderDot, renderGraph, renderJson, renderMermaid } from "./render-graph.js";
import type { DelegationGraph } from "./types.js";

const graph: DelegationGraph = {
  nodes: [
    { id: "rite-build", kind: "rite", phase: "build", path: "skills/rite-build/SKILL.md" },
    { id: "rite", kind: "rite", path: "skills/rite/SKILL.md" },
    { id: "devrites-slice-wright", kind: "role", mode: "writer", path: "agents/devrites-slice-wright.md" },
    { id: "devrites-proof-runner", kind: "role", mode: "read-only", path: "agents/devrites-proof-runner.md" },
  ],
  edges: [
    { from: "rite-build", to: "devrites-slice-wright", line: 6 },
    { from: "rite-build", to: "devrites-proof-runner", line: 6 },
    { from: "rite-build", to: "devrites-ghost", line: 6 },
  ],
};

describe("renderMermaid", () => {
  it("draws rites and roles in sorted subgraphs, marks the writer and skips dangling edges", () => {
    expect(renderMermaid(graph)).toBe(
      [
        "flowchart LR",
        '  subgraph rites["Rites (root orchestrators)"]',
        '    rite(["rite"])',
        '    rite_build(["rite-build (build)"])',
        "  end",
        '  subgraph roles["Roles (depth-one leaves)"]',
        '    devrites_proof_runner["devrites-proof-runner [read-only]"]',
        '    devrites_slice_wright[["devrites-slice-wright [writer]"]]',
        "  end",
        "  rite_build --> devrites_proof_runner",
        "  rite_build --> devrites_slice_wright",
        "  classDef writer stroke-width:3px",
        "  class devrites_slice_wright writer",
      ].join("\n"),
    );
  });
});

describe("renderDot", () => {
  it("draws a digraph with clusters, the writer bold, readers dashed", () => {
    const dot = renderDot(graph);
    expect(dot).toMatch(/^digraph devrites \{/);
    expect(dot).toContain(
      '"devrites-slice-wright" [shape=box, penwidth=3, label="devrites-slice-wright [writer]"];',
    );
    expect(dot).toContain('"devrites-proof-runner" [shape=box, style=dashed');
    expect(dot).toContain('"rite-build" -> "devrites-slice-wright";');
    expect(dot).not.toContain("devrites-ghost");
    expect(dot.trimEnd().endsWith("}")).toBe(true);
  });
});

describe("renderJson", () => {
  it("gives sorted nodes and known edges without source lines", () => {
    const j = JSON.parse(renderJson(graph));
    expect(j.nodes.map((n: { id: string }) => n.id)).toEqual([
      "rite",
      "rite-build",
      "devrites-proof-runner",
      "devrites-slice-wright",
    ]);
    expect(j.edges).toEqual([
      { from: "rite-build", to: "devrites-proof-runner" },
      { from: "rite-build", to: "devrites-slice-wright" },
    ]);
  });

  it("is the same whatever order the input came in", () => {
    const shuffled: DelegationGraph = {
      nodes: [...graph.nodes].reverse(),
      edges: [...graph.edges].reverse(),
    };
    for (const f of ["mermaid", "dot", "json"] as const)
      expect(renderGraph(shuffled, f)).toBe(renderGraph(graph, f));
  });
});
