export { checkAllowlist, isAllowlisted } from "./allowlist.js";
export { checkRepoPath } from "./check-repo-path.js";
export { resolveHostPath, resolveRepoPath } from "./resolve-repo-path.js";
export { toRepoPath } from "./to-repo-path.js";
export { MAX_PATH_BYTES, type ScopeCheck, type ScopeRule, type ScopeViolation } from "./types.js";
