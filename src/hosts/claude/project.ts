/**
 * Claude Code, project layout: `.claude/skills/<rite>/…`, `.claude/agents/<role>.md`, devrites' hooks merged into
 * `.claude/settings.json`, and the hook bundles in `.devrites/hooks/`.
 */

import type { Diagnostic } from "../../core/diagnostics.js";
import type { PackModel } from "../../pack/index.js";
import { bundleCopies, type LayoutPlan, owned, skillFolder } from "../files.js";
import { jsonText } from "../headers.js";
import { hooksObject, projectHookCommand } from "../hooks.js";
import { HOOKS_DIR } from "../output-path.js";
import type { PlanInput, PlannedFile } from "../types.js";
import { claudeAgentDoc, claudeSkillFrontmatter } from "./render.js";

export const CLAUDE_ROOT = ".claude";
export const CLAUDE_SETTINGS = ".claude/settings.json";

export function planClaudeProject(model: PackModel, input: PlanInput): LayoutPlan {
  const files: PlannedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const same = (s: string) => s;
  for (const skill of model.skills) {
    const r = skillFolder(
      CLAUDE_ROOT,
      `${CLAUDE_ROOT}/skills/${skill.name}`,
      skill,
      { frontmatter: claudeSkillFrontmatter(skill), text: same },
      input.assets,
    );
    files.push(...r.files);
    diagnostics.push(...r.diagnostics);
  }
  for (const agent of model.agents) {
    files.push(
      owned(CLAUDE_ROOT, `${CLAUDE_ROOT}/agents/${agent.name}.md`, claudeAgentDoc(agent, same, false)),
    );
  }
  files.push({
    path: CLAUDE_SETTINGS,
    content: jsonText(hooksObject(model.hooks, projectHookCommand)),
    mode: 0o644,
    kind: "merged-json",
  });
  const bundles = bundleCopies(HOOKS_DIR, HOOKS_DIR, model, input.bundles);
  files.push(...bundles.files);
  diagnostics.push(...bundles.diagnostics);
  return { files, roots: [CLAUDE_ROOT, HOOKS_DIR], diagnostics };
}
