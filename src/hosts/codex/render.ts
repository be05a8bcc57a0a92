/**
 * Codex renderings: skill frontmatter (Agent Skills keys only), `agents/openai.yaml`, and role TOML files with
 * exactly the keys Codex 0.169.0 accepts (it drops a whole role file over one unknown key).
 */

import { stringify as toToml } from "smol-toml";
import { stringify as toYaml } from "yaml";
import type { AgentModel, SkillModel } from "../../pack/index.js";
import { pick } from "../files.js";
import { HASH_HEADER } from "../headers.js";
import { applyRewrites } from "../rewrite.js";
import { CODEX_VOCABULARY } from "./vocabulary.js";

/** The frontmatter keys a Codex skill keeps (the Agent Skills specification's); Claude-only keys are dropped. */
export const CODEX_SKILL_KEYS = ["name", "description", "license", "compatibility", "metadata"] as const;

export function codexText(s: string): string {
  return applyRewrites(s, CODEX_VOCABULARY);
}

export function codexSkillFrontmatter(skill: SkillModel): Record<string, unknown> {
  return pick(skill.frontmatter, CODEX_SKILL_KEYS);
}

/**
 * Whether Codex may pick the skill on its own. A skill the pack marks `disable-model-invocation: true` (user
 * only on Claude Code) is explicit-only on Codex too: `$name` still runs it, but Codex does not list it to the
 * model.
 */
export function explicitOnly(skill: SkillModel): boolean {
  return skill.frontmatter["disable-model-invocation"] === true;
}

/** `agents/openai.yaml` of an explicit-only skill. */
export function openaiYaml(): string {
  return `${HASH_HEADER}\n${toYaml({ policy: { allow_implicit_invocation: false } })}`;
}

/** The TOML keys of a Codex role, exactly; nothing else may be added (Codex drops the role). */
export const CODEX_ROLE_KEYS = ["name", "description", "developer_instructions", "sandbox_mode"] as const;

/**
 * A role file: `name`, `description`, `developer_instructions` (the role body in Codex vocabulary) and, for a
 * read-only role, `sandbox_mode = "read-only"` (documentation on Codex 0.169.0: the guard hook enforces it).
 */
export function codexRoleToml(agent: AgentModel): string {
  const role: Record<string, string> = {
    name: agent.name,
    description: agent.description,
    developer_instructions: codexText(agent.body.replace(/^\n+/, "")),
  };
  if (agent.mode === "read-only") role.sandbox_mode = "read-only";
  return `${HASH_HEADER}\n${toToml(role).trimEnd()}\n`;
}
