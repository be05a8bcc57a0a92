export { diffSnapshots } from "./diff.js";
export { BASELINE_VERSION, baselineId, MANIFEST_VERSION, manifestDigest } from "./digest.js";
export { absoluteGitDir, findRepoRoot } from "./find-repo-root.js";
export { freezeBaseline } from "./freeze.js";
export { describePaths, entriesFor, snapshotTree } from "./snapshot.js";
export type { EntryType, ManifestEntry, TreeChange, TreeSnapshot } from "./types.js";
