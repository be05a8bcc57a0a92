import { posix } from "node:path";
import { isDevritesSegment, isGitSegment } from "./_names.js";
import { reject, show } from "./_violation.js";
import { realRoot, type TargetKind, walk } from "./_walk.js";
import { checkRepoPath } from "./check-repo-path.js";
import { toRepoPath } from "./to-repo-path.js";
import type { ScopeCheck } from "./types.js";

export type TargetCheck = { ok: true; path: string; kind: TargetKind } | Extract<ScopeCheck, { ok: false }>;

/**
 * Where `repoPath` really lands under `realRootPath` (already realpath'd): the target must stay strictly inside
 * the root and outside `.git` / `.devrites` in any spelling. Reports the kind of the final target.
 */
export function resolveTarget(realRootPath: string, repoPath: string): TargetCheck {
  const lexical = checkRepoPath(repoPath);
  if (!lexical.ok) return lexical;
  const w = walk(realRootPath, repoPath.split("/"));
  if (!w.ok) return reject(w.rule, repoPath, `${show(repoPath)}: ${w.message}`);
  const inside = landsInside(realRootPath, w.real);
  if (inside !== true) {
    const rule = w.followed ? "scope.symlink-escape" : "scope.outside-root";
    if (inside === "root")
      return reject("scope.not-a-file", repoPath, `${show(repoPath)} resolves to the repository root itself`);
    return reject(
      rule,
      repoPath,
      `${show(repoPath)} resolves to ${show(w.real)}, outside ${show(realRootPath)}`,
    );
  }
  const rel = w.real.slice(realRootPath === "/" ? 1 : realRootPath.length + 1);
  for (const seg of rel.split("/")) {
    if (isGitSegment(seg) || isDevritesSegment(seg))
      return reject(
        "scope.symlink-escape",
        repoPath,
        `${show(repoPath)} resolves to ${show(rel)}, inside ${isGitSegment(seg) ? ".git" : ".devrites"}`,
      );
  }
  return { ok: true, path: repoPath, kind: w.kind };
}

function landsInside(root: string, real: string): true | "root" | false {
  if (real === root) return "root";
  return real.startsWith(root === "/" ? "/" : `${root}/`);
}

/**
 * fs: follow symlinks (chained; dangling links by their text; loops → `scope.unresolvable`) for every existing
 * prefix of the path; ok only if the final target stays inside realpath(root) and is not under `.git/` or
 * `.devrites/`. Returns the requested (not the resolved) repo path. A missing file is fine as long as its
 * existing parent chain resolves inside. Directories are not rejected here (see `checkAllowlist`).
 */
export function resolveRepoPath(root: string, repoPath: string): ScopeCheck {
  const lexical = checkRepoPath(repoPath);
  if (!lexical.ok) return lexical;
  const real = realRoot(root);
  if (real === null)
    return reject("scope.unresolvable", repoPath, `the repository root ${show(root)} cannot be resolved`);
  const t = resolveTarget(real, repoPath);
  return t.ok ? { ok: true, path: t.path } : t;
}

/**
 * fs: the guard's full check of a host-supplied path. First `toRepoPath` (lexical). When the path is outside
 * the root as given, an ancestor of it whose realpath is the real root counts as the root, so aliases such as
 * `/tmp` vs `/private/tmp` agree on either side. Then `resolveRepoPath`. Last, the raw path is resolved the way
 * the kernel would (`..` applied after symlinks) and must land on the same file as the canonical path:
 * `link/../x` with `link → /elsewhere` is `scope.symlink-escape` even though it reads as `x`.
 */
export function resolveHostPath(root: string, p: string, cwd?: string): ScopeCheck {
  let lexical = toRepoPath(root, p, cwd);
  const real = typeof root === "string" ? realRoot(root) : null;
  if (!lexical.ok && lexical.violation.rule === "scope.outside-root" && real !== null) {
    const alias = aliasOfRoot(posix.resolve(root, cwd ?? ".", p), real);
    if (alias !== null) {
      const again = toRepoPath(alias, p, cwd === undefined ? root : posix.resolve(root, cwd));
      if (again.ok) lexical = again;
    }
  }
  if (!lexical.ok) return lexical;
  if (real === null)
    return reject("scope.unresolvable", p, `the repository root ${show(root)} cannot be resolved`);
  const target = resolveTarget(real, lexical.path);
  if (!target.ok) return { ok: false, violation: { ...target.violation, input: p } };

  const raw = posix.isAbsolute(p) ? p : `${posix.resolve(root, cwd ?? ".")}/${p}`;
  const kernel = walk("/", raw.split("/"));
  const canonical = walk(real, lexical.path.split("/"));
  if (!kernel.ok) return reject(kernel.rule, p, `${show(p)}: ${kernel.message}`);
  if (!canonical.ok || kernel.real !== canonical.real)
    return reject(
      "scope.symlink-escape",
      p,
      `${show(p)} opens ${show(kernel.real)}, not ${show(lexical.path)}: a symlink before a \`..\` moves it`,
    );
  return lexical;
}

/** The lexical ancestor of `abs` whose realpath is the real root (the host reached the root by another name). */
function aliasOfRoot(abs: string, real: string): string | null {
  const segments = abs.split("/");
  for (let i = 1; i < segments.length; i++) {
    const prefix = segments.slice(0, i + 1).join("/");
    if (realRoot(prefix) === real) return prefix;
  }
  return null;
}
