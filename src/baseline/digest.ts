import { createHash } from "node:crypto";
import { lengthPrefixed } from "../core/hash.js";
import type { ManifestEntry } from "./types.js";

export const MANIFEST_VERSION = "devrites-manifest/v1";
export const BASELINE_VERSION = "devrites-baseline/v1";

/**
 * SHA-256 over `len(MANIFEST_VERSION) MANIFEST_VERSION` followed, for each entry in path-byte order, by the four
 * length-prefixed fields `path`, `type`, `exec` (`1`/`0`) and `sha256` (empty for null). Every field carries an
 * 8-byte big-endian length, so no two manifests collide by concatenation. Input order does not matter.
 */
export function manifestDigest(entries: readonly ManifestEntry[]): string {
  const records = entries.map((e) => ({
    path: Buffer.from(e.path, "utf8"),
    bytes: lengthPrefixed([e.path, e.type, e.exec ? "1" : "0", e.sha256 ?? ""]),
  }));
  // Ties (the same path twice) are ordered by their record bytes so the digest never depends on input order.
  records.sort((a, b) => Buffer.compare(a.path, b.path) || Buffer.compare(a.bytes, b.bytes));
  const hash = createHash("sha256").update(lengthPrefixed([MANIFEST_VERSION]));
  for (const r of records) hash.update(r.bytes);
  return hash.digest("hex");
}

/** SHA-256 over length-prefixed `devrites-baseline/v1`, `head`, `dirty_sha256`, `touched_sha256`. */
export function baselineId(head: string, dirtySha256: string, touchedSha256: string): string {
  return createHash("sha256")
    .update(lengthPrefixed([BASELINE_VERSION, head, dirtySha256, touchedSha256]))
    .digest("hex");
}
