/**
 * What the generated files are made from, read at the edge: the pack (`pack/.claude`), the bundled hook entry
 * points (`hooks/*.mjs`), the skill assets and the package metadata. By default those of this devrites package
 * (`init` installs the devrites it is); `validate` in the devrites repository itself uses the repository's pack.
 */

import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Diagnostic, ExitCode, hasErrors } from "../core/diagnostics.js";
import { hostAssets } from "../hosts/files.js";
import { packageMeta } from "../hosts/meta.js";
import { planOutputs } from "../hosts/plan.js";
import type { Host, Layout, Plan } from "../hosts/types.js";
import { lintPack } from "../pack/lint.js";
import { loadPack } from "../pack/load.js";
import type { PackModel } from "../pack/types.js";

/** The devrites package root (two levels up from both src/install and dist/install). */
export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const PACKAGE_PACK = join(PACKAGE_ROOT, "pack", ".claude");
export const PACKAGE_HOOKS = join(PACKAGE_ROOT, "hooks");

export interface SourceOptions {
  packDir: string;
  hooksDir: string;
  knownCommands: readonly string[];
}

export type LoadedPack =
  | { ok: true; model: PackModel; diagnostics: Diagnostic[] }
  | { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] };

/** Load and lint a pack. Diagnostics are pack-relative (the caller anchors them). */
export async function loadLintedPack(packDir: string, knownCommands: readonly string[]): Promise<LoadedPack> {
  const loaded = await loadPack(packDir);
  if (loaded.missing) return { ok: false, exitCode: ExitCode.MissingInput, diagnostics: loaded.diagnostics };
  const diagnostics = [...loaded.diagnostics, ...lintPack(loaded.model, knownCommands)];
  if (hasErrors(diagnostics)) return { ok: false, exitCode: ExitCode.Violation, diagnostics };
  return { ok: true, model: loaded.model, diagnostics };
}

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
