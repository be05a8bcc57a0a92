/**
 * Codex, project layout: `.agents/skills/<rite>/…` in Codex vocabulary (with `agents/openai.yaml` for
 * explicit-only skills), `.codex/agents/<role>.toml`, devrites' hooks merged into `.codex/hooks.json`, the
 * devrites block in `AGENTS.md`, and the hook bundles in `.devrites/hooks/`.
 */

import type { Diagnostic } from "../../core/diagnostics.js";
import type { PackModel } from "../../pack/index.js";
import { bundleCopies, type LayoutPlan, owned } from "../files.js";
import { jsonText } from "../headers.js";
import { hooksObject, projectHookCommand } from "../hooks.js";
import { HOOKS_DIR } from "../output-path.js";
import type { PlanInput, PlannedFile } from "../types.js";
import { AGENTS_MD, agentsMdBlock } from "./agents-md.js";
import { codexPluginDir } from "./plugin.js";
import { codexRoleToml } from "./render.js";
import { codexSkillFolder, vocabularyWarnings } from "./skills.js";

export const CODEX_SKILLS_ROOT = ".agents/skills";
export const CODEX_ROOT = ".codex";
export const CODEX_HOOKS = ".codex/hooks.json";

export function planCodexProject(model: PackModel, input: PlanInput): LayoutPlan {
  const files: PlannedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const skill of model.skills) {
    const r = codexSkillFolder(CODEX_SKILLS_ROOT, `${CODEX_SKILLS_ROOT}/${skill.name}`, skill, input.assets);
    files.push(...r.files);
    diagnostics.push(...r.diagnostics);
  }
  for (const agent of model.agents) {
    files.push(owned(CODEX_ROOT, `${CODEX_ROOT}/agents/${agent.name}.toml`, codexRoleToml(agent)));
  }
  diagnostics.push(...vocabularyWarnings(files));
  files.push({
    path: CODEX_HOOKS,
    content: jsonText(hooksObject(model.hooks, projectHookCommand)),
    mode: 0o644,
    kind: "merged-json",
  });
  files.push({
    path: AGENTS_MD,
    content: agentsMdBlock(model, codexPluginDir(input.meta.name)),
    mode: 0o644,
    kind: "marked-block",
  });
  const bundles = bundleCopies(HOOKS_DIR, HOOKS_DIR, model, input.bundles);
  files.push(...bundles.files);
  diagnostics.push(...bundles.diagnostics);
  return { files, roots: [CODEX_SKILLS_ROOT, CODEX_ROOT, HOOKS_DIR], diagnostics };
}
