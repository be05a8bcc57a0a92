/**
 * Building blocks shared by the adapters: owned files, a skill folder, the hook bundle copies. All pure.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import type { PackModel, SkillModel } from "../pack/index.js";
import { markdownDoc, scriptWithHeader } from "./headers.js";
import { HOOK_BUNDLE_EXT } from "./output-path.js";
import type { PlannedFile } from "./types.js";

/** What one adapter layout contributes to a plan. */
export interface LayoutPlan {
  files: PlannedFile[];
  /** The owned-file roots this layout writes (each gets a manifest). */
  roots: string[];
  diagnostics: Diagnostic[];
}

/** A file devrites owns entirely, listed in `root`'s manifest. */
export function owned(root: string, path: string, content: string): PlannedFile {
  return { path, content, mode: 0o644, kind: "owned", root };
}

/**
 * Files in a skill folder that are devrites' own data, never rendered for a host (like the `devrites:`
 * frontmatter block): `routing.json` is the router's evaluation corpus (`devrites eval`).
 */
export const DEVRITES_ONLY_SKILL_FILES: readonly string[] = ["routing.json"];

/** The skill's assets a host gets: every file except the devrites-only ones at the folder's top. */
export function hostAssets(skill: SkillModel): string[] {
  return skill.assets.filter((a) => !DEVRITES_ONLY_SKILL_FILES.includes(a.slice(skill.dir.length + 1)));
}

export interface SkillRender {
  /** The frontmatter the host gets. */
  frontmatter: Record<string, unknown>;
  /** Applied to the body and to every reference file. */
  text: (s: string) => string;
  /** Applied to reference files instead of `text`, when given (a plugin's references are read, not loaded). */
  referenceText?: (s: string) => string;
}

/**
 * A skill folder at `dir` (target-relative): `SKILL.md`, its reference files and its host assets. Assets are
 * copied verbatim from `assets` (pack-relative path → text); one that was not read is a diagnostic.
 */
export function skillFolder(
  root: string,
  dir: string,
  skill: SkillModel,
  render: SkillRender,
  assets: ReadonlyMap<string, string> | undefined,
): { files: PlannedFile[]; diagnostics: Diagnostic[] } {
  const files = [owned(root, `${dir}/SKILL.md`, markdownDoc(render.frontmatter, render.text(skill.body)))];
  const diagnostics: Diagnostic[] = [];
  for (const ref of skill.references) {
    const refText = render.referenceText ?? render.text;
    files.push(owned(root, `${dir}/${ref.relPath}`, markdownDoc(undefined, refText(ref.content))));
  }
  for (const asset of hostAssets(skill)) {
    const text = assets?.get(asset);
    if (text === undefined) {
      diagnostics.push(
        error("generate.asset-missing", "a skill asset was not read", {
          path: asset,
          hint: "pass the asset's text in PlanInput.assets",
        }),
      );
      continue;
    }
    files.push(owned(root, `${dir}/${asset.slice(skill.dir.length + 1)}`, text));
  }
  return { files, diagnostics };
}

/**
 * Copies of the hook bundles, one per wired entry, into `dir`, each with the generated header. A bundle that is
 * not in `bundles` is `generate.hook-bundle-missing`.
 */
export function bundleCopies(
  root: string,
  dir: string,
  model: PackModel,
  bundles: ReadonlyMap<string, string>,
): { files: PlannedFile[]; diagnostics: Diagnostic[] } {
  const files: PlannedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of [...new Set(model.hooks.map((h) => h.entry))].sort()) {
    const source = bundles.get(entry);
    if (source === undefined) {
      diagnostics.push(bundleMissing(entry));
      continue;
    }
    files.push(owned(root, `${dir}/${entry}${HOOK_BUNDLE_EXT}`, scriptWithHeader(source)));
  }
  return { files, diagnostics };
}

export function bundleMissing(entry: string): Diagnostic {
  return error(
    "generate.hook-bundle-missing",
    `the hook bundle hooks/${entry}${HOOK_BUNDLE_EXT} does not exist`,
    {
      path: `hooks/${entry}${HOOK_BUNDLE_EXT}`,
      hint: "npm run build",
    },
  );
}

/** Keep only `keys` of `record`, in the record's order. */
export function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => keys.includes(k)));
}
