/**
 * The one table that turns the pack's Claude Code vocabulary into Codex's (`spawn_agent`, `agent_type`,
 * `$rite-x`, `.codex/agents/<role>.toml`, `.agents/skills/`, `request_user_input`, …). Applied to every skill,
 * reference file and role text the Codex adapter renders. Order matters: phrases before the words inside them.
 */

import type { Leftover, RewriteRule } from "../rewrite.js";

export const CODEX_VOCABULARY: readonly RewriteRule[] = [
  { id: "host-label", pattern: /\bClaude Code:/g, replace: "Codex:" },
  // What the root records when no result is stored: Codex hands the leaf's message back in wait_agent's output.
  {
    id: "hand-back",
    pattern: /\bthe Agent tool's whole result\b/g,
    replace: "the whole `wait_agent` output for this one agent",
  },
  // Codex offers the wright no edit tools of Claude's names: it writes through the shell.
  {
    id: "edit-tools",
    pattern: /\bwith Edit or Write\b/g,
    replace: "through the shell (e.g. a here-document)",
  },
  { id: "spawn-tool", pattern: /\b(?:the )?(?:Agent|Task) tool\b/g, replace: "`spawn_agent`" },
  { id: "spawn-calls", pattern: /\b(?:Agent|Task) (calls?)\b/g, replace: "`spawn_agent` $1" },
  { id: "subagent-type", pattern: /\bsubagent_type\b/g, replace: "agent_type" },
  // `spawn_agent` takes no description; drop Claude's `description: "…"` argument where it is listed.
  { id: "description-argument", pattern: /,?[ \t]*`description: "[^"`\n]*"`/g, replace: "" },
  { id: "foreground", pattern: /\bin the\s+foreground\b/g, replace: "waited on with `wait_agent`" },
  {
    id: "ask-user-question",
    pattern: /`?\bAskUserQuestion\b`?/g,
    replace: "`request_user_input` in Plan mode, otherwise a numbered list and end your turn",
  },
  { id: "explore-agent", pattern: /`Explore`|\bExplore(?= (?:agent|subagent)\b)/g, replace: "`explorer`" },
  {
    id: "skill-tool",
    pattern: /\bthe Skill tool\b/g,
    replace: "read that rite's `SKILL.md` and follow it",
  },
  { id: "slash-rite", pattern: /(^|[\s([`"'])\/(rite(?:-[a-z0-9]+)*)\b/gm, replace: "$1$$$2" },
  {
    id: "agent-path",
    pattern: /\.claude\/agents\/([^\s`'"()]+?)\.md\b/g,
    replace: ".codex/agents/$1.toml",
  },
  { id: "skills-path", pattern: /\.claude\/skills\//g, replace: ".agents/skills/" },
  { id: "claude-md", pattern: /\bCLAUDE\.md\b/g, replace: "AGENTS.md" },
];

/** Claude-only words that must not reach a Codex file; one that does is a `generate.codex-vocabulary` warning. */
export const CODEX_LEFTOVERS: readonly Leftover[] = [
  { pattern: /\bAskUserQuestion\b/, what: "AskUserQuestion" },
  { pattern: /\bsubagent_type\b/, what: "subagent_type" },
  { pattern: /(?:^|[^\w-])\.claude\//, what: ".claude/ path" },
  { pattern: /\b(?:Agent|Task|Skill) tool\b/, what: "Claude tool name" },
  { pattern: /\b(?:Grep|Glob|MultiEdit|NotebookEdit)\b|\bEdit or Write\b/, what: "Claude tool name" },
  { pattern: /\bClaude Code\b/, what: "Claude Code" },
  { pattern: /\bCLAUDE_[A-Z_]+/, what: "Claude variable" },
  { pattern: /(?:^|[\s([`"'])\/rite\b/, what: "/rite slash command" },
];
