/**
 * Which repository `init`, `update` and `uninstall` work on. The target must be the top level of a git work
 * tree: devrites installs project-level files that a repository checks in, its pre-commit hook needs one, and
 * it refuses a home folder (`~/.claude` and `~/.codex` are the hosts' user-level settings, never a project).
 * There is no override: `git init` is one command. A target reached through a symlink that leads out of the
 * repository it sits in is refused.
 */

import { lstatSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { git } from "../baseline/_git.js";
import { type Code, type Diagnostic, ExitCode, error } from "../core/diagnostics.js";

export interface InstallTarget {
  /** The work tree's top level, resolved. */
  root: string;
  /** This work tree's git folder (absolute): holds the install lock and journal. */
  gitDir: string;
}

export type TargetFound =
  | { ok: true; target: InstallTarget }
  | { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] };

function usage(code: Code, message: string, path: string, hint: string): TargetFound {
  return { ok: false, exitCode: ExitCode.Usage, diagnostics: [error(code, message, { path, hint })] };
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === "" || (r !== ".." && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/** The first symlink on the way from `/` to `abs`, if any. */
function firstSymlink(abs: string): string | undefined {
  const parts = abs.split(sep).filter((p) => p !== "");
  let cur = abs.startsWith(sep) ? sep : "";
  for (const p of parts) {
    cur = join(cur, p);
    try {
      if (lstatSync(cur).isSymbolicLink()) return cur;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

async function toplevel(dir: string): Promise<string | undefined> {
  const r = await git(dir, ["rev-parse", "--show-toplevel"]);
  const out = r.stdout.toString("utf8").replace(/\n$/, "");
  return r.exitCode === 0 && out !== "" ? out : undefined;
}

/**
 * The target: `option` (resolved against `cwd`; must be a top level), or without it the top level of the
 * repository `cwd` is in.
 */
export async function resolveInstallTarget(cwd: string, option: string | undefined): Promise<TargetFound> {
  const given =
    option !== undefined
      ? resolve(cwd, option)
      : ((await toplevel(cwd).catch(() => undefined)) ?? resolve(cwd));
  let isDir = false;
  try {
    isDir = statSync(given).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir)
    return usage("install.target-invalid", "the target is not a directory", given, "pass --target DIR");
  const real = realpathSync(given);

  const link = firstSymlink(given);
  if (link !== undefined) {
    const around = await toplevel(dirname(link)).catch(() => undefined);
    if (around !== undefined && !inside(realpathSync(around), real))
      return usage(
        "install.target-symlink-outside",
        `the target goes through the symlink ${link}, which leads outside the repository ${around}`,
        given,
        `pass the real path (${real}) if that is the repository you mean`,
      );
  }

  const home = (() => {
    try {
      return realpathSync(homedir());
    } catch {
      return undefined;
    }
  })();
  if (real === home || real === sep)
    return usage(
      "install.target-home",
      `refusing to install into ${real === sep ? "the file system root" : "your home folder"}`,
      real,
      "devrites installs into a project repository; ~/.claude and ~/.codex are the hosts' user settings",
    );

  const r = await git(real, ["rev-parse", "--show-toplevel", "--absolute-git-dir"]);
  const [top, gitDir] = r.stdout.toString("utf8").split("\n");
  if (r.exitCode !== 0 || !top || !gitDir) {
    const why = r.spawnError
      ? `git could not run (${r.spawnError})`
      : r.stderr.trim().split("\n")[0] || "git said no";
    return usage(
      "install.not-git",
      `${real} is not a git repository (${why})`,
      real,
      "devrites installs into a git repository: run `git init` there first",
    );
  }
  const realTop = realpathSync(top);
  if (realTop !== real)
    return usage(
      "install.target-not-toplevel",
      `${real} is inside the repository ${realTop}, not its top level`,
      real,
      `install at the top level: --target ${realTop}`,
    );
  return { ok: true, target: { root: real, gitDir } };
}
