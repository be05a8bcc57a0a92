import type { Baseline } from "../envelope/types.js";
import { baselineId, manifestDigest } from "./digest.js";
import { describePaths, snapshotTree } from "./snapshot.js";
import type { TreeSnapshot } from "./types.js";

/**
 * Freeze the candidate: HEAD, the digest of the dirty manifest, and the digest of the touched paths (the
 * packet's allowlist and inputs, missing ones included). The snapshot is returned for `baseline.json`.
 */
export async function freezeBaseline(
  root: string,
  touchedPaths: readonly string[],
): Promise<{ baseline: Baseline; snapshot: TreeSnapshot }> {
  const snapshot = await snapshotTree(root);
  const dirty_sha256 = manifestDigest(snapshot.entries);
  const touched_sha256 = manifestDigest(await describePaths(root, touchedPaths));
  const id = baselineId(snapshot.head, dirty_sha256, touched_sha256);
  return { baseline: { id, head: snapshot.head, dirty_sha256, touched_sha256 }, snapshot };
}
