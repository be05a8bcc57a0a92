/**
 * The rite router (pure): one rite per turn.
 *
 * - An explicit invocation (`/rite-build`, `$rite-build`, `rite-build`) wins.
 * - Otherwise each card is scored by its route hints: a hint whose words appear in order counts fully, one
 *   whose content words all appear in another order counts less; longer hints count more; negated words
 *   (`don't ship`) count for nothing.
 * - A hint that starts at the request's first content word (its verb, usually: "implement the spec") counts
 *   half again: the action of a request outranks the things it mentions.
 * - Sticky: with an active rite, the journey stays there unless another rite is clearly ahead with more than
 *   a single word of evidence. Evidence in between becomes a clarifying question — never a switch.
 * - With no journey and no evidence, a request that reads as work (at least `WORK_MIN_WORDS` content words,
 *   not a question: see `readsAsWork`) goes to the rite that starts the journey (the card whose phase is
 *   `START_PHASE`): it is reached only through the menu, so the user has asked devrites to do something, and
 *   the menu cannot do it. Anything shorter, or a question, stays with the menu.
 * - Fallback matched → active → start → first. Never throws: any internal failure answers the fallback.
 */

import { hintTokens, requestTokens, STOPWORDS } from "./text.js";
import type { RiteCard, RouteResult, RouteState } from "./types.js";

/** A full single-word hint. Below this there is no match, only a hint of one. */
export const MIN_MATCH = 1;
/** What it takes to leave the active rite: more than one plain word of evidence. */
export const SWITCH_MATCH = 1.5;
/** Multiplier for a hint that starts at the request's first content word. */
export const LEAD_BONUS = 1.5;
/** The leader must be at least this many times the runner-up, and this far ahead. */
export const LEAD_RATIO = 1.5;
export const LEAD_GAP = 0.5;
/** Content words it takes for an unmatched request to read as work (`hmm`, `yes, go on` do not). */
export const WORK_MIN_WORDS = 3;
/** The phase of the rite an unmatched piece of work starts in. */
export const START_PHASE = "spec";
/** First words that make a request a question, which the menu answers or asks about, never a rite's work. */
const QUESTION_WORDS = new Set(["what", "why", "who", "whom", "whose", "where", "when", "which", "how"]);

/**
 * Whether an unmatched request reads as a piece of work: enough content words, and not opening with a
 * question word. ("could the dashboard remember my filters?" is a request; "how does this work?" is not.)
 */
export function readsAsWork(req: Request): boolean {
  return req.content.length >= WORK_MIN_WORDS && !QUESTION_WORDS.has(req.tokens[0] ?? "");
}

const EXPLICIT = /(?:^|[^a-z0-9-])[/$]?(rite(?:-[a-z0-9]+)*)(?![a-z0-9-])/g;

/** Rite names invoked explicitly in the text: `/rite-x` or `$rite-x` anywhere, or a bare hyphenated `rite-x`. */
export function explicitRites(text: string, names: readonly string[]): string[] {
  const found: string[] = [];
  const lower = text.slice(0, 2000).toLowerCase();
  for (const m of lower.matchAll(EXPLICIT)) {
    const name = m[1] ?? "";
    const prefixed = /[/$]$/.test(m[0].slice(0, m[0].length - name.length));
    if (!names.includes(name)) continue;
    if (name === "rite" && !prefixed) continue; // the bare word "rite" is not an invocation
    if (!found.includes(name)) found.push(name);
  }
  return found;
}

function containsInOrder(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > hay.length) return false;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** A request as the scorer sees it: all stemmed tokens, and the same without stopwords. */
export interface Request {
  tokens: string[];
  content: string[];
}

export function toRequest(text: string): Request {
  const tokens = requestTokens(text);
  return { tokens, content: tokens.filter((t) => !STOPWORDS.has(t)) };
}

/**
 * The score of one hint: `1 + 0.6` per extra content word when its words appear in order; 90% of that when
 * only its content words do (stopwords aside); 70% when they all appear in another order.
 */
export function hintScore(req: Request, hint: string): number {
  const h = hintTokens(hint);
  const content = h.filter((t) => !STOPWORDS.has(t));
  if (h.length === 0) return 0;
  const base = 1 + 0.6 * (Math.max(1, content.length) - 1);
  const weight = content.length > 0 && content[0] === req.content[0] ? base * LEAD_BONUS : base;
  if (containsInOrder(req.tokens, h)) return weight;
  if (content.length >= 2 && containsInOrder(req.content, content)) return weight * 0.9;
  if (content.length >= 2 && content.every((t) => req.content.includes(t))) return weight * 0.7;
  return 0;
}

