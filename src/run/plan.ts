/**
 * Dispatch planning (pure). Packets are grouped into waves that may run at the same time:
 *
 * - a wave holds at most three read-only packets (ADR-0010: bounded fan-out on one frozen candidate);
 * - two packets whose scopes overlap never share a wave, and keep their relative order;
 * - a writer runs alone, and is a barrier: nothing before it may run after it, nothing after it before it.
 *
 * Why a writer never shares a wave even with readers of other paths: a read-only result is judged against
 * the baseline of the whole dirty tree, so any concurrent write would make every reader's result stale.
 */

import type { RoleMode } from "../envelope/roles.js";

export const MAX_READERS_PER_WAVE = 3;

export interface PlanItem {
  /** Read-only or writer. */
  mode: RoleMode;
  /** The packet's `scope.in` and `inputs[].path`. Empty means the whole repository. */
  paths: readonly string[];
}

/** A path with `./`, duplicate and trailing slashes removed; `""` stands for the repository root. */
export function normalizeScopePath(p: string): string {
  const segments = p
    .replaceAll("\\", "/")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  return segments.join("/");
}

/** True when one path is the other or lies under it (by whole segments: `src/a` does not cover `src/ab`). */
export function pathsOverlap(a: string, b: string): boolean {
  const x = normalizeScopePath(a);
  const y = normalizeScopePath(b);
  if (x === "" || y === "") return true;
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}

/** Two scopes overlap when any of their paths do; an empty scope is the whole repository. */
export function scopesOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  return a.some((x) => b.some((y) => pathsOverlap(x, y)));
}

/**
 * Group items into waves (each wave is a list of indexes into `items`, in input order). Readers are placed
 * greedily into the earliest wave after the last writer, after every wave holding an overlapping reader,
 * that still has room.
 */
export function planWaves(items: readonly PlanItem[], maxReaders: number = MAX_READERS_PER_WAVE): number[][] {
  const cap = Math.max(1, Math.floor(maxReaders));
  const waves: number[][] = [];
  let segmentStart = 0; // first wave after the last writer barrier
  items.forEach((item, i) => {
    if (item.mode === "writer") {
      waves.push([i]);
      segmentStart = waves.length;
      return;
    }
    let earliest = segmentStart;
    for (let w = segmentStart; w < waves.length; w++) {
      if ((waves[w] ?? []).some((j) => scopesOverlap(items[j]?.paths ?? [], item.paths))) earliest = w + 1;
    }
    let placed = false;
    for (let w = earliest; w < waves.length; w++) {
      const wave = waves[w];
      if (wave && wave.length < cap) {
        wave.push(i);
        placed = true;
        break;
      }
    }
    if (!placed) waves.push([i]);
  });
  return waves;
}
