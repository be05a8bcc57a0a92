/**
 * Generated adapters in sync: which (host, layout) outputs a repository has is read from the sidecar manifests
 * `devrites generate` and `devrites init` leave in each root; those layouts are re-planned from the pack and
 * compared with the files (`checkPlan`: missing, stale, hand-edited, orphaned). Nothing is written.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { checkPlan, type Drift } from "../hosts/check.js";
import { MANIFEST_NAME } from "../hosts/manifest.js";
import { HOOKS_DIR } from "../hosts/output-path.js";
import { HOSTS, LAYOUTS, type Plan, type PlannedFile } from "../hosts/types.js";
import { planFor } from "../install/render.js";
import type { PackModel } from "../pack/types.js";

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
  const files = new Map<string, PlannedFile>();
  const roots = new Set<string>();
  const layouts: string[] = [];
  const planning = new Map<string, Diagnostic>();
  for (const host of HOSTS)
    for (const layout of LAYOUTS) {
      const part = await planFor(model, packDir, hooksDir, [host], [layout]);
      const present = part.plan.roots.some(
        (r) => r !== HOOKS_DIR && existsSync(join(root, r, MANIFEST_NAME)),
      );
      if (!present) continue;
      layouts.push(`${host}/${layout}`);
      for (const d of part.diagnostics) planning.set(JSON.stringify([d.code, d.path, d.message]), d);
      for (const f of part.plan.files) files.set(f.path, f);
      for (const r of part.plan.roots) roots.add(r);
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
    roots: [...roots].sort(),
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
