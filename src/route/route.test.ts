import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIXTURE_CARDS as CARDS } from "./fixtures.js";
import { cardScore, explicitRites, hintScore, route, toRequest } from "./route.js";
import { requestTokens, stem, words } from "./text.js";
import type { RiteCard } from "./types.js";

const idle = { active_rite: null };
const inRite = (r: string) => ({ active_rite: r, phase: CARDS.find((c) => c.name === r)?.phase ?? null });

describe("text", () => {
  it("folds case, accents and apostrophes", () => {
    expect(words("What's NEXT? Café-rite_build")).toEqual(["whats", "next", "cafe", "rite", "build"]);
  });
  it("stems inflections together", () => {
    for (const [a, b] of [
      ["shipping", "ship"],
      ["shipped", "ships"],
      ["releases", "release"],
      ["released", "releasing"],
      ["fixes", "fix"],
      ["planned", "plan"],
      ["tests", "testing"],
    ])
      expect(stem(a as string)).toBe(stem(b as string));
    expect(stem("status")).toBe("status");
    expect(stem("progress")).toBe("progress");
  });
  it("masks the words a negation governs", () => {
    expect(requestTokens("don't ship it yet")).toEqual(["\u0000", "\u0000", "it", "\u0000"]);
    expect(requestTokens("ship it")).toEqual(["ship", "it"]);
  });
});

describe("scoring", () => {
  it("counts an in-order hint fully, scattered content words less, missing words not at all", () => {
    expect(hintScore(toRequest("please run the tests"), "run the tests")).toBe(1.6);
    expect(hintScore(toRequest("please run all tests"), "run the tests")).toBeCloseTo(1.44);
    expect(hintScore(toRequest("tests: please run them"), "run the tests")).toBeCloseTo(1.12);
    expect(hintScore(toRequest("please run"), "run the tests")).toBe(0);
  });
  it("weighs a hint that starts at the request's first content word half again", () => {
    expect(hintScore(toRequest("implement the spec"), "implement")).toBe(1.5);
    expect(hintScore(toRequest("implement the spec"), "spec")).toBe(1);
  });
  it("adds half of every further matching hint", () => {
    const card: RiteCard = { name: "rite-x", description: "", hints: ["alpha", "beta", "gamma"] };
    expect(cardScore(toRequest("zeta alpha beta"), card)).toBe(1.5);
    expect(cardScore(toRequest("zeta"), card)).toBe(0);
  });
});

describe("explicitRites", () => {
  const names = CARDS.map((c) => c.name);
  it("finds slash, dollar and bare hyphenated invocations", () => {
    expect(explicitRites("/rite-build now", names)).toEqual(["rite-build"]);
    expect(explicitRites("use $rite-ship", names)).toEqual(["rite-ship"]);
    expect(explicitRites("run rite-prove then /rite-review", names)).toEqual(["rite-prove", "rite-review"]);
    expect(explicitRites("/rite", names)).toEqual(["rite"]);
  });
  it("ignores unknown rites, longer names and the bare word rite", () => {
    expect(explicitRites("/rite-unknown", names)).toEqual([]);
    expect(explicitRites("rite-builder", names)).toEqual([]);
    expect(explicitRites("a rite of passage", names)).toEqual([]);
  });
});

