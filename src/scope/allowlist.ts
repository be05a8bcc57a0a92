import { show, violation } from "./_violation.js";
import { realRoot } from "./_walk.js";
import { checkRepoPath } from "./check-repo-path.js";
import { resolveTarget } from "./resolve-repo-path.js";
import type { ScopeViolation } from "./types.js";

/**
 * Check a packet's write allowlist: every entry must be canonical (`checkRepoPath`), resolve inside the
 * repository (`resolveRepoPath`), not be an existing directory or special file, and appear once. Entries are
 * reported in input order; nothing is normalised or dropped silently.
 */
export function checkAllowlist(
  root: string,
  entries: readonly string[],
): { ok: string[]; violations: ScopeViolation[] } {
  const ok: string[] = [];
  const violations: ScopeViolation[] = [];
  if (!Array.isArray(entries)) {
    violations.push(violation("scope.empty", "", `expected a list of paths, got ${typeof entries}`));
    return { ok, violations };
  }
  const seen = new Set<string>();
  const real = realRoot(root);
  for (const entry of entries) {
    const lexical = checkRepoPath(entry);
    if (!lexical.ok) {
      violations.push(lexical.violation);
      continue;
    }
    if (seen.has(entry)) {
      violations.push(violation("scope.duplicate", entry, `${show(entry)} is listed more than once`));
      continue;
    }
    seen.add(entry);
    if (real === null) {
      violations.push(
        violation("scope.unresolvable", entry, `the repository root ${show(root)} cannot be resolved`),
      );
      continue;
    }
    const target = resolveTarget(real, entry);
    if (!target.ok) {
      violations.push(target.violation);
      continue;
    }
    if (target.kind === "dir") {
      violations.push(violation("scope.not-a-file", entry, `${show(entry)} is a directory`));
      continue;
    }
    if (target.kind === "other") {
      violations.push(
        violation("scope.not-a-file", entry, `${show(entry)} is not a regular file (FIFO, socket or device)`),
      );
      continue;
    }
    ok.push(entry);
  }
  return { ok, violations };
}

/**
 * Exact byte equality against the allowlist: a case or Unicode variant is a different path and is not
 * allowlisted. A non-canonical `repoPath` is never allowlisted, whatever the list says (rules end in DISALLOW).
 */
export function isAllowlisted(allowlist: readonly string[], repoPath: string): boolean {
  if (typeof repoPath !== "string" || !Array.isArray(allowlist)) return false;
  if (!checkRepoPath(repoPath).ok) return false;
  return allowlist.some((entry) => entry === repoPath);
}
