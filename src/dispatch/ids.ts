import type { RoleName } from "../envelope/roles.js";
import type { RunId } from "../envelope/types.js";

/** The `RunId` format: `run-` + UTC timestamp to the second + `-` + 8 lowercase hex characters. */
export const RUN_ID_PATTERN = /^run-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/;

export function isRunId(x: unknown): x is RunId {
  return typeof x === "string" && RUN_ID_PATTERN.test(x);
}

/**
 * A fresh run id for `now`. `random` must be 4 bytes of entropy (8 hex characters); it keeps two packets
 * written in the same second apart.
 */
export function newRunId(now: Date, random: Uint8Array): RunId {
  if (random.length !== 4) throw new RangeError("newRunId needs exactly 4 random bytes");
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/[-:]/g, "");
  return `run-${stamp}-${Buffer.from(random).toString("hex")}`;
}

/** The rite name form (`rite-build`, `rite-quick-fix`). */
export const RITE_PATTERN = /^rite(-[a-z0-9]+)*$/;

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
