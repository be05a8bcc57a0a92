/**
 * Rite cards from the pack model: every skill named `rite` or `rite-*` becomes a card with its description,
 * its frontmatter route hints (`devrites.route.hints`) and its phase. The menu (`rite`) comes first, so the
 * router's last fallback is the rite that runs nothing.
 */

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Diagnostic, error } from "../core/diagnostics.js";
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

/**
 * The cards `devrites generate` writes next to the Claude Code plugin's one-file CLI (`bin/rite-cards.json`):
 * the plugin carries no pack, so its CLI routes with these.
 */
export const BUNDLED_CARDS = fileURLToPath(new URL("../../bin/rite-cards.json", import.meta.url));

/** A card as read from JSON, or why not (pure). */
function cardOf(v: unknown): RiteCard | string {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "not an object";
  const c = v as Record<string, unknown>;
  if (typeof c.name !== "string" || c.name === "") return "no name";
  if (typeof c.description !== "string") return `${c.name}: no description`;
  if (!Array.isArray(c.hints) || !c.hints.every((h) => typeof h === "string")) return `${c.name}: hints`;
  if (c.phase !== undefined && typeof c.phase !== "string") return `${c.name}: phase`;
  const card: RiteCard = { name: c.name, description: c.description, hints: [...c.hints] };
  if (typeof c.phase === "string") card.phase = c.phase;
  return card;
}

/** Cards from a `rite-cards.json` text, or the diagnostic that says why they cannot be used (pure). */
export function parseRiteCards(text: string, path: string): RiteCard[] | Diagnostic {
  const bad = (why: string) =>
    error("route.cards-invalid", `the rite cards are unreadable: ${why}`, {
      path,
      hint: "reinstall the plugin (devrites generate writes this file)",
    });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return bad((e as Error).message);
  }
  if (!Array.isArray(raw) || raw.length === 0) return bad("not a list of cards");
  const cards: RiteCard[] = [];
  for (const v of raw) {
    const c = cardOf(v);
    if (typeof c === "string") return bad(c);
    cards.push(c);
  }
  return cards;
}

/**
 * Load the cards from a pack folder (the bundled one by default). Where the pack is absent, `cardsFile` stands
 * in for it when given: by default, for the bundled pack only, the cards next to the CLI (the Claude Code
 * plugin's CLI carries no pack). A pack named explicitly has no stand-in.
 */
export async function loadRiteCards(
  packDir: string = BUNDLED_PACK,
  cardsFile: string | undefined = packDir === BUNDLED_PACK ? BUNDLED_CARDS : undefined,
): Promise<{ cards: RiteCard[]; diagnostics: Diagnostic[]; missing: boolean }> {
  const { model, diagnostics, missing } = await loadPack(packDir);
  if (missing && cardsFile !== undefined) {
    let text: string | undefined;
    try {
      text = await readFile(cardsFile, "utf8");
    } catch {
      // neither: the pack's diagnostics say what is missing
    }
    if (text !== undefined) {
      const cards = parseRiteCards(text, cardsFile);
      return Array.isArray(cards)
        ? { cards, diagnostics: [], missing: false }
        : { cards: [], diagnostics: [cards], missing: true };
    }
  }
  return { cards: cardsFromPack(model), diagnostics, missing };
}
