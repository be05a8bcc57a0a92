import { compareBytes } from "./_paths.js";
import type { ManifestEntry, TreeChange, TreeSnapshot } from "./types.js";

/**
 * Paths whose dirty records differ between two snapshots, sorted by path bytes. `null` on a side means the
 * path was not dirty there (same as HEAD), so a file reverted to its committed content shows `after: null`.
 * Only meaningful for snapshots at the same `head`; callers compare heads first.
 */
export function diffSnapshots(before: TreeSnapshot, after: TreeSnapshot): TreeChange[] {
  // The common case when a wave of results is checked: nothing changed, record for record.
  if (sameList(before.entries, after.entries)) return [];
  const b = byPath(before.entries);
  const a = byPath(after.entries);
  const paths = new Set([...b.keys(), ...a.keys()]);
  const changes: TreeChange[] = [];
  for (const path of paths) {
    const x = b.get(path) ?? null;
    const y = a.get(path) ?? null;
    if (!sameEntry(x, y)) changes.push({ path, before: x, after: y });
  }
  return changes.sort((p, q) => compareBytes(p.path, q.path));
}

function byPath(entries: readonly ManifestEntry[]): Map<string, ManifestEntry> {
  return new Map(entries.map((e) => [e.path, e]));
}

function sameEntry(x: ManifestEntry | null, y: ManifestEntry | null): boolean {
  if (x === null || y === null) return x === y;
  return x.type === y.type && x.exec === y.exec && x.sha256 === y.sha256;
}

/** The same records in the same order (then both sides map every path to the same record). */
function sameList(x: readonly ManifestEntry[], y: readonly ManifestEntry[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const a = x[i]!;
    const b = y[i]!;
    if (a.path !== b.path || !sameEntry(a, b)) return false;
  }
  return true;
}
