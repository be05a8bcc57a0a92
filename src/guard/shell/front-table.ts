/**
 * The front table: what the guard says at once about a leaf's shell call when the call runs in the OS sandbox.
 * The sandbox is the boundary there (docs/guard-policy.md, Sandbox); this table only turns what is plainly not
 * allowed into an immediate deny with a rule and a hint, so the model learns on its first try instead of from
 * a read-only error. A command no rule matches goes to the kernel. In classified mode (no sandbox) the full
 * classifier (./classify.ts) decides instead.
 *
 * Each rule is a command prefix, matched the way Codex's execpolicy matches `prefix_rule`s: the program's base
 * name, then the words that must follow, each one literal or a set of alternatives. Options before a pattern
 * word are stepped over (with their value, for the options in `valueOptions`), so `git -C x push` and
 * `npm --prefix x install` match. A word that is not literal (a variable, a glob) matches nothing: the kernel
 * decides. Every rule carries examples it must match and near misses it must not (front-table.test.ts runs
 * them all).
 */

import type { DenyRule } from "./effects.js";
import { AGENT_CLIS, GIT_BRANCH_MUTATING } from "./known-words.js";

/** A pattern word: one spelling, or any of several. `END` matches only when no word at all is left. */
export type PatternWord = string | readonly string[];
export const END = "$end";

/** What a match means. */
export type FrontAction =
  | { deny: DenyRule; why: string; hint: string }
  /**
   * The command writes files named by its operands: `all` of them, `last` (the destination of `cp`/`mv`/`ln`),
   * or all `after-first` (`chmod MODE FILE…`). `sink`: writes *into* them (`tee`), where a device is harmless.
   * The policy judges each target for the role (a read-only role's write, the wright's allowlist).
   */
  | { writes: "all" | "last" | "after-first"; sink?: boolean };

export interface FrontRule {
  /** Stable name, for tests and for telling rules apart in a report. */
  id: string;
  /** The prefix: program base names first (`git`, `npm`), then the words after it. */
  prefix: readonly [PatternWord, ...PatternWord[]];
  /**
   * When set, the rule also needs one of these words anywhere after the prefix (`git branch -d`); one ending in
   * `*` matches every word it starts (`-i*`: `-i`, `-i.bak`).
   */
  anyOf?: readonly string[];
  /** Options of the program that take the next word as their value. */
  valueOptions?: readonly string[];
  does: FrontAction;
  /** Commands the rule matches, and near misses it must not. */
  examples: { match: readonly string[]; miss: readonly string[] };
}

const GIT_VALUE_OPTIONS = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"];
const PM_VALUE_OPTIONS = ["--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--filter", "-F"];

const GIT_MUTATION = {
  deny: "guard.git-mutation",
  why: "it changes the repository's history, index, refs or configuration",
  hint: "leaves never change git state; describe the change in your result and let the root commit",
} as const;

const INSTALL = {
  deny: "guard.install",
  why: "it installs, removes or downloads dependencies",
  hint: "leaves never change dependencies; report the missing package and let the root decide",
} as const;

const PUBLISH = {
  deny: "guard.publish",
  why: "it publishes, releases or changes something outside the repository",
  hint: "leaves never publish; report it to the root",
} as const;

