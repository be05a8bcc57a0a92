/**
 * The few git questions `devrites validate` asks, answered with one `spawnSync` each (no process library to
 * load: validate runs in every commit). Unlike the baseline's git calls, these keep the caller's git
 * environment: inside a pre-commit hook git points `GIT_INDEX_FILE` at the index being committed (a partial
 * `git commit <paths>` uses a temporary one), and "what the commit touches" is what that index says.
 */

import { spawnSync } from "node:child_process";

export interface GitOut {
  ok: boolean;
  stdout: Buffer;
  stderr: string;
}

export function gitSync(cwd: string, args: readonly string[]): GitOut {
  const r = spawnSync("git", ["-c", "core.quotePath=false", ...args], {
    cwd,
    env: { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    ok: r.status === 0,
    stdout: r.stdout ?? Buffer.alloc(0),
    stderr: r.error ? r.error.message : (r.stderr?.toString("utf8") ?? ""),
  };
}

/** The work tree's top level and its git folder, or undefined outside git (one git call). */
export function gitWhere(cwd: string): { top: string; gitDir: string } | undefined {
  const r = gitSync(cwd, ["rev-parse", "--show-toplevel", "--absolute-git-dir"]);
  const [top, gitDir] = r.stdout.toString("utf8").split("\n");
  return r.ok && top && gitDir ? { top, gitDir } : undefined;
}

/** NUL-separated output as paths (a name that is not UTF-8 keeps its replacement characters; it is shown only). */
export function splitZ(out: Buffer): string[] {
  return out
    .toString("utf8")
    .split("\0")
    .filter((p) => p !== "");
}

/** Every path the index differs from HEAD in (added, changed, deleted; renames as delete + add). */
export function stagedPaths(root: string): { ok: true; paths: string[] } | { ok: false; message: string } {
  const r = gitSync(root, ["diff", "--cached", "--name-only", "--no-renames", "-z"]);
  return r.ok ? { ok: true, paths: splitZ(r.stdout) } : { ok: false, message: r.stderr.trim() };
}

/** Of `paths`, those whose work-tree file also differs from the index (partly staged). */
export function unstagedAmong(root: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  // A long list goes as "everything unstaged", intersected here (an argument list has a size limit).
  const named = paths.length <= 200 ? ["--", ...paths] : [];
  const r = gitSync(root, ["--literal-pathspecs", "diff", "--name-only", "--no-renames", "-z", ...named]);
  if (!r.ok) return [];
  const wanted = new Set(paths);
  return splitZ(r.stdout).filter((p) => wanted.has(p));
}
