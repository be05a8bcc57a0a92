/** The router's data: rite cards in, a routing decision out. */

/** What the router knows of a rite: its name, one-line description, route hints and lifecycle phase. */
export interface RiteCard {
  /** e.g. `rite-build`. */
  name: string;
  description: string;
  /** Phrases that suggest this rite (from the rite's frontmatter `devrites.route.hints`). */
  hints: string[];
  /** The lifecycle phase the rite drives; absent for rites that change nothing (menu, status, resolve). */
  phase?: string;
}

/** Where the journey stands, as far as routing cares. */
export interface RouteState {
  active_rite: string | null;
  phase?: string | null;
}

/**
 * Why the router chose the rite:
 * - `matched`: the text names or clearly describes it;
 * - `active`: no clear shift, so the journey stays in the active rite;
 * - `first`: no evidence and no journey: the first card (the menu, which runs nothing);
 * - `clarify`: the evidence is ambiguous or too weak to leave the active rite — ask `question` before
 *   doing anything; `rite` is then the safe place to ask from (active, else first), never a guess.
 */
export type RouteReason = "matched" | "active" | "first" | "clarify";

export interface RouteResult {
  /** Null only when there are no cards at all. */
  rite: string | null;
  reason: RouteReason;
  /** 0..1. */
  confidence: number;
  /** The clarifying question, with `clarify`. */
  question?: string;
  /** The rites in contention, best first, with their scores (for `--json` and the eval report). */
  candidates?: { rite: string; score: number }[];
}

/** One phrasing, optionally said while a journey is in a rite. */
export interface RoutingCase {
  /** @minLength 1 */
  text: string;
  /** The active rite when the phrase is said (null or absent: no journey). */
  active?: string | null;
}

/** A phrasing that must not route to the corpus's rite. */
export interface NegativeCase extends RoutingCase {
  /** Where it must go instead: a rite name, or `clarify` (the router must ask). Absent: anywhere else. */
  expect?: string;
}

/** `routing.json` next to a rite's SKILL.md. */
export interface RoutingCorpus {
  schema: "devrites-routing/v1";
  /**
   * The rite this corpus guards (its folder name).
   * @pattern ^rite(-[a-z0-9]+)*$
   */
  rite: string;
  /**
   * Phrasings that must route here (at least six).
   * @minItems 6
   */
  positive: RoutingCase[];
  /**
   * Phrasings that must not route here.
   * @minItems 1
   */
  negative: NegativeCase[];
}
