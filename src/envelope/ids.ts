import { randomBytes } from "node:crypto";
import { FORMATS } from "./formats.js";
import type { RoleName } from "./roles.js";
import type { RunId } from "./types.js";

/**
 * Every identifier devrites mints, and the patterns that recognise them. The formats come from `FORMATS`
 * (one source for the types' patterns, zod and these). Timestamps are UTC to the second; the random tail
 * keeps two ids minted in the same second apart.
 */

const re = (f: { pattern: string }) => new RegExp(f.pattern, "u");
/** `run-` + UTC timestamp to the second + `-` + 8 lowercase hex characters. */
export const RUN_ID_PATTERN = re(FORMATS.runId);
export const JOURNEY_ID_RE = re(FORMATS.journeyId);
export const QID_RE = re(FORMATS.questionId);
export const DECISION_ID_RE = re(FORMATS.decisionId);
/** `<rite>/<actor>#<n>`: a leaf role or `human`. */
export const STEP_ID_RE = re(FORMATS.journeyStepId);
/** The rite name form (`rite-build`, `rite-quick-fix`). */
export const RITE_PATTERN = /^rite(-[a-z0-9]+)*$/;

export function isRunId(x: unknown): x is RunId {
  return typeof x === "string" && RUN_ID_PATTERN.test(x);
}

/** `20261129T221500Z` from a date or an ISO timestamp. */
function compactStamp(now: Date | string): string {
  return (typeof now === "string" ? new Date(now) : now)
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/[-:]/g, "");
}

/** 4 bytes of entropy as 8 hex characters; anything else is a programming error. */
function tail(random: Uint8Array): string {
  if (random.length !== 4) throw new RangeError("an id needs exactly 4 random bytes");
  return Buffer.from(random).toString("hex");
}

/** A fresh run id for `now`. */
export function newRunId(now: Date | string, random: Uint8Array = randomBytes(4)): RunId {
  return `run-${compactStamp(now)}-${tail(random)}`;
}

/** A fresh journey id for `now`. */
export function newJourneyId(now: Date | string, random: Uint8Array = randomBytes(4)): string {
  return `j-${compactStamp(now)}-${tail(random)}`;
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
    const rest = id.slice(head.length);
    if (!/^[0-9]+$/.test(rest)) continue;
    max = Math.max(max, Number(rest));
  }
  return `${head}${String(max + 1).padStart(3, "0")}`;
}

/** Composite step id `<rite>/<role>#<n>`. */
export function stepId(rite: string, role: RoleName, n: number): string {
  return `${rite}/${role}#${n}`;
}

/**
 * The next step number for `rite` + `role`: one more than the highest number already used by any known
 * step id (active runs and packets on disk), so numbers are never reused within a workspace.
 */
export function nextStepNumber(rite: string, role: RoleName, knownStepIds: Iterable<string>): number {
  const prefix = `${rite}/${role}#`;
  let max = 0;
  for (const id of knownStepIds) {
    if (!id.startsWith(prefix)) continue;
    const rest = id.slice(prefix.length);
    if (!/^[0-9]{1,9}$/.test(rest)) continue;
    max = Math.max(max, Number(rest));
  }
  return max + 1;
}
