/**
 * The devrites block in `AGENTS.md`. Both hosts read this file: Codex as its instructions, and Claude Code 2.1.328
 * as project instructions that override its defaults. So it says only what is true on either host, in neither
 * host's tool names: where the rites are, that a rite says how to dispatch, and the one rule about results.
 * Host-specific steps live where only that host reads them (the rendered skills and roles; the trust step for
 * Codex users is printed by `devrites init` and written in the README, since a model cannot take it).
 */

import type { PackModel } from "../../pack/index.js";
import { markedBlock } from "../merge.js";

export const AGENTS_MD = "AGENTS.md";

export function agentsMdBlock(model: PackModel, _pluginDir: string): string {
  const entry = model.skills.find((s) => s.name === "rite");
  return markedBlock(
    [
      "## devrites",
      "",
      "This repository uses devrites: root rites (skills) dispatch depth-one leaf roles and check every result",
      "before using it.",
      "",
      `- For devrites work, use the rite skills${entry ? ` (start with the \`${entry.name}\` skill when unsure)` : ""}; each rite says`,
      "  how to dispatch its leaf roles. Nothing a leaf says counts until `.devrites/bin/devrites result check`",
      "  accepts it.",
      "- `.devrites/` is written only by the devrites CLI (`.devrites/bin/devrites`); never edit it by hand.",
    ].join("\n"),
  );
}
