/**
 * The delegation graph: rites → the roles they may dispatch. Depth one by construction of the rules: a rite
 * dispatches only roles, a role dispatches nothing, every name resolves, and there are no cycles. Building is
 * pure and tolerant (it keeps dangling edges); `lintGraph` turns every violation into a diagnostic.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import type { AgentModel, DelegationGraph, GraphEdge, GraphNode, PackModel, SkillModel } from "./types.js";

export function buildGraph(skills: readonly SkillModel[], agents: readonly AgentModel[]): DelegationGraph {
  const nodes: GraphNode[] = [
    ...skills.map(
      (s): GraphNode => ({
        id: s.name,
        kind: "rite",
        path: s.source.path,
        ...(s.devrites.phase ? { phase: s.devrites.phase } : {}),
      }),
    ),
    ...agents.map((a): GraphNode => ({ id: a.name, kind: "role", mode: a.mode, path: a.source.path })),
  ];
  const edges: GraphEdge[] = [];
  const declare = (from: string, list: readonly string[], keyLines: Record<string, number>) => {
    list.forEach((to, i) => {
      const line = keyLines[`devrites.dispatches.${i}`] ?? keyLines["devrites.dispatches"];
      edges.push({ from, to, ...(line ? { line } : {}) });
    });
  };
  for (const s of skills) declare(s.name, s.devrites.dispatches, s.source.keyLines);
  for (const a of agents) declare(a.name, a.devrites.dispatches, a.source.keyLines);
  return { nodes, edges };
}

/** Every delegation rule, over the model's graph. */
export function lintGraph(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byId = new Map(model.graph.nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  for (const e of model.graph.edges) {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    const path = from?.path;
    const key = `${e.from}→${e.to}`;
    if (seen.has(key)) {
      out.push(
        error("pack.dispatch-duplicate", `\`${e.from}\` declares \`${e.to}\` more than once`, {
          path,
          line: e.line,
        }),
      );
      continue;
    }
    seen.add(key);
    if (from?.kind === "role") {
      out.push(
        error("pack.role-dispatches", `role \`${e.from}\` declares a dispatch; leaf roles dispatch nothing`, {
          path,
          line: e.line,
          hint: "remove `devrites.dispatches` from the role; only rites dispatch (depth one)",
        }),
      );
    }
    if (!to) {
      out.push(
        error("pack.dispatch-dangling", `\`${e.from}\` dispatches \`${e.to}\`, which is not in the pack`, {
          path,
          line: e.line,
          hint: "fix the name or add the role under agents/",
        }),
      );
    } else if (to.kind !== "role") {
      out.push(
        error("pack.dispatch-not-role", `\`${e.from}\` dispatches \`${e.to}\`, which is a rite, not a role`, {
          path,
          line: e.line,
          hint: "rites dispatch leaf roles only; hand over to another rite by telling the user to run it",
        }),
      );
    }
  }
  for (const cycle of findCycles(model.graph)) {
    const head = byId.get(cycle[0] as string);
    const edge = model.graph.edges.find((e) => e.from === cycle[0] && e.to === cycle[1]);
    out.push(
      error("pack.delegation-cycle", `delegation cycle: ${[...cycle, cycle[0]].join(" → ")}`, {
        path: head?.path,
        line: edge?.line,
        hint: "delegation is one level deep: rites → roles; remove a dispatch to break the cycle",
      }),
    );
  }
  return out;
}

/**
 * Cycles among known nodes: one per back edge of a depth-first search in sorted order, each rotated to start
 * at its smallest node id and reported once. A graph has a cycle exactly when this returns at least one, so
 * it is a complete acyclicity check even though it does not enumerate every elementary cycle.
 */
export function findCycles(graph: DelegationGraph): string[][] {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const adj = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (!ids.has(e.from) || !ids.has(e.to)) continue;
    const list = adj.get(e.from) ?? [];
    if (!list.includes(e.to)) list.push(e.to);
    adj.set(e.from, list);
  }
  for (const list of adj.values()) list.sort();
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, "open");
    stack.push(n);
    for (const m of adj.get(n) ?? []) {
      const s = state.get(m);
      if (s === "open") {
        const cycle = stack.slice(stack.indexOf(m));
        const rotated = rotateToMin(cycle);
        found.set(rotated.join("\u0000"), rotated);
      } else if (s === undefined) {
        visit(m);
      }
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const id of [...ids].sort()) if (!state.has(id)) visit(id);
  return [...found.values()].sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1));
}

function rotateToMin(cycle: string[]): string[] {
  let min = 0;
  cycle.forEach((id, i) => {
    if (id < (cycle[min] as string)) min = i;
  });
  return [...cycle.slice(min), ...cycle.slice(0, min)];
}
