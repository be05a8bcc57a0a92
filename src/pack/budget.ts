/**
 * The pack's context budget, guarded by character counts (fast, no host needed). The real figures come from
 * the host: `claude --plugin-dir DIR plugin details NAME` (Claude Code 2.1.328) projects tokens. Targets:
 *
 * - always-on (every session pays it): every skill's and agent's `name` + `description`, ≤ 250 tokens in total.
 *   Calibration: this pack's 764 characters projected ~218 tokens (≈ 3.5 characters a token: short, hyphenated
 *   names tokenise poorly), so 850 characters keeps the pack under ~243 tokens;
 * - on invoke (paid when a rite or role is loaded): its frontmatter + body with fragments expanded,
 *   ≤ 2,500 tokens each. Calibration: a 7,774-character role projected ~1.9k tokens (≈ 4 a token), so 9,000
 *   characters is ≈ 2,250 tokens. Reference files are loaded on demand and held to the same limit.
 */

import type { PackModel } from "./types.js";

/** Total `name` + `description` characters over all skills and agents. ≈ 243 tokens. */
export const ALWAYS_ON_CHAR_BUDGET = 850;
/** Characters of one rite, role or reference file as the model receives it. ≈ 2,250 tokens. */
export const INVOKE_CHAR_BUDGET = 9000;
/** One description, one line. Short descriptions are what lowers the always-on figure. */
export const DESCRIPTION_MAX_CHARS = 60;
/** Characters per token for listing text (names, descriptions), calibrated on Claude Code 2.1.328. */
export const ALWAYS_ON_CHARS_PER_TOKEN = 3.5;
/** Characters per token for prose bodies, calibrated on Claude Code 2.1.328. */
export const CHARS_PER_TOKEN = 4;

export interface ComponentCost {
  name: string;
  kind: "skill" | "agent" | "reference";
  /** Pack-relative file. */
  path: string;
  /** `name` + `description` characters (0 for reference files, which are never listed). */
  alwaysOnChars: number;
  /** Characters loaded when invoked or read. */
  invokeChars: number;
}

export interface BudgetReport {
  alwaysOnChars: number;
  alwaysOnTokensEstimate: number;
  components: ComponentCost[];
  /** The largest invoke cost among skills and agents. */
  maxInvokeChars: number;
}

/** A rough token estimate for `chars` characters of prose (or of listing text with `ALWAYS_ON_CHARS_PER_TOKEN`). */
export function estimateTokens(chars: number, charsPerToken = CHARS_PER_TOKEN): number {
  return Math.ceil(chars / charsPerToken);
}

/** Measure the model. Deterministic order: skills, then agents, then reference files, each by path. */
export function measurePack(model: PackModel): BudgetReport {
  const components: ComponentCost[] = [];
  for (const s of model.skills) {
    components.push({
      name: s.name,
      kind: "skill",
      path: s.source.path,
      alwaysOnChars: s.name.length + s.description.length,
      invokeChars: s.source.frontmatterText.length + s.body.length,
    });
  }
  for (const a of model.agents) {
    components.push({
      name: a.name,
      kind: "agent",
      path: a.source.path,
      alwaysOnChars: a.name.length + a.description.length,
      invokeChars: a.source.frontmatterText.length + a.body.length,
    });
  }
  for (const s of model.skills) {
    for (const r of s.references) {
      components.push({
        name: `${s.name}/${r.relPath}`,
        kind: "reference",
        path: r.path,
        alwaysOnChars: 0,
        invokeChars: r.content.length,
      });
    }
  }
  const alwaysOnChars = components.reduce((n, c) => n + c.alwaysOnChars, 0);
  const listed = components.filter((c) => c.kind !== "reference");
  return {
    alwaysOnChars,
    alwaysOnTokensEstimate: estimateTokens(alwaysOnChars, ALWAYS_ON_CHARS_PER_TOKEN),
    components,
    maxInvokeChars: Math.max(0, ...listed.map((c) => c.invokeChars)),
  };
}
