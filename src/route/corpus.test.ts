import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { cardsFromPack, loadRiteCards } from "./cards.js";
import { evaluateCorpora, judgeCase, loadCorpora } from "./corpus.js";
import { FIXTURE_CARDS as CARDS, PROPOSED_HINTS } from "./fixtures.js";
import type { RiteCard } from "./types.js";

const PACK = fileURLToPath(new URL("../../pack/.claude", import.meta.url));
const RITES = [
  "rite",
  "rite-build",
  "rite-plan",
  "rite-prove",
  "rite-quick",
  "rite-resolve",
  "rite-review",
  "rite-ship",
  "rite-spec",
  "rite-status",
];

describe("the pack's routing corpora", () => {
  const { corpora, diagnostics } = loadCorpora(PACK);
  /** The pack's own rite cards: names, descriptions, phases and route hints from the SKILL.md frontmatter. */
  let packCards: RiteCard[] = [];
  beforeAll(async () => {
    const loaded = await loadRiteCards(PACK);
    expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    packCards = loaded.cards;
  });

  it("load cleanly, one per routable rite, each with six or more positives and some negatives", () => {
    expect(diagnostics).toEqual([]);
    expect(corpora.map((c) => c.rite)).toEqual(RITES);
    for (const c of corpora) {
      expect(c.positive.length).toBeGreaterThanOrEqual(6);
      expect(c.negative.length).toBeGreaterThanOrEqual(1);
    }
  });

  it("route with an overall accuracy of at least 0.9 (the regression gate)", () => {
    expect(packCards.map((c) => c.name)).toEqual(RITES);
    const report = evaluateCorpora(corpora, packCards);
    const failures = report.rites.flatMap((r) =>
      r.failures.map((f) => `${r.rite} ${f.kind} "${f.text}" → ${f.got.rite} (${f.got.reason})`),
    );
    expect(report.total).toBeGreaterThanOrEqual(100);
    expect(report.accuracy, failures.join("\n")).toBeGreaterThanOrEqual(0.9);
    for (const r of report.rites)
      expect(r.accuracy, `${r.rite}\n${failures.join("\n")}`).toBeGreaterThanOrEqual(0.75);
  });
});

describe("fixture hints (the router unit tests' cards)", () => {
  it("obey the pack's hint rules (lowercase, trimmed, each on one rite only) and cover every rite", () => {
    const owner = new Map<string, string>();
    for (const [rite, hints] of Object.entries(PROPOSED_HINTS)) {
      expect(RITES).toContain(rite);
      for (const h of hints) {
        expect(h).toBe(h.trim().toLowerCase());
        expect(owner.get(h) ?? rite, `${h} is on ${owner.get(h)} and ${rite}`).toBe(rite);
        owner.set(h, rite);
      }
    }
    expect(Object.keys(PROPOSED_HINTS).sort()).toEqual(RITES);
  });
});

describe("cardsFromPack", () => {
  const skill = (name: string, phase?: "build", hints = ["x"]) => ({
    name,
    description: `d ${name}`,
    devrites: { dispatches: [], route: { hints }, ...(phase ? { phase } : {}) },
  });
  it("takes the rite skills only, the menu first, with phase and hints", () => {
    const cards = cardsFromPack({
      skills: [
        skill("rite-build", "build", ["build"]),
        skill("helper"),
        skill("rite"),
        skill("rites-x"),
      ] as never,
    });
    expect(cards).toEqual([
      { name: "rite", description: "d rite", hints: ["x"] },
      { name: "rite-build", description: "d rite-build", hints: ["build"], phase: "build" },
    ]);
  });
});

describe("judgeCase", () => {
  const corpus = { rite: "rite-ship" };
  it("passes a positive only on a real route to the rite", () => {
    expect(judgeCase(corpus, { text: "ship it" }, "positive", CARDS).pass).toBe(true);
    expect(judgeCase(corpus, { text: "maybe ship", active: "rite-build" }, "positive", CARDS).pass).toBe(
      false,
    );
  });
  it("passes a negative on any other route or a clarifying question, and checks `expect`", () => {
    expect(judgeCase(corpus, { text: "run the tests" }, "negative", CARDS).pass).toBe(true);
    expect(judgeCase(corpus, { text: "ship it" }, "negative", CARDS).pass).toBe(false);
    expect(judgeCase(corpus, { text: "run the tests", expect: "rite-prove" }, "negative", CARDS).pass).toBe(
      true,
    );
    expect(judgeCase(corpus, { text: "run the tests", expect: "rite-review" }, "negative", CARDS).pass).toBe(
      false,
    );
    const weak = { text: "maybe ship", active: "rite-build", expect: "clarify" };
    expect(judgeCase(corpus, weak, "negative", CARDS).pass).toBe(true);
    expect(judgeCase(corpus, { ...weak, text: "keep building" }, "negative", CARDS).pass).toBe(false);
  });
});

describe("loadCorpora", () => {
  it("reports an unreadable pack, invalid JSON, a bad shape and a misplaced corpus", () => {
    const dir = mkdtempSync(join(tmpdir(), "devrites-corpus-"));
    try {
      expect(loadCorpora(join(dir, "missing")).diagnostics.map((d) => d.code)).toEqual(["route.no-pack"]);
      const put = (rite: string, text: string) => {
        mkdirSync(join(dir, "skills", rite), { recursive: true });
        writeFileSync(join(dir, "skills", rite, "routing.json"), text);
      };
      const six = Array.from({ length: 6 }, (_, i) => ({ text: `p${i}` }));
      put("rite-a", "{");
      put(
        "rite-b",
        JSON.stringify({
          schema: "devrites-routing/v1",
          rite: "rite-b",
          positive: six.slice(1),
          negative: [{ text: "n" }],
        }),
      );
      put(
        "rite-c",
        JSON.stringify({
          schema: "devrites-routing/v1",
          rite: "rite-d",
          positive: six,
          negative: [{ text: "n" }],
        }),
      );
      put(
        "rite-e",
        JSON.stringify({
          schema: "devrites-routing/v1",
          rite: "rite-e",
          positive: six,
          negative: [{ text: "n" }],
        }),
      );
      mkdirSync(join(dir, "skills", "not-routable"));
      const { corpora, diagnostics } = loadCorpora(dir);
      expect(corpora.map((c) => c.rite)).toEqual(["rite-e"]);
      expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
        ["route.corpus-invalid", "skills/rite-a/routing.json"],
        ["route.corpus-invalid", "skills/rite-b/routing.json"],
        ["route.corpus-misplaced", "skills/rite-c/routing.json"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
