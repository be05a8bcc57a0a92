/**
 * Install the pack into the demo's sample project: the same plan and single writer `devrites generate` uses
 * (project layout, both hosts), from this package's pack. When the hook bundles have not been built (a
 * source checkout before `npm run build` bundles them) the pack is installed without its hook wiring and the
 * report says so: the demo's scripted leaves run without a host, so no hook would run either way.
 */

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PACKAGE_ROOT, readAssets, readBundles } from "../cli/commands/generate.js";
import { type Diagnostic, error, hasErrors, warning } from "../core/diagnostics.js";
import { applyPlan, HOSTS, type Host, packageMeta, planOutputs } from "../hosts/index.js";
import { type DelegationGraph, loadPack } from "../pack/index.js";

export interface InstallOutcome {
  ok: boolean;
  diagnostics: Diagnostic[];
  hosts: Host[];
  /** Target-relative paths written. */
  written: string[];
  /** Whether the hook wiring was installed (false when the bundles are not built). */
  hooks: boolean;
  /** The pack's delegation graph (the org chart). */
  graph: DelegationGraph;
}

export async function installPack(target: string): Promise<InstallOutcome> {
  const packDir = join(PACKAGE_ROOT, "pack", ".claude");
  const hosts = [...HOSTS];
  const empty: DelegationGraph = { nodes: [], edges: [] };
  const loaded = await loadPack(packDir);
  if (loaded.missing || hasErrors(loaded.diagnostics))
    return {
      ok: false,
      diagnostics: loaded.missing
        ? [error("demo.no-pack", `no pack at ${packDir}`, { hint: "reinstall devrites" })]
        : loaded.diagnostics,
      hosts,
      written: [],
      hooks: false,
      graph: empty,
    };
  let model = loaded.model;
  const bundles = await readBundles(join(PACKAGE_ROOT, "hooks"), model);
  const diagnostics: Diagnostic[] = [];
  const hooks = model.hooks.every((h) => bundles.has(h.entry));
  if (!hooks) {
    diagnostics.push(
      warning("demo.hooks-not-built", "the hook bundles are not built: the pack is installed without hooks", {
        path: "hooks/",
        hint: "run `npm run build` to bundle them (the demo's scripted leaves run no hook either way)",
      }),
    );
    model = { ...model, hooks: [] };
  }
  let pkg: unknown = {};
  try {
    pkg = JSON.parse(await readFile(join(PACKAGE_ROOT, "package.json"), "utf8"));
  } catch {
    // packageMeta falls back to neutral defaults
  }
  const { plan, diagnostics: planned } = planOutputs(model, {
    hosts,
    layouts: ["project"],
    meta: packageMeta(pkg),
    bundles,
    assets: await readAssets(packDir, model),
  });
  diagnostics.push(...planned);
  if (hasErrors(planned)) return { ok: false, diagnostics, hosts, written: [], hooks, graph: model.graph };
  const applied = await applyPlan(target, plan);
  diagnostics.push(...applied.diagnostics);
  return {
    ok: !hasErrors(applied.diagnostics),
    diagnostics,
    hosts,
    written: applied.written,
    hooks,
    graph: model.graph,
  };
}
