import { lstatSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type Diagnostic, ExitCode, error } from "../core/diagnostics.js";
import { git } from "./_git.js";

/**
 * The git top level containing `cwd`, else `cwd` itself with `git: false`. Fails closed: when a `.git` exists
 * at or above `cwd` but git cannot read it (git missing, dubious ownership, corrupt, inside `.git`), this throws
 * instead of silently treating the repository as a plain folder.
 */
export async function findRepoRoot(cwd: string): Promise<{ root: string; git: boolean }> {
  const dir = resolve(cwd);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new Error(`not a directory: ${dir}`);
  const r = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (r.exitCode === 0) {
    const out = r.stdout.toString("utf8");
    const root = out.endsWith("\n") ? out.slice(0, -1) : out;
    if (root !== "") return { root, git: true };
  }
  const marker = dotGitAbove(dir);
  if (marker !== null)
    throw new Error(
      `${marker} exists but git cannot use it (${r.spawnError ?? r.stderr.trim() ?? `exit ${r.exitCode}`}); ` +
        "fix the repository (or install git) before running devrites",
    );
  return { root: dir, git: false };
}

export type RootFound =
  | { ok: true; root: string }
  | { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] };

/**
 * The repository root for `cwd`: the git top level, or `cwd` itself outside git (a `no-git` baseline).
 * A directory that does not exist, or a `.git` that git cannot read, is missing input (exit 5): devrites
 * never falls back to treating a broken repository as a plain folder.
 */
export async function locateRoot(cwd: string): Promise<RootFound> {
  try {
    return { ok: true, root: (await findRepoRoot(cwd)).root };
  } catch (e) {
    return {
      ok: false,
      exitCode: ExitCode.MissingInput,
      diagnostics: [
        error("input.no-repo", `no usable repository at ${cwd}: ${(e as Error).message}`, {
          hint: "run the command inside the project's repository",
        }),
      ],
    };
  }
}

/**
 * The nearest `.git` at or above `start` that claims to be a repository. An empty `.git` folder claims nothing
 * and git's own discovery passes over it too; Codex's sandbox makes one in each of its writable roots (`/tmp`
 * among them) as a mount point while a command runs, so counting it would turn every plain folder there into a
 * broken repository. Anything else (a `.git` file, a folder with content, one that cannot be listed) counts.
 */
function dotGitAbove(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, ".git");
    if (claimsRepository(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

function claimsRepository(dotGit: string): boolean {
  let stat: ReturnType<typeof lstatSync> | undefined;
  try {
    stat = lstatSync(dotGit, { throwIfNoEntry: false });
  } catch {
    return true; // there, but not even its kind can be read: fail closed
  }
  if (stat === undefined) return false;
  if (!stat.isDirectory()) return true;
  try {
    return readdirSync(dotGit).length > 0;
  } catch {
    return true;
  }
}

/**
 * The absolute git folder of the repository whose top level is `root` (`git rev-parse --absolute-git-dir`;
 * a linked worktree's own folder), or null outside git.
 */
export async function absoluteGitDir(root: string): Promise<string | null> {
  const r = await git(root, ["rev-parse", "--absolute-git-dir"]);
  if (r.exitCode !== 0) return null;
  const out = r.stdout.toString("utf8");
  const dir = out.endsWith("\n") ? out.slice(0, -1) : out;
  return dir === "" ? null : dir;
}
