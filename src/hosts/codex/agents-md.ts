/**
 * The devrites block in `AGENTS.md`: what Codex users and the Codex model need to know that no Codex file format
 * can carry (how to run a rite, how a dispatch is done, and the trust step without which no hook runs).
 */

import type { PackModel } from "../../pack/index.js";
import { markedBlock } from "../merge.js";
import { explicitOnly } from "./render.js";

export const AGENTS_MD = "AGENTS.md";

export function agentsMdBlock(model: PackModel, pluginDir: string): string {
  const rites = model.skills.map((s) => `\`$${s.name}\`${explicitOnly(s) ? " (explicit only)" : ""}`);
  const roles = model.agents.map((a) => `\`${a.name}\``);
  const entry = model.skills.find((s) => s.name === "rite");
  const dispatch = model.skills.some((s) => s.references.some((r) => r.relPath === "reference/dispatch.md"));
  const dispatchRef = dispatch ? " (details: `.agents/skills/rite/reference/dispatch.md`)" : "";
  return markedBlock(
    [
      "## devrites",
      "",
      "This repository uses devrites: root rites (skills in `.agents/skills/`) dispatch depth-one leaf roles",
      "(`.codex/agents/*.toml`) and check every result before using it.",
      "",
      `- Rites: ${rites.join(", ")}.${entry ? ` Start with \`$${entry.name}\` when unsure.` : ""}`,
      `- Leaf roles: ${roles.join(", ")}.`,
      "- Dispatch a role only as a rite says: `devrites packet new …`, then `spawn_agent` with `agent_type` = the",
      "  role and the packet path as the message, then `wait_agent` until it completes, then",
      `  \`devrites result check\`${dispatchRef}. Nothing a leaf says counts until the check accepts it.`,
      "- A question for the user: `request_user_input` in Plan mode; otherwise ask it as a numbered list and end",
      "  your turn.",
      "- **One step every Codex user must take:** open `/hooks` and trust the devrites hooks (`.codex/hooks.json`).",
      "  Codex skips untrusted hooks silently, and without them nothing stops a leaf from writing outside its",
      "  scope. The project must be trusted as well: Codex ignores `.codex/` (roles and hooks) in an untrusted",
      "  project.",
      `- The Codex plugin (\`${pluginDir}\`) carries the skills and hooks only: Codex plugins cannot carry`,
      "  agents, so the roles come from `.codex/agents/`, generated with the rest by `devrites generate`.",
    ].join("\n"),
  );
}
