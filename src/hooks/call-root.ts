/**
 * Find the repository a hook call belongs to, from the host's `cwd` field, without spawning git (the hook
 * runs on every tool call). The nearest ancestor holding a `.devrites/` folder wins; else the nearest holding
 * `.git` (folder or file: worktrees and submodules); else the first candidate itself.
 *
 * Every command finds its root with `baseline/find-repo-root.ts` (git's top level, failing closed on a
 * broken `.git`). Hooks cannot: they answer every tool call within a budget and never spawn git, and they
 * must find the devrites workspace even from inside a nested repository. So this walk is theirs alone.
 */

import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * `candidates` in order of trust: the input's `cwd`, then `CLAUDE_PROJECT_DIR`, then the process cwd.
 * Relative and non-string entries are skipped. Returns a realpath, or undefined when no candidate exists.
 */
export function findCallRoot(candidates: readonly unknown[]): string | undefined {
  const starts = candidates.filter(
    (c): c is string => typeof c === "string" && c !== "" && !c.includes("\0") && isAbsolute(c),
  );
  for (const start of starts) {
    const found = walkUp(start, (dir) => isDir(join(dir, ".devrites")));
    if (found !== undefined) return real(found);
  }
  for (const start of starts) {
    const found = walkUp(start, (dir) => exists(join(dir, ".git")));
    if (found !== undefined) return real(found);
  }
  for (const start of starts) if (isDir(start)) return real(start);
  return undefined;
}

function walkUp(start: string, hit: (dir: string) => boolean): string | undefined {
  let dir = resolve(start);
  for (let i = 0; i < 4096; i++) {
    if (hit(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

function isDir(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function real(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
