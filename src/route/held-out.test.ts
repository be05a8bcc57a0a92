/**
 * Everyday requests on a held-out set (`tests/fixtures/routing/held-out.json`: bug reports, feature requests,
 * dependency upgrades, "plan it" requests, written apart from the rites' hints and routing corpora), routed with
 * no active rite. Prints the figure; fails below 85%, and fails if a held-out text has leaked into a corpus.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUNDLED_PACK, loadRiteCards } from "./cards.js";
import { route } from "./route.js";

interface Case {
  text: string;
  expected: string;
  kind: string;
}
const { cases } = JSON.parse(
  readFileSync(new URL("../../tests/fixtures/routing/held-out.json", import.meta.url), "utf8"),
) as { cases: Case[] };

describe("routing on the held-out everyday requests", () => {
  it("reaches the rite that does the work for at least 85% of them", async () => {
    const { cards } = await loadRiteCards(BUNDLED_PACK);
    const misses: string[] = [];
    const byKind = new Map<string, [number, number]>();
    for (const c of cases) {
      const r = route(c.text, cards, { active_rite: null, phase: null });
      const hit = r.rite === c.expected && r.reason !== "clarify";
      const k = byKind.get(c.kind) ?? [0, 0];
      byKind.set(c.kind, [k[0] + (hit ? 1 : 0), k[1] + 1]);
      if (!hit) misses.push(`"${c.text}" → ${r.rite} (${r.reason}), expected ${c.expected}`);
    }
    const hits = cases.length - misses.length;
    console.log(
      `held-out routing: ${hits}/${cases.length} (${((100 * hits) / cases.length).toFixed(0)}%); ${[...byKind]
        .map(([k, [h, n]]) => `${k} ${h}/${n}`)
        .join(", ")}${misses.length ? `\nmisses:\n  ${misses.join("\n  ")}` : ""}`,
    );
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(hits / cases.length).toBeGreaterThanOrEqual(0.85);
  });

  it("no held-out text is in a rite's routing corpus", () => {
    const corpora = [
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
    ]
      .map((r) =>
        readFileSync(
          new URL(`../../pack/.claude/skills/${r}/routing.json`, import.meta.url),
          "utf8",
        ).toLowerCase(),
      )
      .join("\n");
    const leaked = cases.filter((c) => corpora.includes(JSON.stringify(c.text.toLowerCase())));
    expect(leaked).toEqual([]);
  });
});
