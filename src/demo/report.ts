/**
 * The demo's readable report (pure): each step with its verdict and diagnostic codes, the gate's CLI
 * invocations and exit codes, the guard strength, the final `devrites status`, the org chart and the
 * sample project's tree.
 */

import { renderStatus } from "../cli/commands/status.js";
import type { DelegationGraph } from "../pack/index.js";
import type { DemoReport, DemoStep } from "./run.js";
import { STRAY_FILE } from "./sample.js";

const PAD = 14;

/** The org chart as text: one line per rite, the leaves it may dispatch. */
export function orgChart(graph: DelegationGraph): string[] {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const rites = graph.nodes.filter((n) => n.kind === "rite").sort((a, b) => (a.id < b.id ? -1 : 1));
  const width = Math.max(0, ...rites.map((r) => label(r.id, r.phase).length));
  return rites.map((r) => {
    const leaves = [...new Set(graph.edges.filter((e) => e.from === r.id).map((e) => e.to))]
      .filter((to) => nodes.has(to))
      .sort()
      .map((to) => (nodes.get(to)?.mode === "writer" ? `${to} [writer]` : to));
    return `${label(r.id, r.phase).padEnd(width)}  → ${leaves.length ? leaves.join(", ") : "(no leaves)"}`;
  });
}

function label(id: string, phase: string | undefined): string {
  return phase ? `${id} (${phase})` : id;
}

function quoteArg(a: string): string {
  return /^[A-Za-z0-9._/#:-]+$/.test(a) ? a : JSON.stringify(a);
}

function headline(s: DemoStep): string {
  if (s.step_id && s.attempt !== undefined) {
    const codes = s.codes.length ? ` [${s.codes.join(", ")}]` : "";
    const guard = s.guard_strength ? ` · guard ${s.guard_strength}` : "";
    return `${s.step_id} attempt ${s.attempt} → ${s.verdict ?? "no verdict"}${codes}${guard}`;
  }
  if (s.step_id) return s.step_id;
  return s.shows;
}

export function stepLines(s: DemoStep): string[] {
  const mark = s.ok ? "✓" : "✗";
  const indent = " ".repeat(PAD + 4);
  const lines = [`  ${mark} ${s.stage.padEnd(PAD)}${headline(s)}`];
  const more: string[] = [];
  if (s.step_id) more.push(s.shows);
  if (s.question)
    more.push(
      `${s.question.qid} [${s.question.kind}] ${s.question.question}${s.question.options.length ? ` (options: ${s.question.options.join(" | ")})` : ""}`,
    );
  for (const c of s.commands ?? [])
    more.push(
      `$ devrites ${c.argv.map(quoteArg).join(" ")} → exit ${c.exitCode}${c.exitCode === c.expected ? "" : ` (expected ${c.expected})`}`,
    );
  if (s.attempt !== undefined)
    for (const d of s.diagnostics) more.push(`${d.code}${d.path ? ` ${d.path}` : ""}: ${d.message}`);
  more.push(...s.notes);
  lines.push(...more.map((m) => `${indent}${m}`));
  return lines;
}

export const DEMO_HEADER =
  "devrites demo: a full scripted cycle in a throwaway git repository, with no model";

/** The report; `stepsShown`: the header and steps were already printed as they happened. */
export function renderDemoReport(r: DemoReport, opts: { stepsShown?: boolean } = {}): string {
  const out: string[] = opts.stepsShown ? [] : [DEMO_HEADER, "", ...r.steps.flatMap(stepLines)];
  if (r.failure) out.push(`  ✗ ${r.failure.stage.padEnd(PAD)}${r.failure.message}`);
  out.push("");
  if (r.guard_strength.length)
    out.push(
      `guard strength: ${r.guard_strength.join(", ")}${
        r.guard_strength.includes("unavailable")
          ? " (no host ran these leaves, so no hook saw their tool calls; in Claude Code or Codex the guard hook's decisions make it enforced)"
          : ""
      }`,
      "",
    );
  if (r.status)
    out.push(
      "devrites status:",
      ...renderStatus(r.status)
        .split("\n")
        .map((l) => `  ${l}`),
      "",
    );
  if (r.graph.nodes.length)
    out.push("org chart (who may dispatch whom):", ...orgChart(r.graph).map((l) => `  ${l}`), "");
  if (r.tree.length) {
    out.push("the sample project at the end (git status --short):", ...r.tree.map((l) => `  ${l}`));
    if (r.tree.some((l) => l.endsWith(STRAY_FILE)))
      out.push(
        `  ${STRAY_FILE} is the rejected attempt's stray file: devrites reverts nothing (in a host the guard hook denies that write before it happens)`,
      );
    out.push("");
  }
  const checks = r.steps.filter((s) => s.ok).length;
  const seconds = (r.duration_ms / 1000).toFixed(1);
  out.push(
    r.ok
      ? `all ${checks} steps held their expectations in ${seconds} s`
      : `demo FAILED at stage ${r.failure?.stage ?? "?"} after ${seconds} s`,
  );
  if (r.root) out.push(r.kept ? `kept: ${r.root}` : "the temporary repository was removed");
  return out.join("\n");
}
