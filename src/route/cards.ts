/**
 * Rite cards from the pack model: every skill named `rite` or `rite-*` becomes a card with its description,
 * its frontmatter route hints (`devrites.route.hints`) and its phase. The menu (`rite`) comes first, so the
 * router's last fallback is the rite that runs nothing.
 */

import { fileURLToPath } from "node:url";
import type { Diagnostic } from "../core/diagnostics.js";
import { loadPack } from "../pack/index.js";
import type { PackModel } from "../pack/types.js";
import type { RiteCard } from "./types.js";

export const MENU_RITE = "rite";

export function cardsFromPack(model: Pick<PackModel, "skills">): RiteCard[] {
  const cards = model.skills
    .filter((s) => s.name === MENU_RITE || s.name.startsWith(`${MENU_RITE}-`))
    .map((s) => {
      const card: RiteCard = { name: s.name, description: s.description, hints: [...s.devrites.route.hints] };
      if (s.devrites.phase) card.phase = s.devrites.phase;
      return card;
    });
  return cards.sort((a, b) =>
    a.name === MENU_RITE ? -1 : b.name === MENU_RITE ? 1 : a.name < b.name ? -1 : 1,
  );
}

/** The pack that ships with this devrites (`pack/.claude` next to `src/` or `dist/`). */
export const BUNDLED_PACK = fileURLToPath(new URL("../../pack/.claude", import.meta.url));

/** Load the cards from a pack folder (the bundled one by default). */
export async function loadRiteCards(
  packDir: string = BUNDLED_PACK,
): Promise<{ cards: RiteCard[]; diagnostics: Diagnostic[]; missing: boolean }> {
  const { model, diagnostics, missing } = await loadPack(packDir);
  return { cards: cardsFromPack(model), diagnostics, missing };
}