describe("route", () => {
  it("matches a clear request with no journey", () => {
    expect(route("implement the next slice", CARDS, idle)).toMatchObject({
      rite: "rite-build",
      reason: "matched",
    });
  });
  it("falls back to the first card (the menu) with no evidence and no journey", () => {
    expect(route("hmm", CARDS, idle)).toMatchObject({ rite: "rite", reason: "first", confidence: 0 });
  });
  it("starts the journey for an unmatched request that reads as work, with no journey", () => {
    expect(route("the invoice total is off by a cent", CARDS, idle)).toMatchObject({
      rite: "rite-spec",
      reason: "start",
      confidence: 0,
    });
  });
  it("leaves a short unmatched request with the menu", () => {
    // two content words: below WORK_MIN_WORDS
    expect(route("invoice totals", CARDS, idle)).toMatchObject({ rite: "rite", reason: "first" });
  });
  it("leaves an unmatched question with the menu", () => {
    expect(route("why is the invoice total off by a cent?", CARDS, idle)).toMatchObject({
      rite: "rite",
      reason: "first",
    });
  });
  it("stays in the active rite on an unmatched request that reads as work", () => {
    expect(route("the invoice total is off by a cent", CARDS, inRite("rite-build"))).toMatchObject({
      rite: "rite-build",
      reason: "active",
    });
  });
  it("falls back to the menu for work when no card starts the journey", () => {
    const noSpec = CARDS.filter((c) => c.phase !== "spec");
    expect(route("the invoice total is off by a cent", noSpec, idle)).toMatchObject({
      rite: "rite",
      reason: "first",
    });
  });
  it("stays in the active rite on no evidence", () => {
    expect(route("yes, go on", CARDS, inRite("rite-build"))).toMatchObject({
      rite: "rite-build",
      reason: "active",
    });
  });
  it("stays on weak evidence for another rite and asks instead of switching", () => {
    const r = route("maybe we should ship at some point", CARDS, inRite("rite-build"));
    expect(r).toMatchObject({ rite: "rite-build", reason: "clarify" });
    expect(r.question).toContain("rite-ship");
    expect(r.question).toContain("You are in rite-build, phase build");
  });
  it("leaves the active rite when the intent clearly shifts", () => {
    expect(route("run the tests", CARDS, inRite("rite-build"))).toMatchObject({
      rite: "rite-prove",
      reason: "matched",
    });
  });
  it("keeps the active rite when it leads", () => {
    expect(route("keep building, then we ship", CARDS, inRite("rite-build"))).toMatchObject({
      rite: "rite-build",
      reason: "matched",
    });
  });
  it("asks when two rites tie, from a rite that writes nothing", () => {
    const r = route("thinking about review or release", CARDS, idle);
    expect(r).toMatchObject({ rite: "rite", reason: "clarify" });
    expect(r.question).toMatch(/rite-review .* or rite-ship|rite-ship .* or rite-review/);
  });
  it("obeys an explicit invocation, even mid-journey", () => {
    expect(route("/rite-ship", CARDS, inRite("rite-build"))).toMatchObject({
      rite: "rite-ship",
      reason: "matched",
      confidence: 1,
    });
  });
  it("asks when two rites are invoked", () => {
    expect(route("/rite-ship or /rite-review?", CARDS, inRite("rite-build"))).toMatchObject({
      rite: "rite-build",
      reason: "clarify",
    });
  });
  it("ignores an active rite that is not among the cards", () => {
    expect(route("hmm", CARDS, { active_rite: "rite-gone" })).toMatchObject({
      rite: "rite",
      reason: "first",
    });
  });
  it("answers with a question, not a rite, when there are no cards", () => {
    expect(route("build it", [], idle)).toMatchObject({ rite: null, reason: "clarify" });
  });

  // Requests made of the hints' own words (and some noise), so that the rules about matches are exercised.
  const vocab = [...new Set(CARDS.flatMap((c) => c.hints.flatMap((h) => h.split(" "))))];
  const phrase = fc
    .array(fc.oneof(fc.constantFrom(...vocab, "not", "don't", "/rite-build", "$rite-ship"), fc.string()), {
      maxLength: 8,
    })
    .map((ws) => ws.join(" "));

  it("property: never throws, and always answers a known rite (or null with no cards) for any text", () => {
    const state = fc.option(
      fc.record({
        active_rite: fc.option(fc.constantFrom(...CARDS.map((c) => c.name), "rite-x"), { nil: null }),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), phrase),
        state,
        (text, st) => {
          const r = route(text, CARDS, st);
          expect(CARDS.map((c) => c.name)).toContain(r.rite);
          expect(["matched", "active", "start", "first", "clarify"]).toContain(r.reason);
          expect(r.confidence).toBeGreaterThanOrEqual(0);
          expect(r.confidence).toBeLessThanOrEqual(1);
          if (r.reason === "clarify") expect(r.question).toBeTruthy();
          // Sticky: mid-journey, a switch only happens on a match.
          if (st?.active_rite && CARDS.some((c) => c.name === st.active_rite) && r.rite !== st.active_rite)
            expect(r.reason).toBe("matched");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("property: never throws on arbitrary values for every argument", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (text, cards, state) => {
        const r = route(text as string, cards as RiteCard[], state as never);
        expect(["matched", "active", "start", "first", "clarify"]).toContain(r.reason);
      }),
      { numRuns: 500 },
    );
  });

  it("property: cards with hostile hints do not break it", () => {
    const card = fc.record({
      name: fc.string(),
      description: fc.anything(),
      hints: fc.oneof(fc.array(fc.anything()), fc.anything()),
      phase: fc.option(fc.string(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.string(), fc.array(card, { maxLength: 5 }), (text, cards) => {
        const r = route(text, cards as RiteCard[], { active_rite: cards[0]?.name ?? null });
        if (cards.some((c) => c.name !== "")) expect(r.rite).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
