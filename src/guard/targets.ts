/**
 * Write targets: where a write lands and whether the calling role may write there. All path logic goes through
 * src/scope (`toRepoPath` lexically, `ctx.resolve` for symlinks, `isAllowlisted` for exact membership); this
 * module only adds the guard's own refusals and picks the rule code.
 */

import { isAllowlisted, toRepoPath } from "../scope/index.js";
import type { GuardContext, GuardRule } from "./types.js";

/** Files that are not files: writing to them changes nothing in the repository. */
export function isDevice(p: string): boolean {
  return (
    p === "/dev/null" ||
    p === "/dev/stdout" ||
    p === "/dev/stderr" ||
    p === "/dev/tty" ||
    (p.startsWith("/dev/fd/") && /^[0-9]+$/.test(p.slice(8)))
  );
}

export type TargetVerdict = { ok: true } | { ok: false; rule: GuardRule; why: string; hint: string };

/** Whether a path the caller wants to write falls under the workspace `.devrites/` (lexically). */
export function isDevritesTarget(ctx: GuardContext, p: string, cwd: string | null): boolean {
  if (cwd === null && !p.startsWith("/")) return false;
  const r = toRepoPath(ctx.root, p, cwd ?? undefined);
  return !r.ok && r.violation.rule === "scope.devrites";
}

/**
 * The wright's check of one write target `p` (absolute, or relative to `cwd`; `cwd` null = unknown):
 * devices pass only as a sink (a redirect, `tee`, `dd of=`), never as an operand that is removed or replaced; `..` segments are refused (after a symlinked directory `..` is not where it reads); the path
 * must convert to a repository path, resolve inside the repository through symlinks, and be on the allowlist
 * exactly. With `dir`, the directory must be a parent of an allowlisted file (`mkdir -p`, `rmdir`).
 */
export function checkWrightTarget(
  ctx: GuardContext,
  allowlist: readonly string[],
  p: string,
  cwd: string | null,
  dir = false,
  sink = false,
): TargetVerdict {
  if (sink && isDevice(p)) return { ok: true };
  const allowHint = `your allowlist is: ${allowlist.length > 0 ? allowlist.join(", ") : "(empty)"}`;
  if (cwd === null && !p.startsWith("/")) {
    return {
      ok: false,
      rule: "guard.write-target-unknown",
      why: `the relative path \`${p}\` follows a \`cd\` the guard cannot follow`,
      hint: "use paths relative to the project root, without cd",
    };
  }
  if (p.split("/").includes("..")) {
    return {
      ok: false,
      rule: "guard.outside-allowlist",
      why: `\`${p}\` contains a \`..\` segment (after a symlinked directory it lands elsewhere than it reads)`,
      hint: `write the canonical path; ${allowHint}`,
    };
  }
  const r = toRepoPath(ctx.root, p, cwd ?? undefined);
  if (!r.ok) {
    if (r.violation.rule === "scope.devrites") {
      return {
        ok: false,
        rule: "guard.devrites-write",
        why: `\`${p}\` is inside the devrites workspace`,
        hint: "only the devrites CLI writes .devrites/; return your result as your final message",
      };
    }
    return {
      ok: false,
      rule: "guard.outside-allowlist",
      why: `${r.violation.message} (${r.violation.rule})`,
      hint: allowHint,
    };
  }
  const s = ctx.resolve(r.path);
  if (!s.ok) {
    return {
      ok: false,
      rule: "guard.outside-allowlist",
      why: `${s.violation.message} (${s.violation.rule})`,
      hint: allowHint,
    };
  }
  if (dir) {
    if (allowlist.some((a) => typeof a === "string" && a.startsWith(`${r.path}/`))) return { ok: true };
    return {
      ok: false,
      rule: "guard.outside-allowlist",
      why: `the directory \`${r.path}\` is not a parent of an allowlisted file`,
      hint: allowHint,
    };
  }
  if (isAllowlisted(allowlist, r.path)) return { ok: true };
  return {
    ok: false,
    rule: "guard.outside-allowlist",
    why: `\`${r.path}\` is not on your packet's allowlist (exact match, case-sensitive)`,
    hint: `${allowHint}; ask the root for a new packet if you need another file`,
  };
}
