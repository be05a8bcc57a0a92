import { randomBytes } from "node:crypto";

/**
 * Identifier formats of the workspace, in one place. Timestamps are UTC; the random tail keeps two ids minted
 * in the same second apart.
 */

export const RUN_ID_RE = /^run-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/;
export const JOURNEY_ID_RE = /^j-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/;
export const QID_RE = /^q-[0-9]{8}-[0-9]{3,}$/;
export const DECISION_ID_RE = /^d-[0-9]{8}-[0-9]{3,}$/;
/** `<rite>/<actor>#<n>`: a leaf role or `human`. */
export const STEP_ID_RE = /^rite(-[a-z0-9]+)*\/[a-z0-9][a-z0-9-]*#[1-9][0-9]*$/;
export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

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
