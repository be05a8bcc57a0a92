/**
 * Render the delegation graph as an org chart: Mermaid (for Markdown), DOT (for Graphviz) or JSON. Pure and
 * deterministic: nodes and edges in sorted order; only edges between known nodes are drawn.
 */

import type { DelegationGraph, GraphEdge, GraphNode } from "./types.js";

export const GRAPH_FORMATS = ["mermaid", "dot", "json"] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export function renderGraph(graph: DelegationGraph, format: GraphFormat): string {
  switch (format) {
    case "mermaid":
      return renderMermaid(graph);
    case "dot":
      return renderDot(graph);
    case "json":
      return renderJson(graph);
  }
}

interface Sorted {
  rites: GraphNode[];
  roles: GraphNode[];
  edges: GraphEdge[];
}

function sorted(graph: DelegationGraph): Sorted {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const seen = new Set<string>();
  const edges = graph.edges
    .filter((e) => ids.has(e.from) && ids.has(e.to))
    .filter((e) => {
      const k = `${e.from}\u0000${e.to}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => (a.from === b.from ? (a.to < b.to ? -1 : 1) : a.from < b.from ? -1 : 1));
  return {
    rites: graph.nodes.filter((n) => n.kind === "rite").sort(byId),
    roles: graph.nodes.filter((n) => n.kind === "role").sort(byId),
    edges,
  };
}

/** A label such as `rite-build (build)` or `devrites-slice-wright [writer]`. */
function label(n: GraphNode): string {
  if (n.kind === "role") return `${n.id} [${n.mode ?? "unknown"}]`;
  return n.phase ? `${n.id} (${n.phase})` : n.id;
}

/** Mermaid ids may not contain `-`; map each name to a stable safe id. */
function mermaidId(id: string): string {
  return id.replace(/[^A-Za-z0-9_]/g, "_");
}

export function renderMermaid(graph: DelegationGraph): string {
  const { rites, roles, edges } = sorted(graph);
  const lines = ["flowchart LR"];
  lines.push('  subgraph rites["Rites (root orchestrators)"]');
  for (const n of rites) lines.push(`    ${mermaidId(n.id)}(["${label(n)}"])`);
  lines.push("  end");
  lines.push('  subgraph roles["Roles (depth-one leaves)"]');
  for (const n of roles) {
    const shape = n.mode === "writer" ? `[["${label(n)}"]]` : `["${label(n)}"]`;
    lines.push(`    ${mermaidId(n.id)}${shape}`);
  }
  lines.push("  end");
  for (const e of edges) lines.push(`  ${mermaidId(e.from)} --> ${mermaidId(e.to)}`);
  const writers = roles.filter((n) => n.mode === "writer").map((n) => mermaidId(n.id));
  if (writers.length > 0) {
    lines.push("  classDef writer stroke-width:3px");
    lines.push(`  class ${writers.join(",")} writer`);
  }
  return lines.join("\n");
}

function dotString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function renderDot(graph: DelegationGraph): string {
  const { rites, roles, edges } = sorted(graph);
  const lines = ["digraph devrites {", "  rankdir=LR;", "  node [fontname=Helvetica];"];
  lines.push('  subgraph cluster_rites { label="Rites (root orchestrators)";');
  for (const n of rites)
    lines.push(`    ${dotString(n.id)} [shape=box, style=rounded, label=${dotString(label(n))}];`);
  lines.push("  }");
  lines.push('  subgraph cluster_roles { label="Roles (depth-one leaves)";');
  for (const n of roles) {
    const style = n.mode === "writer" ? "shape=box, penwidth=3" : "shape=box, style=dashed";
    lines.push(`    ${dotString(n.id)} [${style}, label=${dotString(label(n))}];`);
  }
  lines.push("  }");
  for (const e of edges) lines.push(`  ${dotString(e.from)} -> ${dotString(e.to)};`);
  lines.push("}");
  return lines.join("\n");
}

/** `{nodes, edges}` with nodes and edges sorted and lines dropped (the chart, not the source map). */
export function renderJson(graph: DelegationGraph): string {
  const { rites, roles, edges } = sorted(graph);
  return JSON.stringify(
    {
      nodes: [...rites, ...roles],
      edges: edges.map((e) => ({ from: e.from, to: e.to })),
    },
    null,
    2,
  );
}
