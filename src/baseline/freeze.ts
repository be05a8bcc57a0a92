import { join } from "node:path";
import type { Baseline } from "../envelope/types.js";
import { type StatMark, takeStatMark } from "./_settle.js";
import { baselineId, manifestDigest } from "./digest.js";
import { describePaths, entriesFor, snapshotTree } from "./snapshot.js";
import type { ManifestEntry, TreeSnapshot } from "./types.js";

/**
 * Freeze the candidate: HEAD, the digest of the dirty manifest, and the digest of the touched paths (the
 * packet's allowlist and inputs, missing ones included). The snapshot is returned for `baseline.json`, and
 * the mark taken before it read anything (`_settle.ts`) for the run's anchor.
 */
export async function freezeBaseline(
  root: string,
  touchedPaths: readonly string[],
): Promise<{ baseline: Baseline; snapshot: TreeSnapshot; dirty: ManifestEntry[]; mark?: StatMark }> {
  const mark = takeStatMark(root, join(root, ".devrites"));
  const snapshot = await snapshotTree(root);
  const dirty = entriesFor(snapshot, touchedPaths);
  const dirty_sha256 = manifestDigest(dirty);
  const touched_sha256 = manifestDigest(await describePaths(root, touchedPaths));
  const id = baselineId(snapshot.head, dirty_sha256, touched_sha256);
  return {
    baseline: { id, head: snapshot.head, dirty_sha256, touched_sha256 },
    snapshot,
    dirty,
    ...(mark && snapshot.head !== "no-git" ? { mark } : {}),
  };
}