/** A card's score: its best hint plus half of the others (more evidence helps, but cannot swamp). */
export function cardScore(req: Request, card: RiteCard): number {
  const hints = Array.isArray(card.hints) ? card.hints.filter((h): h is string => typeof h === "string") : [];
  const scores = hints.map((h) => hintScore(req, h)).filter((s) => s > 0);
  if (scores.length === 0) return 0;
  const max = Math.max(...scores);
  const sum = scores.reduce((a, b) => a + b, 0);
  return round(max + 0.5 * (sum - max));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function describe(card: RiteCard | undefined): string {
  if (!card) return "";
  const d = typeof card.description === "string" ? card.description.trim() : "";
  return d ? ` (${d.length > 80 ? `${d.slice(0, 77)}…` : d})` : "";
}

/** Route one request. Pure and total: never throws, whatever the input. */
export function route(
  text: string,
  cards: readonly RiteCard[],
  state: RouteState | null | undefined,
): RouteResult {
  let valid: RiteCard[] = [];
  let active: RiteCard | undefined;
  try {
    valid = (Array.isArray(cards) ? cards : []).filter(
      (c): c is RiteCard => !!c && typeof c === "object" && typeof c.name === "string" && c.name !== "",
    );
    active = valid.find((c) => c.name === state?.active_rite);
    return decide(typeof text === "string" ? text : String(text ?? ""), valid, active, state);
  } catch {
    const fallback = active ?? valid[0];
    return {
      rite: fallback?.name ?? null,
      reason: active ? "active" : fallback ? "first" : "clarify",
      confidence: 0,
    };
  }
}

function decide(
  text: string,
  cards: RiteCard[],
  active: RiteCard | undefined,
  state: RouteState | null | undefined,
): RouteResult {
  const first = cards[0];
  if (!first)
    return {
      rite: null,
      reason: "clarify",
      confidence: 0,
      question: "No rites are installed. Install the devrites pack, then try again.",
    };

  const explicit = explicitRites(
    text,
    cards.map((c) => c.name),
  );
  if (explicit.length === 1) return { rite: explicit[0] as string, reason: "matched", confidence: 1 };

  const req = toRequest(text);
  const ranked = cards
    .map((c, i) => ({ card: c, i, score: cardScore(req, c) }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const candidates = ranked.filter((r) => r.score > 0).map((r) => ({ rite: r.card.name, score: r.score }));
  const best = ranked[0] as (typeof ranked)[number];
  const second = ranked[1]?.score ?? 0;
  const confidence = round(best.score / (best.score + second + 1));
  const clearLead = best.score >= LEAD_RATIO * second && best.score - second >= LEAD_GAP;
  const home = active ?? first;
  const homeReason = active ? "active" : "first";

  if (explicit.length > 1)
    return {
      rite: home.name,
      reason: "clarify",
      confidence: 0,
      question: `You named ${explicit.join(" and ")}. Which one should run?`,
      candidates,
    };

  if (!active) {
    if (best.score >= MIN_MATCH && clearLead)
      return { rite: best.card.name, reason: "matched", confidence, candidates };
    if (best.score > 0) {
      const other = ranked[1] && ranked[1].score > 0 ? ranked[1].card : undefined;
      return {
        rite: home.name,
        reason: "clarify",
        confidence,
        question: other
          ? `Did you mean ${best.card.name}${describe(best.card)} or ${other.name}${describe(other)}?`
          : `Did you mean ${best.card.name}${describe(best.card)}?`,
        candidates,
      };
    }
    const start = cards.find((c) => c.phase === START_PHASE);
    if (start && readsAsWork(req)) return { rite: start.name, reason: "start", confidence: 0, candidates };
    return { rite: home.name, reason: homeReason, confidence: 0, candidates };
  }

  const activeScore = ranked.find((r) => r.card === active)?.score ?? 0;
  if (best.card === active || best.score <= activeScore) {
    return activeScore > 0
      ? { rite: active.name, reason: "matched", confidence, candidates }
      : { rite: active.name, reason: "active", confidence: 0.5, candidates };
  }
  if (best.score >= SWITCH_MATCH && clearLead)
    return { rite: best.card.name, reason: "matched", confidence, candidates };
  if (best.score >= MIN_MATCH) {
    const where = state?.phase ? `${active.name}, phase ${state.phase}` : active.name;
    return {
      rite: active.name,
      reason: "clarify",
      confidence,
      question: `You are in ${where}. Switch to ${best.card.name}${describe(best.card)}, or stay?`,
      candidates,
    };
  }
  return { rite: active.name, reason: "active", confidence: 0.5, candidates };
}
