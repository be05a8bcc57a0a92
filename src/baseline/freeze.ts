import type { Baseline } from "../envelope/types.js";
import { baselineId, manifestDigest } from "./digest.js";
import { describePaths, entriesFor, snapshotTree } from "./snapshot.js";
import type { ManifestEntry, TreeSnapshot } from "./types.js";

/**
 * Freeze the candidate: HEAD, the digest of the dirty manifest, and the digest of the touched paths (the
 * packet's allowlist and inputs, missing ones included). The snapshot is returned for `baseline.json`.
 */
export async function freezeBaseline(
  root: string,
  touchedPaths: readonly string[],
): Promise<{ baseline: Baseline; snapshot: TreeSnapshot; dirty: ManifestEntry[] }> {
  const snapshot = await snapshotTree(root);
  const dirty = entriesFor(snapshot, touchedPaths);
  const dirty_sha256 = manifestDigest(dirty);
  const touched_sha256 = manifestDigest(await describePaths(root, touchedPaths));
  const id = baselineId(snapshot.head, dirty_sha256, touched_sha256);
  return { baseline: { id, head: snapshot.head, dirty_sha256, touched_sha256 }, snapshot, dirty };
}
