export { VERIFY_MARGIN_S } from "./_index-verify.js";
export { isStatMark, type StatMark } from "./_settle.js";
export { diffSnapshots } from "./diff.js";
export { BASELINE_VERSION, baselineId, MANIFEST_VERSION, manifestDigest } from "./digest.js";
export { absoluteGitDir, findRepoRoot } from "./find-repo-root.js";
export { freezeBaseline } from "./freeze.js";
export type { SnapshotOptions } from "./snapshot.js";
export { describePaths, entriesFor, snapshotTree } from "./snapshot.js";
export type { EntryType, ManifestEntry, TreeChange, TreeSnapshot } from "./types.js";
