import { posix } from "node:path";
import { reject, show } from "./_violation.js";
import { checkCharacters, checkRepoPath } from "./check-repo-path.js";
import type { ScopeCheck } from "./types.js";

/**
 * Pure. A host-supplied path (absolute, or relative to `cwd`, itself absolute or relative to `root`) → the
 * canonical repo-relative path: `./` and `a/../b` are normalised lexically, then `checkRepoPath` applies.
 * Containment compares whole segments, so `/repo-evil/x` is not inside `/repo`. The root itself is
 * `scope.not-a-file`. Lexical only: `link/../x` is taken as `x` here; `resolveHostPath` checks what the
 * kernel would open.
 */
export function toRepoPath(root: string, p: string, cwd?: string): ScopeCheck {
  const chars = checkCharacters(p);
  if (chars) return chars;
  if (/^[\\/][\\/]/.test(p)) return reject("scope.unc", p, `the path ${show(p)} is a UNC or device path`);
  if (/^[A-Za-z]:/.test(p)) return reject("scope.drive", p, `the path ${show(p)} starts with a drive letter`);
  const bs = p.indexOf("\\");
  if (bs >= 0) return reject("scope.backslash", p, `the path ${show(p)} contains a backslash at index ${bs}`);
  if (p.endsWith("/")) return reject("scope.trailing-slash", p, `the path ${show(p)} ends with a slash`);
  if (typeof root !== "string" || !posix.isAbsolute(root) || root.includes("\u0000"))
    return reject(
      "scope.unresolvable",
      p,
      `the repository root ${typeof root === "string" ? show(root) : typeof root} is not an absolute path`,
    );
  if (cwd !== undefined && (typeof cwd !== "string" || cwd.includes("\u0000")))
    return reject(
      "scope.unresolvable",
      p,
      `the working directory ${typeof cwd === "string" ? show(cwd) : typeof cwd} is not a path`,
    );

  const rootN = posix.resolve(root);
  const abs = posix.resolve(rootN, cwd ?? ".", p);
  if (abs === rootN)
    return reject("scope.not-a-file", p, `the path ${show(p)} is the repository root itself`);
  const prefix = rootN === "/" ? "/" : `${rootN}/`;
  if (!abs.startsWith(prefix))
    return reject(
      "scope.outside-root",
      p,
      `the path ${show(p)} resolves to ${show(abs)}, outside ${show(rootN)}`,
    );
  const rel = abs.slice(prefix.length);
  const checked = checkRepoPath(rel);
  if (checked.ok) return checked;
  const v = checked.violation;
  const message = rel === p ? v.message : `${v.message} (from ${show(p)})`;
  return { ok: false, violation: { ...v, input: p, message } };
}
