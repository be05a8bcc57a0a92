// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * git, option by option: every option that deletes, moves, copies or sets the upstream of a branch mutates, and so
 * does any abbreviation git accepts for it; filters (`--contains`, `--merged` …) keep `git branch|tag` a listing
 * and hide their value from the name search, while `--sort`/`--format` do not turn `git branch|tag <name>` into a
 * listing; every config flag that writes mutates while a valued flag's value is no key; the list-form subcommands
 * read only in their listing forms; the global options git accepts before a subcommand are known one by one; and an
 * option that names a program git runs (`ls-remote --upload-pack`, `archive --exec`) is refused.
 * Handlers are called directly (see ./test-cx.ts).
 */

import { describe, expect, it } from "vitest";
import { git } from "./git.js";
import { refusalHints, runHandler } from "./test-cx.js";

const GIT = new Map([["git", git]]);

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(new Map([["git", git]]), line)).toEqual(expected);
  });

describe("git branch, tag, config, list forms and global options", () => {
  check([
    [
      "git branch -D old",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --delete old",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --move a b",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --copy a b",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --force x HEAD",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --set-upstream-to=o/main",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --unset-upstream",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --edit-description",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --track x o/x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --no-track x o/x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --create-reflog x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch -qD old",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch dev",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch -dr o/x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git branch -v", []],
    ["git branch -vv", []],
    ["git branch -l x", []],
    ["git branch --list x", []],
    ["git branch -a x", []],
    ["git branch --all x", []],
    ["git branch -r x", []],
    ["git branch --remotes x", []],
    ["git branch --contains HEAD", []],
    ["git branch --no-contains HEAD", []],
    ["git branch --merged main", []],
    ['git branch --merged main "feat*"', []],
    ["git branch --contains=HEAD x", []],
    ["git branch --no-merged main", []],
    [
      "git branch -- x",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git branch --points-at HEAD", []],
    ["git branch --sort -committerdate", []],
    ["git branch --format %(refname)", []],
    [
      "git branch --column -d x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --abbrev -D x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --contains=HEAD -d x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git branch --show-current", []],
    ['git tag --list "v*"', []],
    ['git tag -l "v*"', []],
    ["git tag -v v1", []],
    ["git tag --verify v1", []],
    ["git tag --no-contains x", []],
    ["git tag --merged main", []],
    ["git tag --no-merged main", []],
    ["git tag --points-at HEAD", []],
    ["git tag --format %(refname)", []],
    ["git tag --column", []],
    ["git tag -n10", []],
    ["git tag --sort -v:refname", []],
    [
      "git tag --sort=refname -d v1",
      ["git-mutation: `git tag -d` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    [
      "git tag -a v1 -m x",
      ["git-mutation: `git tag -a` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    ["git config --get user.name Ann", []],
    ["git config --get-all remote.origin.fetch x", []],
    ["git config --get-regexp user x", []],
    ["git config --get-urlmatch http https://x", []],
    ["git config -l", []],
    ["git config --get-color color.diff.new blue", []],
    ["git config --get-colorbool color.diff true", []],
    [
      "git config --unset-all k",
      [
        "git-mutation: `git config --unset-all` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --replace-all k v",
      [
        "git-mutation: `git config --replace-all` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --rename-section a b",
      [
        "git-mutation: `git config --rename-section` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --remove-section a",
      [
        "git-mutation: `git config --remove-section` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --edit",
      [
        "git-mutation: `git config --edit` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config -e",
      [
        "git-mutation: `git config -e` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git config --file cfg user.name", []],
    ["git config -f cfg user.name", []],
    ["git config --blob HEAD:.gitmodules k", []],
    ["git config --type bool k", []],
    ["git config -t bool k", []],
    ["git config --default x k", []],
    ["git config list", []],
    [
      "git config unset k",
      [
        "git-mutation: `git config unset` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config rename-section a b",
      [
        "git-mutation: `git config rename-section` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config remove-section a",
      [
        "git-mutation: `git config remove-section` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config edit",
      [
        "git-mutation: `git config edit` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git apply --numstat p.diff", []],
    ["git apply --summary p.diff", []],
    [
      "git bundle",
      ["git-mutation: `git bundle` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    ["git notes", []],
    ["git reflog", []],
    ["git worktree", []],
    ["git lfs ls-files HEAD", []],
    [
      "git submodule update",
      [
        "git-mutation: `git submodule update` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git bundle unbundle b.bundle",
      [
        "git-mutation: `git bundle unbundle` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git stash create",
      [
        "git-mutation: `git stash create` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git --git-dir .git log", []],
    ["git --work-tree . status", []],
    ["git --namespace ns log", []],
    ["git --work-tree=. status", []],
    ["git --namespace=ns log", []],
    ["git --paginate log", []],
    ["git -p log", []],
    ["git --no-replace-objects log", []],
    ["git --literal-pathspecs log", []],
    ["git --glob-pathspecs log", []],
    ["git --noglob-pathspecs log", []],
    ["git --icase-pathspecs log", []],
    ["git --no-optional-locks status", []],
    ["git --bare log", []],
    ["git --no-advice status", []],
    ["git --no-lazy-fetch log", []],
    ["git -v", []],
    ["git --help", []],
    ["git -h", []],
    ["git --html-path", []],
    ["git --man-path", []],
    ["git --info-path", []],
    ["git symbolic-ref -m why HEAD", []],
    [
      "git symbolic-ref -q HEAD refs/heads/x",
      [
        "git-mutation: `git symbolic-ref <name> <ref>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git symbolic-ref --delete HEAD",
      [
        "git-mutation: `git symbolic-ref <name> <ref>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git remote -v add o u",
      [
        "git-mutation: `git remote add` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git diff --ou=o.txt", ["write o.txt@/r"]],
    ["git grep TODO src", []],
    ["git fsck --full", []],
  ]);
});

describe("git options that name a program to run", () => {
  check([
    ["git ls-remote origin", []],
    [
      "git ls-remote --upload-pack=x origin",
      ["shell-unclassified: `git ls-remote --upload-pack=x` runs a program"],
    ],
    [
      "git ls-remote --upload-pack x origin",
      ["shell-unclassified: `git ls-remote --upload-pack` runs a program"],
    ],
    ["git ls-remote --upload origin", ["shell-unclassified: `git ls-remote --upload` runs a program"]],
    ["git ls-remote -u x origin", ["shell-unclassified: `git ls-remote -u` runs a program"]],
    ["git ls-remote --tags origin", []],
    ["git ls-remote -o version=2 origin", []],
    ["git ls-remote -- --upload-pack", []],
    ['git ls-remote "$x"', ["shell-unclassified: `$x` may expand into an option of git ls-remote"]],
    ["git archive --exec=x --remote=r HEAD", ["shell-unclassified: `git archive --exec=x` runs a program"]],
    [
      "git archive --remote=origin HEAD",
      ["shell-unclassified: `git archive --remote=origin` runs a program"],
    ],
    ["git archive --rem=origin HEAD", ["shell-unclassified: `git archive --rem=origin` runs a program"]],
    ["git archive --format=tar HEAD", []],
    ["git archive -o a.tar --format=tar HEAD", ["write a.tar@/r"]],
  ]);
});

describe("git long options: abbreviations, and sort or format options that do not ask for a listing", () => {
  check([
    ["git branch --sort=-committerdate", []],
    [
      "git branch --sort=-committerdate new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --sort -committerdate new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --format=%(refname) new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --format %(refname) new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --abbrev=7 new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --column new",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git branch -v --abbrev=7", []],
    ["git branch --sort=-committerdate --merged main", []],
    [
      "git branch --unset-up",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --edit-desc",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --set-up=o/x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --del old",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git branch --no-t x o/x",
      [
        "git-mutation: `git branch (create, delete, move, copy or set upstream)` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git branch --no-merged main", []],
    ["git branch --show-current x", []],
    [
      "git branch feature",
      [
        "git-mutation: `git branch <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git tag --sort=-v:refname", []],
    [
      "git tag --sort=-v:refname v1",
      [
        "git-mutation: `git tag <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git tag --sort -v:refname v1",
      [
        "git-mutation: `git tag <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git tag --format=%(refname) v1",
      [
        "git-mutation: `git tag <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git tag --column v1",
      [
        "git-mutation: `git tag <name>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git tag --no-column", []],
    ['git tag --sort=-v:refname -l "v*"', []],
    [
      "git config --uns user.name",
      [
        "git-mutation: `git config --uns` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --remove-s a",
      [
        "git-mutation: `git config --remove-s` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --ed",
      [
        "git-mutation: `git config --ed` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    [
      "git config --unset-a k",
      [
        "git-mutation: `git config --unset-a` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ["git config --get-regexp user", []],
    ["git config --global --list", []],
    ["git config --show-origin user.name", []],
  ]);
});

describe("refusal hints", () => {
  it.each<[string, string[]]>([
    ["git ls-remote --upload-pack=x origin", ["drop the option"]],
    ["git -c core.pager=sh log", ["drop -c (only color.*, advice.*, i18n.*, core.quotepath are accepted)"]],
    ["git frob", ["use status, diff, log, show, blame, grep, ls-files or rev-parse"]],
  ])("%j → %j", (line, expected) => {
    expect(refusalHints(GIT, line)).toEqual(expected);
  });
});
