/**
 * Where a run's bound records live (`src/packet/anchor.ts` writes and reads them; `./records-journal.ts`
 * appends beside them): a folder outside what a leaf may write, found the same way by every command.
 */

import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * A folder that holds anchors, and how diagnostics name it. There are two, tried in this order:
 * `<git-dir>/devrites/anchors` (outside the work tree, unseen by git status) and `.devrites/anchors` in the
 * workspace, for a root whose own sandbox keeps the git folder read-only (Codex's `workspace-write`). Both are
 * read-only to every leaf under the sandbox, which is what an anchor needs; neither is secret from a leaf that
 * runs unconfined (docs/tree-check.md).
 */
export interface AnchorHome {
  dir: string;
  shown: string;
}

/** How diagnostics name the git folder's anchors (also when git cannot name the folder). */
const GIT_ANCHORS_SHOWN = "<git-dir>/devrites/anchors";

export function gitAnchorHome(gitDir: string): AnchorHome {
  return { dir: join(gitDir, "devrites", "anchors"), shown: GIT_ANCHORS_SHOWN };
}

export function workspaceAnchorHome(root: string): AnchorHome {
  return { dir: join(root, ".devrites", "anchors"), shown: ".devrites/anchors" };
}

/**
 * Where a run's anchor is: the git folder's home when the anchor is there, else the workspace's when it is
 * there, else the git folder's (so a missing anchor is named where `packet new` writes it first).
 */
export function findAnchorHome(gitDir: string, root: string, runId: string): AnchorHome {
  const git = gitAnchorHome(gitDir);
  if (existsSync(anchorPath(git, runId))) return git;
  const ws = workspaceAnchorHome(root);
  return existsSync(anchorPath(ws, runId)) ? ws : git;
}

/** A run's two files in its anchor home. */
const anchorFile = (runId: string) => `${runId}.json`;
const verdictsFile = (runId: string) => `${runId}.verdicts.jsonl`;
const recordsFile = (runId: string) => `${runId}.records.jsonl`;

export function anchorPath(home: AnchorHome, runId: string): string {
  return join(home.dir, anchorFile(runId));
}

export function verdictsPath(home: AnchorHome, runId: string): string {
  return join(home.dir, verdictsFile(runId));
}

/** The run's records journal (`./records-journal.ts`). */
export function recordsPath(home: AnchorHome, runId: string): string {
  return join(home.dir, recordsFile(runId));
}

/**
 * How diagnostics name a run's anchor and its verdicts; with no home (git cannot name its folder), as they would
 * be in the git folder, where `packet new` writes first.
 */
export function shownAnchor(
  home: AnchorHome | null | undefined,
  runId: string,
): { anchor: string; verdicts: string; records: string } {
  const shown = home?.shown ?? GIT_ANCHORS_SHOWN;
  return {
    anchor: `${shown}/${anchorFile(runId)}`,
    verdicts: `${shown}/${verdictsFile(runId)}`,
    records: `${shown}/${recordsFile(runId)}`,
  };
}

/**
 * The git folder of the repository whose top level is `root`, without asking git: `.git`, or where a `.git`
 * file (a linked worktree, a submodule) points. For commands that only need to find a run's anchor home;
 * anything that judges a tree asks git (`absoluteGitDir`).
 */
export function gitDirOf(root: string): string {
  const dotGit = join(root, ".git");
  try {
    if (statSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8").slice(0, 4096));
      if (m?.[1]) {
        const p = isAbsolute(m[1]) ? m[1] : resolve(dirname(dotGit), m[1]);
        try {
          return realpathSync(p);
        } catch {
          return p;
        }
      }
    }
  } catch {
    // no .git: the default below names a path nothing binds
  }
  return dotGit;
}
