/**
 * Claude Code renderings of the pack's documents. The pack is written for Claude Code, so project copies are
 * the model as written; plugin copies namespace the agent types and point at the plugin's own folders.
 */

import type { AgentModel, SkillModel } from "../../pack/index.js";
import { markdownDoc } from "../headers.js";
import type { RewriteRule } from "../rewrite.js";

/** Frontmatter keys Claude Code ignores on plugin agents (enforcement comes from the plugin's hooks). */
/** Plugin-relative path of the one-file CLI the Claude Code plugin carries (its `bin/` is on the Bash tool's PATH). */
export const PLUGIN_CLI = "bin/devrites";

export const PLUGIN_AGENT_IGNORED_KEYS = ["hooks", "permissionMode", "mcpServers"] as const;

/**
 * Plugin text rules: plugin agents are `<plugin>:<name>`, and the plugin's agents and skills live under
 * `${CLAUDE_PLUGIN_ROOT}`, not `.claude/`.
 */
export function pluginRewrites(plugin: string): RewriteRule[] {
  return [
    {
      id: "subagent-type-namespace",
      pattern: /(\bsubagent_type["']?\s*:\s*["'])(?![^"'\n]*:)([^"'\n]+)(["'])/g,
      replace: `$1${plugin}:$2$3`,
    },
    {
      id: "agents-path",
      pattern: /(^|[^\w/.$}-])\.claude\/agents\//g,
      replace: "$1$${CLAUDE_PLUGIN_ROOT}/agents/",
    },
    {
      // the rites run the CLI the plugin carries (its `bin/devrites`), by absolute path: a user's repository
      // with only the plugin has no `.devrites/bin/devrites` launcher, and the plugin's `bin/` comes last on the
      // Bash tool's PATH, after any other devrites
      id: "cli-path",
      pattern: /(^|[^\w/.$}-])\.devrites\/bin\/devrites(?![\w.-])/g,
      replace: "$1$${CLAUDE_PLUGIN_ROOT}/bin/devrites",
    },
    {
      id: "skills-path",
      pattern: /(^|[^\w/.$}-])\.claude\/skills\//g,
      replace: "$1$${CLAUDE_PLUGIN_ROOT}/skills/",
    },
  ];
}

/**
 * The plugin rewrites for a skill's reference files. Claude Code substitutes `${CLAUDE_PLUGIN_ROOT}` in a
 * SKILL.md it loads, not in a file the model reads later with the Read tool, and the variable is not in the Bash
 * tool's environment: a reference names the plugin's CLI by its bare name, which the plugin's `bin/` on the
 * Bash tool's PATH resolves (checked on 2.1.328).
 */
export function pluginReferenceRewrites(plugin: string): RewriteRule[] {
  return [
    {
      id: "reference-cli-why",
      pattern: /\(the launcher\s+the install wrote there; a bare `devrites` may not be on PATH\)/g,
      replace: "(the plugin's `bin/devrites`, which the plugin puts on the Bash tool's PATH)",
    },
    {
      id: "reference-cli-path",
      pattern: /(^|[^\w/.$}-])\.devrites\/bin\/devrites(?![\w.-])/g,
      replace: "$1devrites",
    },
    ...pluginRewrites(plugin).filter((r) => r.id !== "cli-path"),
  ];
}

/** A skill's `SKILL.md` frontmatter for Claude Code: the pack's host keys, as written. */
export function claudeSkillFrontmatter(skill: SkillModel): Record<string, unknown> {
  return { ...skill.frontmatter };
}

/** A role file for Claude Code; plugin copies drop the keys plugin agents ignore. */
export function claudeAgentDoc(agent: AgentModel, text: (s: string) => string, plugin: boolean): string {
  const fm = { ...agent.frontmatter };
  if (plugin) for (const k of PLUGIN_AGENT_IGNORED_KEYS) delete fm[k];
  return markdownDoc(fm, text(agent.body));
}
