/**
 * Generated adapters in sync: which (host, layout) outputs a repository has is read from the sidecar manifests
 * `devrites generate` and `devrites init` leave in each root; those layouts are re-planned from the pack and
 * compared with the files (`checkPlan`: missing, stale, hand-edited, orphaned). Nothing is written.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { checkPlan, type Drift } from "../hosts/check.js";
import { CLAUDE_MARKETPLACE_ROOT, claudePluginDir } from "../hosts/claude/plugin.js";
import { CLAUDE_ROOT } from "../hosts/claude/project.js";
import { CODEX_MARKETPLACE_ROOT, codexPluginDir } from "../hosts/codex/plugin.js";
import { CODEX_ROOT, CODEX_SKILLS_ROOT } from "../hosts/codex/project.js";
import { MANIFEST_NAME } from "../hosts/manifest.js";
import { HOSTS, type Host, LAYOUTS, type Layout, type Plan, type PlannedFile } from "../hosts/types.js";
import { INSTALLED_REGENERATE, planWith, readPlanInputs } from "../install/render.js";
import type { PackModel } from "../pack/types.js";

type Pair = `${Host}/${Layout}`;

/**
 * The roots each (host, layout) owns, besides the shared `.devrites/hooks`: a layout is present when one of them
 * holds its sidecar manifest. A test holds this table to the adapters' own roots.
 */
export function layoutRoots(name: string): Record<Pair, string[]> {
  return {
    "claude/project": [CLAUDE_ROOT],
    "claude/plugin": [claudePluginDir(name), CLAUDE_MARKETPLACE_ROOT],
    "codex/project": [CODEX_SKILLS_ROOT, CODEX_ROOT],
    "codex/plugin": [codexPluginDir(name), CODEX_MARKETPLACE_ROOT],
  };
}

export interface AdaptersReport {
  /** `host/layout` pairs found in the repository. */
  layouts: string[];
  /** Planned files compared. */
  files: number;
  drifted: number;
  /** Paths the comparison covered (planned, or listed by a manifest). */
  covered: Set<string>;
  /** Planning problems (a missing hook bundle, …): when any is an error, nothing was compared. */
  planning: Diagnostic[];
  /** What the comparison found, per path. */
  diagnostics: Diagnostic[];
  /** Per drifted path: its state and the diff on disk → generated. */
  drift: Drift[];
}

/**
 * Compare the generated files in `root` with what `model` renders to. `installed`: the repository got its
 * files from `devrites init` (the fix is `devrites update`, not `devrites generate`).
 */
export async function checkAdapters(
  root: string,
  model: PackModel,
  packDir: string,
  hooksDir: string,
  installed: boolean,
): Promise<AdaptersReport> {
  const read = await readPlanInputs(model, packDir, hooksDir);
  // Installed files name `devrites update` in their headers (see src/install/render.ts).
  const inputs = installed ? { ...read, regenerate: INSTALLED_REGENERATE } : read;
  const roots = layoutRoots(inputs.meta.name);
  const present = (Object.keys(roots) as Pair[]).filter((pair) =>
    roots[pair].some((r) => existsSync(join(root, r, MANIFEST_NAME))),
  );
  const layouts = present.map(String);
  const hosts = HOSTS.filter((h) => present.some((p) => p.startsWith(`${h}/`)));
  const kinds = LAYOUTS.filter((l) => present.some((p) => p.endsWith(`/${l}`)));
  // One plan when the layouts found are a full hosts × layouts product (the usual case), else one per layout.
  const parts =
    present.length === hosts.length * kinds.length
      ? present.length > 0
        ? [planWith(model, inputs, hooksDir, hosts, kinds)]
        : []
      : present.map((pair) => {
          const [h, l] = pair.split("/") as [Host, Layout];
          return planWith(model, inputs, hooksDir, [h], [l]);
        });
  const files = new Map<string, PlannedFile>();
  const planRoots = new Set<string>();
  const planning = new Map<string, Diagnostic>();
  for (const part of parts) {
    for (const d of part.diagnostics) planning.set(JSON.stringify([d.code, d.path, d.message]), d);
    for (const f of part.plan.files) files.set(f.path, f);
    for (const r of part.plan.roots) planRoots.add(r);
  }
  const report: AdaptersReport = {
    layouts,
    files: files.size,
    drifted: 0,
    covered: new Set(files.keys()),
    planning: [...planning.values()],
    diagnostics: [],
    drift: [],
  };
  if (layouts.length === 0 || report.planning.some((d) => d.severity === "error")) return report;
  const plan: Plan = {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    roots: [...planRoots].sort(),
  };
  const drift = await checkPlan(root, plan);
  for (const d of drift.drift) report.covered.add(d.path);
  report.drifted = drift.drift.length;
  report.drift = drift.drift;
  report.diagnostics.push(
    ...drift.diagnostics.map((d) =>
      installed && d.hint?.includes("devrites generate")
        ? {
            ...d,
            hint: d.hint
              .replace(/devrites generate/g, "devrites update")
              .replace("edit the pack (pack/.claude) instead and run", "undo the edit, or run"),
          }
        : d,
    ),
  );
  return report;
}
