/**
 * The sidecar manifest `.devrites-generated.json` of an owned-file root: every file devrites wrote there, with
 * its SHA-256. It tells a reader that the JSON files beside it are generated (JSON has no comments), lets
 * `check` tell a hand edit from a stale file, and lists what a later plan no longer produces (orphans).
 */

import { sha256Hex } from "../core/hash.js";
import { GENERATED_NOTE, jsonText } from "./headers.js";
import type { PlannedFile } from "./types.js";

export const MANIFEST_NAME = ".devrites-generated.json";
export const MANIFEST_SCHEMA = "devrites-generated/v1";

export interface ManifestEntry {
  /** Path relative to the root. */
  path: string;
  sha256: string;
}

export interface GeneratedManifest {
  schema: typeof MANIFEST_SCHEMA;
  note: string;
  files: ManifestEntry[];
}

/** The manifest of `root` listing `files` (the owned files of that root; target-relative paths). */
export function manifestFile(root: string, files: readonly PlannedFile[]): PlannedFile {
  const entries = files
    .filter((f) => f.kind === "owned" && f.root === root)
    .map((f) => ({ path: f.path.slice(root.length + 1), sha256: sha256Hex(f.content) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest: GeneratedManifest = { schema: MANIFEST_SCHEMA, note: GENERATED_NOTE, files: entries };
  return { path: `${root}/${MANIFEST_NAME}`, content: jsonText(manifest), mode: 0o644, kind: "owned", root };
}

/**
 * Read a manifest back. Entries are untrusted: their paths still go through `outputPath` before anything uses
 * them. Returns undefined when the text is not a manifest of this schema.
 */
export function parseManifest(text: string): ManifestEntry[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Partial<GeneratedManifest>;
  if (m.schema !== MANIFEST_SCHEMA || !Array.isArray(m.files)) return undefined;
  const out: ManifestEntry[] = [];
  for (const e of m.files as unknown[]) {
    if (typeof e !== "object" || e === null) return undefined;
    const { path, sha256 } = e as Partial<ManifestEntry>;
    if (typeof path !== "string" || typeof sha256 !== "string") return undefined;
    out.push({ path, sha256 });
  }
  return out;
}
