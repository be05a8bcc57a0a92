/**
 * Claude Code, plugin layout: `plugins/claude/<name>/` with `.claude-plugin/plugin.json`, `skills/`, `agents/`,
 * `hooks/hooks.json` and the hook bundles, plus the repository's marketplace `.claude-plugin/marketplace.json`.
 * Plugin agents ignore `hooks`/`permissionMode` frontmatter, so the guard is wired as a plugin hook, run through
 * the launcher so that it fails closed for leaves (see `pluginHookCommand`).
 */

import type { Diagnostic } from "../../core/diagnostics.js";
import type { PackModel } from "../../pack/index.js";
import { bundleCopies, type LayoutPlan, owned, skillFolder } from "../files.js";
import { jsonText } from "../headers.js";
import { hooksObject, pluginHookCommand } from "../hooks.js";
import { applyRewrites } from "../rewrite.js";
import type { PlanInput, PlannedFile } from "../types.js";
import { claudeAgentDoc, claudeSkillFrontmatter, pluginRewrites } from "./render.js";

export const CLAUDE_MARKETPLACE_ROOT = ".claude-plugin";

/** The plugin folder, relative to the target. */
export function claudePluginDir(name: string): string {
  return `plugins/claude/${name}`;
}

export function planClaudePlugin(model: PackModel, input: PlanInput): LayoutPlan {
  const { meta } = input;
  const root = claudePluginDir(meta.name);
  const rules = pluginRewrites(meta.name);
  const text = (s: string) => applyRewrites(s, rules);
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
  };
  files.push(owned(root, `${root}/.claude-plugin/plugin.json`, jsonText(manifest)));
  for (const skill of model.skills) {
    const r = skillFolder(
      root,
      `${root}/skills/${skill.name}`,
      skill,
      { frontmatter: claudeSkillFrontmatter(skill), text },
      input.assets,
    );
    files.push(...r.files);
    diagnostics.push(...r.diagnostics);
  }
  for (const agent of model.agents) {
    files.push(owned(root, `${root}/agents/${agent.name}.md`, claudeAgentDoc(agent, text, true)));
  }
  const hooks = hooksObject(model.hooks, (w) => pluginHookCommand(w, "CLAUDE_PLUGIN_ROOT"));
  files.push(owned(root, `${root}/hooks/hooks.json`, jsonText(hooks)));
  const bundles = bundleCopies(root, `${root}/hooks`, model, input.bundles);
  files.push(...bundles.files);
  diagnostics.push(...bundles.diagnostics);

  const marketplace = {
    name: meta.name,
    owner: meta.author,
    description: meta.description,
    plugins: [{ name: meta.name, source: `./${root}`, description: meta.description }],
  };
  files.push(
    owned(CLAUDE_MARKETPLACE_ROOT, `${CLAUDE_MARKETPLACE_ROOT}/marketplace.json`, jsonText(marketplace)),
  );
  return { files, roots: [root, CLAUDE_MARKETPLACE_ROOT], diagnostics };
}
