/**
 * A Codex skill folder: the skill in Codex vocabulary with Claude-only keys dropped, plus `agents/openai.yaml`
 * when the skill is explicit-only; and the warnings for Claude-only words the vocabulary table did not cover.
 */

import { type Diagnostic, warning } from "../../core/diagnostics.js";
import type { SkillModel } from "../../pack/index.js";
import { owned, skillFolder } from "../files.js";
import { findLeftovers } from "../rewrite.js";
import type { PlannedFile } from "../types.js";
import { codexSkillFrontmatter, codexText, explicitOnly, openaiYaml } from "./render.js";
import { CODEX_LEFTOVERS } from "./vocabulary.js";

/** A Codex skill folder under `dir`: the skill in Codex vocabulary, plus `agents/openai.yaml` when explicit-only. */
export function codexSkillFolder(
  root: string,
  dir: string,
  skill: SkillModel,
  assets: ReadonlyMap<string, string> | undefined,
): { files: PlannedFile[]; diagnostics: Diagnostic[] } {
  const r = skillFolder(
    root,
    dir,
    skill,
    { frontmatter: codexSkillFrontmatter(skill), text: codexText },
    assets,
  );
  if (explicitOnly(skill)) r.files.push(owned(root, `${dir}/agents/openai.yaml`, openaiYaml()));
  return r;
}

/** Warnings for Claude-only words left in rendered Codex text (the vocabulary table has no rule for them). */
export function vocabularyWarnings(files: readonly PlannedFile[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of files) {
    if (!/\.(md|toml)$/.test(f.path)) continue;
    for (const hit of findLeftovers(f.content, CODEX_LEFTOVERS)) {
      out.push(
        warning("generate.codex-vocabulary", `Claude-only wording left in a Codex file: ${hit.what}`, {
          path: f.path,
          line: hit.line,
          hint: "reword the pack text host-neutrally, or add a rule to the Codex vocabulary table",
        }),
      );
    }
  }
  return out;
}
