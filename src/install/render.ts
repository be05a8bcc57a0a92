/** Render a linted pack model into the planned files of some hosts and layouts (the bundles and assets read here). */

import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { hostAssets } from "../hosts/files.js";
import { packageMeta } from "../hosts/meta.js";
import { planOutputs } from "../hosts/plan.js";
import type { Host, Layout, Plan } from "../hosts/types.js";
import type { PackModel } from "../pack/types.js";
import { PACKAGE_ROOT } from "./sources.js";

function readPackageJson(): unknown {
  try {
    return JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8"));
  } catch {
    return {};
  }
}

/** The plan of `hosts` × `layouts` for a linted model; bundle and asset errors come back as diagnostics. */
export async function planFor(
  model: PackModel,
  packDir: string,
  hooksDir: string,
  hosts: readonly Host[],
  layouts: readonly Layout[],
): Promise<{ plan: Plan; diagnostics: Diagnostic[] }> {
  const bundles = new Map<string, string>();
  for (const entry of new Set(model.hooks.map((h) => h.entry))) {
    const file = join(hooksDir, `${entry}.mjs`);
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
  const planned = planOutputs(model, {
    hosts,
    layouts,
    meta: packageMeta(readPackageJson()),
    bundles,
    assets,
  });
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
