/**
 * Codex, plugin layout: `plugins/codex/<name>/` with `.codex-plugin/plugin.json`, the skills in Codex vocabulary,
 * `hooks/hooks.json` and the hook bundles, plus the repository's marketplace `.agents/plugins/marketplace.json`.
 * Codex plugins cannot carry agents: the roles stay in `.codex/agents/` (project layout), as `AGENTS.md` says.
 */

import type { Diagnostic } from "../../core/diagnostics.js";
import type { PackModel } from "../../pack/index.js";
import { bundleCopies, type LayoutPlan, owned } from "../files.js";
import { jsonText } from "../headers.js";
import { hooksObject, pluginHookCommand } from "../hooks.js";
import type { PlanInput, PlannedFile } from "../types.js";
import { codexSkillFolder, vocabularyWarnings } from "./skills.js";

export const CODEX_MARKETPLACE_ROOT = ".agents/plugins";

export function codexPluginDir(name: string): string {
  return `plugins/codex/${name}`;
}

export function planCodexPlugin(model: PackModel, input: PlanInput): LayoutPlan {
  const { meta } = input;
  const root = codexPluginDir(meta.name);
  const files: PlannedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const manifest = {
    name: meta.name,
    version: meta.version,
    description: meta.description,
    author: meta.author,
    license: meta.license,
    ...(meta.homepage ? { homepage: meta.homepage } : {}),
    ...(meta.repository ? { repository: meta.repository } : {}),
    skills: "./skills/",
    hooks: "./hooks/hooks.json",
    interface: {
      displayName: meta.name,
      shortDescription: "Enforced rites and leaf roles for coding agents",
      developerName: meta.author.name,
      category: "Coding",
    },
  };
  files.push(owned(root, `${root}/.codex-plugin/plugin.json`, jsonText(manifest)));
  const skillFiles: PlannedFile[] = [];
  for (const skill of model.skills) {
    const r = codexSkillFolder(root, `${root}/skills/${skill.name}`, skill, input.assets);
    skillFiles.push(...r.files);
    diagnostics.push(...r.diagnostics);
  }
  files.push(...skillFiles);
  diagnostics.push(...vocabularyWarnings(skillFiles));
  // Codex 0.169.0 gives plugin hooks `PLUGIN_ROOT` (and `CLAUDE_PLUGIN_ROOT`) in their environment
  // (observed; pinned by the conformance suite).
  const hooks = hooksObject(model.hooks, (w) => pluginHookCommand(w, "PLUGIN_ROOT"));
  files.push(owned(root, `${root}/hooks/hooks.json`, jsonText(hooks)));
  const bundles = bundleCopies(root, `${root}/hooks`, model, input.bundles);
  files.push(...bundles.files);
  diagnostics.push(...bundles.diagnostics);
  const marketplace = {
    name: meta.name,
    interface: { displayName: meta.name },
    plugins: [
      {
        name: meta.name,
        source: { source: "local", path: `./${root}` },
        policy: { installation: "AVAILABLE", authentication: "ON_INSTALL" },
        category: "Coding",
      },
    ],
  };
  files.push(
    owned(CODEX_MARKETPLACE_ROOT, `${CODEX_MARKETPLACE_ROOT}/marketplace.json`, jsonText(marketplace)),
  );
  return { files, roots: [root, CODEX_MARKETPLACE_ROOT], diagnostics };
}
