/**
 * What the generated files are made from, read at the edge: the pack (`pack/.claude`), the bundled hook entry
 * points (`hooks/*.cjs`), the skill assets and the package metadata. By default those of this devrites package
 * (`init` installs the devrites it is); `validate` in the devrites repository itself uses the repository's pack.
 * Loading and linting the pack lives here; rendering it (`render.ts`) is a separate module, so a commit that
 * only lints does not load the host adapters.
 */

import { join } from "node:path";
import { type Diagnostic, ExitCode, hasErrors } from "../core/diagnostics.js";
import { lintPack } from "../pack/lint.js";
import { loadPack } from "../pack/load.js";
import type { PackModel } from "../pack/types.js";
import { PACKAGE_ROOT } from "./package-root.js";

export { PACKAGE_ROOT };
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
