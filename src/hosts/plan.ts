/**
 * Plan the generated files for a pack model: pure, no file system. Each (host, layout) adapter contributes its
 * files and the owned-file roots it covers; this step joins them, refuses unsafe or conflicting paths, and adds
 * one manifest per root. `apply` writes a plan, `check` compares it with a target.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import type { PackModel } from "../pack/index.js";
import { planClaudePlugin } from "./claude/plugin.js";
import { planClaudeProject } from "./claude/project.js";
import { planCodexPlugin } from "./codex/plugin.js";
import { planCodexProject } from "./codex/project.js";
import type { LayoutPlan } from "./files.js";
import { GENERATE_COMMAND } from "./headers.js";
import { manifestFile } from "./manifest.js";
import { checkOutputPath } from "./output-path.js";
import type { Host, Layout, Plan, PlanInput, PlannedFile } from "./types.js";

const ADAPTERS: Record<Host, Record<Layout, (model: PackModel, input: PlanInput) => LayoutPlan>> = {
  claude: { project: planClaudeProject, plugin: planClaudePlugin },
  codex: { project: planCodexProject, plugin: planCodexPlugin },
};

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The files `input.hosts` × `input.layouts` need. Never render a model with lint errors; the caller checks.
 * Errors in `diagnostics` (a missing hook bundle, an unsafe path, two adapters planning different content for
 * one path) mean the plan must not be applied.
 */
export function planOutputs(model: PackModel, input: PlanInput): { plan: Plan; diagnostics: Diagnostic[] } {
  const files = new Map<string, PlannedFile>();
  const roots = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const host of input.hosts) {
    for (const layout of input.layouts) {
      const part = ADAPTERS[host][layout](model, input);
      for (const r of part.roots) roots.add(r);
      diagnostics.push(...part.diagnostics);
      for (const f of part.files) {
        const prior = files.get(f.path);
        if (prior && (prior.content !== f.content || prior.kind !== f.kind)) {
          diagnostics.push(
            error("generate.path-conflict", "two adapters plan different content for one file", {
              path: f.path,
            }),
          );
          continue;
        }
        files.set(f.path, f);
      }
    }
  }
  if (input.regenerate !== undefined && input.regenerate !== GENERATE_COMMAND) {
    const from = `regenerate with ${GENERATE_COMMAND}`;
    const to = `regenerate with ${input.regenerate}`;
    for (const [path, f] of files)
      if (f.content.includes(from)) files.set(path, { ...f, content: f.content.replaceAll(from, to) });
  }
  for (const f of files.values()) {
    const unsafe = checkOutputPath(f.path);
    if (unsafe) diagnostics.push(unsafe);
    if (f.kind === "owned" && (f.root === undefined || !f.path.startsWith(`${f.root}/`))) {
      diagnostics.push(
        error("generate.root-mismatch", `owned file outside its root ${f.root}`, { path: f.path }),
      );
    }
  }
  const owned = [...files.values()];
  for (const root of roots) {
    const m = manifestFile(root, owned);
    files.set(m.path, m);
  }
  return {
    plan: { files: [...files.values()].sort(byPath), roots: [...roots].sort() },
    diagnostics: dedupe(diagnostics),
  };
}

function dedupe(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.code, d.path, d.line, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
