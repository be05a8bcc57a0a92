/** Render a linted pack model into the planned files of some hosts and layouts (the bundles and assets read here). */

import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { hostAssets } from "../hosts/files.js";
import { packageMeta } from "../hosts/meta.js";
import { HOOK_BUNDLE_EXT } from "../hosts/output-path.js";
import { planOutputs } from "../hosts/plan.js";
import type { Host, Layout, Plan, PlanInput } from "../hosts/types.js";
import type { PackModel } from "../pack/types.js";
import { PACKAGE_ROOT } from "./sources.js";

function readPackageJson(): unknown {
  try {
    return JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8"));
  } catch {
    return {};
  }
}

/** The one-file CLI the Claude Code plugin carries (`bin/devrites.cjs`); absent, the plan reports it. */
export async function readCliBundle(root: string = PACKAGE_ROOT): Promise<{ cli?: string }> {
  try {
    return { cli: await readFile(join(root, "bin", "devrites.cjs"), "utf8") };
  } catch {
    return {};
  }
}

/** What a plan needs besides the model, read once: the package metadata, hook bundles and skill assets. */
export async function readPlanInputs(
  model: PackModel,
  packDir: string,
  hooksDir: string,
): Promise<Omit<PlanInput, "hosts" | "layouts">> {
  const bundles = new Map<string, string>();
  for (const entry of new Set(model.hooks.map((h) => h.entry))) {
    const file = join(hooksDir, `${entry}${HOOK_BUNDLE_EXT}`);
    if (existsSync(file)) bundles.set(entry, await readFile(file, "utf8"));
  }
  const assets = new Map<string, string>();
  for (const s of model.skills)
    for (const a of hostAssets(s)) {
      try {
        assets.set(a, await readFile(join(packDir, a), "utf8"));
      } catch {
        // reported by the plan as generate.asset-missing
      }
    }
  return { meta: packageMeta(readPackageJson()), bundles, assets, ...(await readCliBundle()) };
}

/** The plan of `hosts` × `layouts` from inputs already read (pure). */
export function planWith(
  model: PackModel,
  inputs: Omit<PlanInput, "hosts" | "layouts">,
  hooksDir: string,
  hosts: readonly Host[],
  layouts: readonly Layout[],
): { plan: Plan; diagnostics: Diagnostic[] } {
  const planned = planOutputs(model, { ...inputs, hosts, layouts });
  const diagnostics = planned.diagnostics.map((d) =>
    d.code === "generate.hook-bundle-missing" && d.path
      ? {
          ...d,
          path: join(hooksDir, d.path.replace(/^hooks\//, "")),
          hint: "the hook bundles are built by `npm run build`; a published package ships them in hooks/",
        }
      : d,
  );
  return { plan: planned.plan, diagnostics };
}

/** The plan of `hosts` × `layouts` for a linted model; bundle and asset errors come back as diagnostics. */
export async function planFor(
  model: PackModel,
  packDir: string,
  hooksDir: string,
  hosts: readonly Host[],
  layouts: readonly Layout[],
  regenerate?: string,
): Promise<{ plan: Plan; diagnostics: Diagnostic[] }> {
  const inputs = await readPlanInputs(model, packDir, hooksDir);
  return planWith(model, regenerate ? { ...inputs, regenerate } : inputs, hooksDir, hosts, layouts);
}

/** The command that regenerates the files `devrites init` installed. */
export const INSTALLED_REGENERATE = "devrites update";
