import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLED_PACK, loadRiteCards, parseRiteCards } from "./cards.js";

const dir = mkdtempSync(join(tmpdir(), "devrites-cards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CARDS = [
  { name: "rite", description: "The menu.", hints: [] },
  { name: "rite-quick", description: "Small change.", hints: ["typo"], phase: "quick" },
];

describe("parseRiteCards", () => {
  it("reads the cards generate writes for the plugin", () => {
    expect(parseRiteCards(JSON.stringify(CARDS), "c.json")).toEqual(CARDS);
  });
  it.each([
    ["not JSON", "{", /unreadable: .*JSON/],
    ["not a list", "{}", /not a list of cards/],
    ["an empty list", "[]", /not a list of cards/],
    ["a card without a name", '[{"description":"d","hints":[]}]', /no name/],
    ["hints that are not strings", '[{"name":"rite","description":"d","hints":[1]}]', /rite: hints/],
    [
      "a phase that is not a string",
      '[{"name":"rite","description":"d","hints":[],"phase":2}]',
      /rite: phase/,
    ],
  ])("refuses %s, naming the file", (_what, text, why) => {
    const r = parseRiteCards(text, "plug/bin/rite-cards.json");
    expect(Array.isArray(r)).toBe(false);
    expect(r).toMatchObject({ code: "route.cards-invalid", path: "plug/bin/rite-cards.json" });
    expect((r as { message: string }).message).toMatch(why);
  });
});

describe("loadRiteCards", () => {
  const cardsFile = join(dir, "cards.json");
  writeFileSync(cardsFile, JSON.stringify(CARDS));

  it("routes with the pack when it is there, even with a cards file", async () => {
    const r = await loadRiteCards(BUNDLED_PACK, cardsFile);
    expect(r.missing).toBe(false);
    expect(r.cards.map((c) => c.name)).toContain("rite-build");
  });
  it("takes the cards file when the pack is absent (the Claude Code plugin's CLI)", async () => {
    const r = await loadRiteCards(join(dir, "no-pack"), cardsFile);
    expect(r).toEqual({ cards: CARDS, diagnostics: [], missing: false });
  });
  it("a pack named explicitly and absent has no stand-in: missing, with the pack's diagnostic", async () => {
    const r = await loadRiteCards(join(dir, "no-pack"));
    expect(r.missing).toBe(true);
    expect(r.diagnostics.map((d) => d.code)).toContain("pack.dir-missing");
  });
  it("an absent pack and an unreadable cards file: missing, with the cards' diagnostic", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "[]");
    const r = await loadRiteCards(join(dir, "no-pack"), bad);
    expect(r.missing).toBe(true);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([["route.cards-invalid", bad]]);
  });
});
