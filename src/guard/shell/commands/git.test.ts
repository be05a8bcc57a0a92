// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * git: which subcommands and options read, which mutate the repository, which write files, and that a variable
 * that may expand into an option is refused.
 * Handlers are called directly (see ./test-cx.ts); nested commands show as `sub <argv> @<directories>`.
 */

import { describe, expect, it } from "vitest";
import { git } from "./git.js";
import { runHandler } from "./test-cx.js";

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(new Map([["git", git]]), line)).toEqual(expected);
  });

describe("git", () => {
  check([
    ['git "$x" status', ["shell-unclassified: git with a variable before its subcommand"]],
    ["git -C sub status", []],
    ["git --git-dir=x log", []],
    ["git -c color.ui=always log", []],
    [
      "git -c core.pager=sh log",
      ["shell-unclassified: `git -c core.pager=sh` can set a pager, alias or hook that runs a program"],
    ],
    [
      'git -c "$kv" log',
      ["shell-unclassified: `git -c …` can set a pager, alias or hook that runs a program"],
    ],
    ["git -c", ["shell-unclassified: `git -c …` can set a pager, alias or hook that runs a program"]],
    ["git --no-pager log", []],
    ["git -P log", []],
    ["git --version", []],
    ["git --exec-path", []],
    ["git --frob log", ["shell-unclassified: the git option `--frob`"]],
    ["git", []],
    ['git "$s"', ["shell-unclassified: git with a variable before its subcommand"]],
    [
      "git commit -m x",
      ["git-mutation: `git commit` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    ["git diff --output=out", ["write out@/r"]],
    ["git diff --outp out", ["write out@/r"]],
    ["git diff --output", ["write-unknown: git diff --output without a file"]],
    ["git diff --out=o", ["write o@/r"]],
    ["git diff --output-directory=d", ["write-unknown: git diff writes into a directory"]],
    ['git diff "$x"', ["shell-unclassified: `$x` may expand into an option of git diff"]],
    ['git diff "src/$x"', []],
    ["git log --oneline", []],
    [
      "git format-patch -o d HEAD~1",
      ["write-unknown: `git format-patch` writes numbered patch files; use --stdout"],
    ],
    ["git format-patch --stdout HEAD~1", []],
    [
      "git format-patch HEAD~1",
      ["write-unknown: `git format-patch` writes numbered patch files; use --stdout"],
    ],
    ["git archive -o out.tar HEAD", ["write out.tar@/r"]],
    ["git archive -oout.tar HEAD", ["write out.tar@/r"]],
    ["git archive --output=o.tar HEAD", ["write o.tar@/r"]],
    ["git archive HEAD", []],
    ["git branch", []],
    ["git branch -a", []],
    ['git branch "$x"', ["shell-unclassified: a variable `git branch` argument"]],
    [
      'git branch "b/$x"',
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch -d old",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ['git branch --list "f*"', []],
    ["git tag", []],
    ['git tag "$x"', ["shell-unclassified: a variable `git tag` argument"]],
    [
      'git tag "v/$x"',
      [
        "git-mutation: `git tag <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git tag -l", []],
    ["git tag --contains HEAD", []],
    ["git tag --sort=-v:refname", []],
    ["git tag -n5", []],
    [
      "git tag v1",
      [
        "git-mutation: `git tag <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git tag -d v1",
      ["git-mutation: `git tag -d` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    ["git remote", []],
    ["git remote -v", []],
    ["git remote show origin", []],
    ["git remote get-url origin", []],
    [
      "git remote add o u",
      [
        "git-mutation: `git remote add` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git config --get user.name", []],
    ["git config user.name", []],
    [
      "git config user.name x",
      [
        "git-mutation: `git config <key> <value>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config -f f user.name x",
      [
        "git-mutation: `git config <key> <value>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git config --list", []],
    ["git config get user.name", []],
    [
      "git config set user.name x",
      [
        "git-mutation: `git config set` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --unset user.name",
      [
        "git-mutation: `git config --unset` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --add a.b c",
      [
        "git-mutation: `git config --add` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ['git config "$x"', ["shell-unclassified: a variable `git config` argument"]],
    ["git config --type=bool a.b", []],
    ["git apply --check p.diff", []],
    ["git apply --stat p.diff", []],
    [
      "git apply p.diff",
      ["write-unknown: `git apply` writes the files named inside the patch; use apply_patch or Edit"],
    ],
    [
      "git apply --check --apply p.diff",
      ["write-unknown: `git apply` writes the files named inside the patch; use apply_patch or Edit"],
    ],
    ["git symbolic-ref HEAD", []],
    [
      "git symbolic-ref HEAD refs/heads/x",
      [
        "git-mutation: `git symbolic-ref <name> <ref>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git symbolic-ref -d HEAD",
      [
        "git-mutation: `git symbolic-ref <name> <ref>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git grep -O x", ["shell-unclassified: `git grep -O` opens a pager program"]],
    ["git grep --open-files-in-pager x", ["shell-unclassified: `git grep -O` opens a pager program"]],
    ["git grep -n x", []],
    ['git grep "$x"', ["shell-unclassified: `$x` may expand into an option of git grep"]],
    ["git fsck --lost-found", ["write-unknown: `git fsck --lost-found` writes"]],
    ["git fsck", []],
    ['git fsck "$x"', ["shell-unclassified: `$x` may expand into an option of git fsck"]],
    [
      "git hash-object -w f",
      [
        "git-mutation: `git hash-object -w` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git hash-object f", []],
    ['git hash-object "$x" f', ["shell-unclassified: `$x` may expand into an option of git hash-object"]],
    ["git interpret-trailers --in-place f", ["write-unknown: `--in-place` rewrites the files"]],
    ["git interpret-trailers f", []],
    [
      'git interpret-trailers "$x"',
      ["shell-unclassified: `$x` may expand into an option of git interpret-trailers"],
    ],
    [
      "git stash",
      ["git-mutation: `git stash` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    ["git stash list", []],
    ["git stash show", []],
    [
      "git stash push",
      [
        "git-mutation: `git stash push` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git worktree list", []],
    [
      "git worktree add ../wt",
      [
        "git-mutation: `git worktree add` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git lfs track", []],
    [
      'git lfs track "*.bin"',
      [
        "git-mutation: `git lfs track <pattern>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git lfs ls-files", []],
    ["git submodule status", []],
    [
      "git submodule foreach ls",
      ["shell-unclassified: `git submodule foreach` runs a command in every submodule"],
    ],
    ["git bundle create b.bundle HEAD", ["write-unknown: `git bundle create` writes a file"]],
    ["git bundle verify b.bundle", []],
    ["git notes list", []],
    [
      "git sparse-checkout",
      [
        "git-mutation: `git sparse-checkout` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git frob", ["shell-unclassified: `git frob` is not a known read-only subcommand (it may be an alias)"]],
  ]);
});
