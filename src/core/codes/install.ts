/** The `install.*` diagnostics (emitted from src/install, src/validate-repo). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const installCodes = {
  "install.codex-agents-kept": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "your [agents] table is kept; devrites leaves max_depth to you",
    hint: "max_depth = 1 keeps leaves from spawning agents of their own",
  },
  "install.failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "An install, update or uninstall failed midway (permissions, disk space); every change it made was rolled back, unless the message says the rollback did not finish.",
    hint: "fix the cause (permissions, disk space) and rerun",
  },
  "install.forced": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "replaced with --force",
    hint: "nothing to do; the file was replaced because --force was given",
  },
  "install.hook-chain-occupied": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A pre-commit hook of yours exists, and the path devrites moves it to (so that it still runs, before devrites' hook) is already taken; nothing was installed.",
    hint: "move the file in the way (it may be left from an earlier install), then rerun",
  },
  "install.hooks-path-outside": {
    severity: "error",
    exit: ExitCode.Usage,
    summary:
      "`--git-hook` was asked for, but git runs hooks from a folder outside this repository (core.hooksPath, or a linked worktree), where devrites does not write.",
    hint: "devrites does not write into a shared hooks folder; run `devrites validate --staged` from your hook manager instead (pre-commit, husky and lefthook snippets are in the README)",
  },
  "install.hooks-path-unknown": {
    severity: "error",
    exit: ExitCode.Usage,
    summary:
      "`--git-hook` was asked for, but git cannot say where the pre-commit hook goes (`git rev-parse --git-path hooks/pre-commit` failed).",
    hint: "check the repository with git status",
  },
  "install.interrupted": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "an earlier run was interrupted midway; its journal is still there",
    hint: "run the command without --dry-run: it first puts the repository back as it was before that run",
  },
  "install.journal-corrupt": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "an interrupted install left a journal that cannot be read",
    hint: "check the files devrites manages with git status, then delete the journal and rerun",
  },
  "install.kept-dirs": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "folders that now hold your files were kept",
    hint: "for example .devrites/ with your runs",
  },
  "install.manifest-corrupt": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The install manifest (.devrites/install.json) is not valid JSON or not a devrites-install manifest, so devrites cannot tell which files are its own.",
    hint: "restore it from version control (git checkout -- .devrites/install.json); devrites will not guess which files are yours. To start over, move it aside and run devrites init: files that already match are adopted, others are reported and left alone",
  },
  "install.marker-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The Codex config (.codex/config.toml) holds devrites' begin and end markers in the wrong number or order, so its block cannot be found.",
    hint: "keep exactly one devrites begin/end marker pair, or delete both",
  },
  "install.merged-file-changed": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "devrites' block in a file it merges into was changed; the rest of the file is yours to edit",
    hint: "if devrites' part was edited, run devrites update to write it again",
  },
  "install.not-installed": {
    severity: "error",
    exit: ExitCode.MissingInput,
    summary:
      "`devrites update` or `devrites uninstall` ran where no install manifest (.devrites/install.json) exists: devrites is not installed there.",
    hint: "run devrites init to install; an uninstall has nothing to remove",
  },
  "install.not-utf8": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the file is not UTF-8 text",
    hint: "devrites merges only UTF-8 text; restore the file and rerun",
  },
  "install.overlay-entry": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a customised pack file must be a regular file",
    hint: "replace the link with a copy of the file",
  },
  "install.pack-broken": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the pack to install (with the project's overlay, if any) does not lint; nothing was installed",
    hint: "run devrites pack lint and fix the errors it names (in the overlay, if any), then install again",
  },
  "install.path-symlink": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "this path is a symlink",
    hint: "devrites never writes through a symlink; replace the link with a real folder or file",
  },
  "install.path-unsafe": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "refused: not a path devrites manages",
    hint: "the install manifest names a path it may not; restore .devrites/install.json",
  },
  "install.recovered": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "an earlier run was interrupted midway; its changes were rolled back first",
    hint: "nothing of yours was lost; the target is as it was before that run",
  },
  "install.rollback-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "While undoing a failed or interrupted install, devrites could not put a file back or remove a folder it had created; the journal is kept.",
    hint: "the journal is kept; the next devrites init, update or uninstall replays it",
  },
  "install.skip-modified": {
    severity: "warning",
    exit: ExitCode.Violation,
    summary:
      "A file devrites would write was edited since devrites wrote it, or is not devrites'; it is left as it is, and init, update and uninstall exit 1 so that the skip is not missed.",
    hint: "to take devrites' version, move your file away (or pass --force) and rerun",
  },
  "install.toml-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The Codex config (.codex/config.toml) devrites merges its block into is not valid TOML; it is left as it is.",
    hint: "fix the file by hand; devrites never writes a file it cannot parse",
  },
  "install.toml-merge-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "Adding devrites' block to the Codex config would give invalid TOML, or would not leave `[agents] max_depth = 1` in force; the file is left as it is.",
    hint: "set `[agents] max_depth = 1` by hand; devrites leaves the file as it is",
  },
  "install.uninstall-incomplete": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "uninstall kept files you edited; they stay listed in the install manifest",
    hint: "rerun devrites uninstall after you restore or delete them, or with --force",
  },
  "install.path-unreadable": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a path devrites would install to cannot be inspected or read; nothing was installed",
    hint: "fix the permissions on the path named, then rerun",
  },
  "install.path-not-dir": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a folder devrites must create is taken by a file; nothing was installed",
    hint: "move the file away so the folder can be created",
  },
  "install.path-not-file": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a path devrites would write exists and is not a regular file; nothing was installed",
    hint: "move it away and rerun",
  },
  "install.symlink-outside": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a path devrites would write is a symlink leading outside this repository; nothing was installed",
    hint: "devrites never writes outside the repository; replace the link with a real folder or file",
  },
  "install.locked": {
    severity: "error",
    exit: ExitCode.Busy,
    summary: "another devrites process is installing into this repository",
    hint: "wait for it to finish and rerun; if no such process exists, the lock is taken over automatically",
  },
  "install.not-git": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the install target is not a git repository",
    hint: "devrites installs into a git repository: run `git init` there first",
  },
  "install.target-not-toplevel": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the install target is inside a repository, not its top level",
    hint: "install at the top level of the repository",
  },
  "install.target-invalid": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the install target is not a directory",
    hint: "pass --target DIR",
  },
  "install.target-symlink-outside": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the install target goes through a symlink that leads outside the repository",
    hint: "pass the real path if that is the repository you mean",
  },
  "install.target-home": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the install target is the home folder or the file system root",
    hint: "devrites installs into a project repository; ~/.claude and ~/.codex are the hosts' user settings",
  },
  "install.file-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a file devrites installed and manages is gone",
    hint: "a managed file is never edited by hand: run devrites update to write it again, or restore it",
  },
  "install.file-changed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a file devrites installed and manages was changed (or replaced by a symlink) since devrites wrote it",
    hint: "a managed file is never edited by hand: run devrites update to write it again, or restore it",
  },
} as const satisfies Record<string, CodeEntry>;
