/** The router's data: rite cards in, a routing decision out. */

import type { z } from "zod";
import type * as C from "./corpus.js";

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
 * - `start`: no evidence and no journey, but the request reads as work: the rite that starts the journey
 *   (its phase is `spec`), since the menu that asked cannot do the work itself;
 * - `first`: no evidence and no journey, and nothing that reads as work: the first card (the menu, which
 *   runs nothing);
 * - `clarify`: the evidence is ambiguous or too weak to leave the active rite — ask `question` before
 *   doing anything; `rite` is then the safe place to ask from (active, else first), never a guess.
 */

export type RouteReason = "matched" | "active" | "start" | "first" | "clarify";

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
export type RoutingCase = z.infer<typeof C.routingCorpusSchema>["positive"][number];

/** A phrasing that must not route to the corpus's rite. */
export type NegativeCase = z.infer<typeof C.routingCorpusSchema>["negative"][number];

/** `routing.json` next to a rite's SKILL.md (shape and documentation: `routingCorpusSchema` in `./corpus.ts`). */
export type RoutingCorpus = z.infer<typeof C.routingCorpusSchema>;
