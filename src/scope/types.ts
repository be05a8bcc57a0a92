/** Every reason the scope module can reject a path. Stable codes: scripts and the guard match on them. */
export type ScopeRule =
  | "scope.empty"
  | "scope.nul"
  | "scope.control-char"
  | "scope.too-long"
  | "scope.absolute"
  | "scope.drive"
  | "scope.unc"
  | "scope.backslash"
  | "scope.traversal"
  | "scope.dot-segment"
  | "scope.empty-segment"
  | "scope.trailing-slash"
  | "scope.git"
  | "scope.devrites"
  | "scope.glob"
  | "scope.outside-root"
  | "scope.symlink-escape"
  | "scope.not-a-file"
  | "scope.duplicate"
  | "scope.unresolvable";

/** Which rule rejected which input, why, and what to do instead. */
export interface ScopeViolation {
  rule: ScopeRule;
  /** The path exactly as it was given. */
  input: string;
  message: string;
  hint: string;
}

/** A canonical repository-relative path, or the first rule it broke. */
export type ScopeCheck = { ok: true; path: string } | { ok: false; violation: ScopeViolation };

/** Longest accepted path, in UTF-8 bytes (PATH_MAX on Linux). */
export const MAX_PATH_BYTES = 4096;
