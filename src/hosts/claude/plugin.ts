/**
 * Claude Code, plugin layout: `plugins/claude/<name>/` with `.claude-plugin/plugin.json`, `skills/`, `agents/`,
 * `hooks/hooks.json` and the hook bundles, plus the repository's marketplace `.claude-plugin/marketplace.json`.
 * Plugin agents ignore `hooks`/`permissionMode` frontmatter, so the guard is wired as a plugin hook, run through
 * the launcher so that it fails closed for leaves (see `pluginHookCommand`).
 */

import { type Diagnostic, error } from "../../core/diagnostics.js";
import type { PackModel } from "../../pack/index.js";
import { cardsFromPack } from "../../route/cards.js";
import { bundleCopies, type LayoutPlan, owned, skillFolder } from "../files.js";
import { HASH_HEADER, jsonText, scriptWithHeader } from "../headers.js";
import { hooksObject, pluginHookCommand } from "../hooks.js";
import { applyRewrites } from "../rewrite.js";
import type { PlanInput, PlannedFile } from "../types.js";
import {
  claudeAgentDoc,
  claudeSkillFrontmatter,
  PLUGIN_CLI,
  pluginReferenceRewrites,
  pluginRewrites,
} from "./render.js";

/**
 * Plugin-relative path of the one-file CLI. `.cjs`, so Node runs it as CommonJS wherever the plugin sits (a
 * plugin used from a local marketplace runs in place, under a `package.json` that may say `"type": "module"`).
 * Not executable: `bin/devrites` is the command.
 */
export const PLUGIN_CLI_BUNDLE = "bin/devrites.cjs";

/** `bin/devrites`: runs the plugin's one-file CLI with the `node` on PATH. */
export function pluginCliScript(): string {
  return [
    "#!/bin/sh",
    HASH_HEADER,
    "# The devrites CLI this plugin carries (bin/devrites.cjs: one file, no npm install). Claude Code puts the",
    "# plugin's bin/ on the Bash tool's PATH; the plugin's rites run it by its absolute path.",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
    'case "$0" in */*) here=${0%/*} ;; *) here=. ;; esac',
    "if ! command -v node >/dev/null 2>&1; then",
    '  echo "devrites: node (>= 20.19) is not on PATH; the devrites CLI and its hooks need Node.js" >&2',
    "  exit 127",
    "fi",
    'exec node "$here/devrites.cjs" "$@"',
    "",
  ].join("\n");
}

/** Plugin-relative path of the rite cards the plugin's CLI routes with (the plugin carries no pack). */
export const PLUGIN_RITE_CARDS = "bin/rite-cards.json";

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
  const referenceRules = pluginReferenceRewrites(meta.name);
  const referenceText = (s: string) => applyRewrites(s, referenceRules);
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
      { frontmatter: claudeSkillFrontmatter(skill), text, referenceText },
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
  // the CLI the rites run, with no npm install: the plugin's `bin/` is on the Bash tool's PATH, and the rites
  // name it by absolute path (`pluginRewrites`)
  if (input.cli === undefined)
    diagnostics.push(
      error("generate.cli-bundle-missing", "the one-file CLI bin/devrites.cjs does not exist", {
        path: "bin/devrites.cjs",
        hint: "npm run build",
      }),
    );
  else {
    // its own header names the build; the copy's names the command that regenerates the copy
    const source = input.cli.replace(/^(#![^\n]*\n)\/\/ generated - do not edit[^\n]*\n/, "$1");
    files.push(owned(root, `${root}/${PLUGIN_CLI_BUNDLE}`, scriptWithHeader(source)));
    files.push({ ...owned(root, `${root}/${PLUGIN_CLI}`, pluginCliScript()), mode: 0o755 });
  }
  files.push(owned(root, `${root}/${PLUGIN_RITE_CARDS}`, jsonText(cardsFromPack(model))));

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