/** The table, in the order it is tried; the first rule that matches a simple command decides it. */
export const FRONT_RULES: readonly FrontRule[] = [
  {
    id: "agent-cli",
    prefix: [AGENT_CLIS],
    does: {
      deny: "guard.spawn",
      why: "it starts another coding agent, which the guard would see as a root session",
      hint: "leaves never delegate; do the work yourself or report that it needs another step",
    },
    examples: {
      match: ["claude -p hi", "codex exec 'fix it'", "/usr/local/bin/gemini", "npx --yes codex"],
      miss: ["claudette -p", "echo claude", "grep codex src"],
    },
  },
  {
    id: "devrites-cli",
    prefix: [["devrites"]],
    does: {
      deny: "guard.devrites-write",
      why: "the devrites CLI writes the workspace; only the root session runs it",
      hint: "return your result as your final message; the root records it",
    },
    examples: {
      match: ["devrites status", ".devrites/bin/devrites result check x", "npx devrites run abandon"],
      miss: ["cat .devrites/state.json", "devrites-lint", "echo devrites"],
    },
  },
  {
    id: "git-mutation",
    prefix: [
      ["git"],
      [
        "commit",
        "push",
        "pull",
        "fetch",
        "merge",
        "rebase",
        "reset",
        "checkout",
        "switch",
        "restore",
        "add",
        "rm",
        "mv",
        "cherry-pick",
        "revert",
        "am",
        "clean",
        "init",
        "clone",
        "gc",
        "prune",
        "repack",
        "update-ref",
        "update-index",
        "filter-branch",
        "replace",
        "fast-import",
        "write-tree",
        "read-tree",
        "commit-tree",
        "checkout-index",
        "pack-refs",
        "maintenance",
        "sparse-checkout",
        "mktag",
        "mktree",
      ],
    ],
    valueOptions: GIT_VALUE_OPTIONS,
    does: GIT_MUTATION,
    examples: {
      match: ["git commit -m x", "git -C src push", "git -c user.name=x commit", "git --no-pager pull"],
      miss: ["git status", "git log --oneline", "git diff HEAD", "git show HEAD:commit", "git grep push"],
    },
  },
  {
    id: "git-subcommand-verb",
    prefix: [
      ["git"],
      ["stash", "remote", "worktree", "submodule", "notes", "reflog", "bisect", "lfs"],
      [
        "push",
        "pop",
        "apply",
        "drop",
        "clear",
        "save",
        "store",
        "branch",
        "add",
        "remove",
        "rm",
        "rename",
        "set-url",
        "set-head",
        "set-branches",
        "prune",
        "update",
        "move",
        "lock",
        "unlock",
        "repair",
        "init",
        "deinit",
        "sync",
        "absorbgitdirs",
        "set-branch",
        "copy",
        "append",
        "edit",
        "merge",
        "expire",
        "delete",
        "start",
        "good",
        "bad",
        "new",
        "old",
        "skip",
        "reset",
        "run",
        "install",
        "pull",
        "fetch",
        "checkout",
        END,
      ],
    ],
    valueOptions: GIT_VALUE_OPTIONS,
    does: GIT_MUTATION,
    examples: {
      match: [
        "git stash",
        "git stash pop",
        "git remote add o u",
        "git worktree add ../x",
        "git bisect start",
      ],
      miss: ["git stash list", "git remote -v", "git worktree list", "git bisect log", "git notes show"],
    },
  },
  {
    id: "git-branch-change",
    prefix: [["git"], ["branch"]],
    anyOf: GIT_BRANCH_MUTATING,
    valueOptions: GIT_VALUE_OPTIONS,
    does: GIT_MUTATION,
    examples: {
      match: ["git branch -D old", "git branch -m a b", "git -C sub branch --set-upstream-to=o/main"],
      miss: ["git branch", "git branch -a", "git branch --list 'f*'", "git branch -r -v"],
    },
  },
  {
    id: "git-tag-change",
    prefix: [["git"], ["tag"]],
    anyOf: [
      "-d",
      "--delete",
      "-a",
      "--annotate",
      "-s",
      "--sign",
      "-u",
      "--local-user",
      "-f",
      "--force",
      "-m",
      "-F",
    ],
    valueOptions: GIT_VALUE_OPTIONS,
    does: GIT_MUTATION,
    examples: {
      match: ["git tag -d v1", "git tag -a v2 -m x", "git tag -s v3"],
      miss: ["git tag", "git tag -l", "git tag --list 'v*'", "git tag --contains HEAD"],
    },
  },
  {
    id: "git-config-write",
    prefix: [["git"], ["config"]],
    anyOf: [
      "--add",
      "--unset",
      "--unset-all",
      "--replace-all",
      "--rename-section",
      "--remove-section",
      "-e",
      "--edit",
      "set",
      "unset",
      "rename-section",
      "remove-section",
      "edit",
    ],
    valueOptions: GIT_VALUE_OPTIONS,
    does: GIT_MUTATION,
    examples: {
      match: ["git config --unset user.name", "git config set core.x y", "git config --add a.b c"],
      miss: ["git config --get user.name", "git config --list", "git config get user.email"],
    },
  },
  {
    id: "js-install",
    prefix: [
      ["npm", "pnpm", "yarn", "bun"],
      [
        "install",
        "i",
        "in",
        "add",
        "ci",
        "update",
        "up",
        "upgrade",
        "remove",
        "rm",
        "uninstall",
        "un",
        "unlink",
        "link",
        "ln",
        "dedupe",
        "prune",
        "dlx",
        "x",
      ],
    ],
    valueOptions: PM_VALUE_OPTIONS,
    does: INSTALL,
    examples: {
      match: ["npm install left-pad", "npm i", "pnpm add -D x", "yarn remove x", "npm --prefix web ci"],
      miss: ["npm test", "npm run build", "npm ls", "pnpm why x", "npm view x"],
    },
  },
  {
    id: "py-install",
    prefix: [
      ["pip", "pip3", "pipx", "uv", "poetry"],
      ["install", "uninstall", "download", "add", "sync", "lock"],
    ],
    does: INSTALL,
    examples: {
      match: ["pip install requests", "pip3 uninstall -y x", "uv add httpx", "poetry install"],
      miss: ["pip list", "pip show x", "uv run pytest", "poetry show"],
    },
  },
  {
    id: "py-module-install",
    prefix: [["python", "python3"], "-m", ["pip", "ensurepip"], ["install", "uninstall", "download", END]],
    does: INSTALL,
    examples: {
      match: ["python -m pip install x", "python3 -m pip uninstall x", "python3 -m ensurepip"],
      miss: ["python -m pip list", "python3 -m pytest", "python -m venv .venv"],
    },
  },
  {
    id: "other-install",
    prefix: [
      ["cargo", "go", "gem", "bundle", "apt", "apt-get", "brew", "dnf", "yum", "apk", "snap", "port"],
      ["install", "add", "get", "update", "upgrade", "remove", "uninstall", "fetch", "del"],
    ],
    does: INSTALL,
    examples: {
      match: [
        "cargo install ripgrep",
        "go get x",
        "gem install rails",
        "apt-get install -y jq",
        "brew install x",
      ],
      miss: ["cargo test", "go test ./...", "gem list", "apt-cache search x", "brew list"],
    },
  },
  {
    id: "publish",
    prefix: [
      ["npm", "pnpm", "yarn", "bun", "cargo", "gem", "poetry", "twine"],
      ["publish", "unpublish", "deprecate", "yank", "push", "upload"],
    ],
    valueOptions: PM_VALUE_OPTIONS,
    does: PUBLISH,
    examples: {
      match: ["npm publish", "cargo publish --dry-run", "twine upload dist/*", "gem push x.gem"],
      miss: ["npm pack --dry-run", "cargo package --list", "npm whoami"],
    },
  },
  {
    id: "gh-mutation",
    prefix: [
      ["gh"],
      ["pr", "issue", "release", "repo", "gist", "label", "secret", "variable", "workflow", "run", "ruleset"],
      [
        "create",
        "merge",
        "close",
        "reopen",
        "comment",
        "edit",
        "review",
        "delete",
        "upload",
        "fork",
        "archive",
        "rename",
        "set",
        "enable",
        "disable",
        "rerun",
        "cancel",
        "ready",
        "lock",
        "unlock",
        "transfer",
        "pin",
        "unpin",
        "sync",
        "clone",
      ],
    ],
    does: PUBLISH,
    examples: {
      match: ["gh pr create --fill", "gh issue comment 3 -b x", "gh release upload v1 a.tgz"],
      miss: ["gh pr view 3", "gh issue list", "gh release view v1", "gh run view 5"],
    },
  },
  {
    id: "in-place-edit",
    prefix: [["sed", "gsed", "perl"]],
    anyOf: ["-i*", "--in-place*", "-pi*", "-ni", "-Ei", "-ri", "-si", "-zi"],
    does: {
      deny: "guard.in-place-edit",
      why: "an in-place edit replaces the file with a new one made in its folder, which the sandbox keeps read-only",
      hint: "edit the file with the Edit or Write tool (the wright), or describe the change in your result",
    },
    examples: {
      match: ["sed -i s/a/b/ src/a.ts", "perl -pi -e s/a/b/ x", "sed -i.bak 1d f", "gsed --in-place 1d f"],
      miss: ["sed s/a/b/ src/a.ts", "sed -n 1,5p f", "perl -ne print x"],
    },
  },
  {
    id: "writes-remove",
    prefix: [["rm", "rmdir", "unlink", "shred"]],
    valueOptions: ["-n", "--iterations", "-s", "--size", "--random-source"],
    does: { writes: "all" },
    examples: {
      match: ["rm -f src/a.ts", "rm -r build", "rmdir -p out/x", "shred -u -n 3 key.pem"],
      miss: ["rmate x", "ls rm", "rm"],
    },
  },
  {
    id: "writes-create",
    prefix: [["touch", "mkdir", "truncate", "mkfifo", "mknod"]],
    valueOptions: [
      "-r",
      "--reference",
      "-d",
      "--date",
      "-t",
      "-m",
      "--mode",
      "-s",
      "--size",
      "-Z",
      "--context",
    ],
    does: { writes: "all" },
    examples: {
      match: ["touch notes.md", "touch -d yesterday a", "mkdir -p -m 700 out", "truncate -s 0 log.txt"],
      miss: ["touched", "touch -r ref.txt", "echo mkdir"],
    },
  },
  {
    id: "writes-destination",
    prefix: [["cp", "mv", "ln", "install", "rsync"]],
    valueOptions: [
      "-t",
      "--target-directory",
      "-S",
      "--suffix",
      "-m",
      "--mode",
      "-o",
      "-g",
      "--owner",
      "--group",
    ],
    does: { writes: "last" },
    examples: {
      match: ["cp a.ts b.ts", "mv -f old new", "ln -s target link", "install -m 644 a dst"],
      miss: ["cpp x.c", "mvn test", "lnav log"],
    },
  },
  {
    id: "writes-mode-owner",
    prefix: [["chmod", "chown", "chgrp", "setfacl", "chattr"]],
    valueOptions: ["--reference"],
    does: { writes: "after-first" },
    examples: {
      match: ["chmod +x run.sh", "chown me:me f", "chmod -R 755 bin"],
      miss: ["chmodx f", "stat -c %a f"],
    },
  },
  {
    id: "writes-into",
    prefix: [["tee"]],
    does: { writes: "all", sink: true },
    examples: {
      match: ["tee out.txt", "tee -a log.txt"],
      miss: ["teee x", "echo tee"],
    },
  },
];
