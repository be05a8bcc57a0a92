import { randomBytes } from "node:crypto";
import { FORMATS } from "../envelope/zod.js";

/**
 * Identifiers of the workspace: minting here, the formats in `FORMATS` (one source for the types' patterns,
 * zod and these). Timestamps are UTC; the random tail keeps two ids minted in the same second apart.
 */

const re = (f: { pattern: string }) => new RegExp(f.pattern, "u");
export const RUN_ID_RE = re(FORMATS.runId);
export const JOURNEY_ID_RE = re(FORMATS.journeyId);
export const QID_RE = re(FORMATS.questionId);
export const DECISION_ID_RE = re(FORMATS.decisionId);
/** `<rite>/<actor>#<n>`: a leaf role or `human`. */
export const STEP_ID_RE = re(FORMATS.journeyStepId);

/** `20261129T221500Z` from an ISO timestamp. */
function compactStamp(iso: string): string {
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

export function newRunId(now: string, hex: string = randomBytes(4).toString("hex")): string {
  return `run-${compactStamp(now)}-${hex}`;
}

export function newJourneyId(now: string, hex: string = randomBytes(4).toString("hex")): string {
  return `j-${compactStamp(now)}-${hex}`;
}

/**
 * The next sequential id for a day: `<prefix>-YYYYMMDD-NNN`, one more than the highest id already used that
 * day (ids of other days and malformed ids are ignored).
 */
export function nextDailyId(prefix: "q" | "d", existing: Iterable<string>, now: string): string {
  const day = `${now.slice(0, 4)}${now.slice(5, 7)}${now.slice(8, 10)}`;
  const head = `${prefix}-${day}-`;
  let max = 0;
  for (const id of existing) {
    if (!id.startsWith(head)) continue;
    const tail = id.slice(head.length);
    if (!/^[0-9]+$/.test(tail)) continue;
    max = Math.max(max, Number(tail));
  }
  return `${head}${String(max + 1).padStart(3, "0")}`;
}
