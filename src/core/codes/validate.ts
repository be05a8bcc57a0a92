/** The `validate.*` diagnostics (emitted from src/validate-repo). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const validateCodes = {
  "validate.adapters-unchecked": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "the pack has lint errors, so the generated files were not compared",
    hint: "fix the pack lint errors reported beside this; the generated files are compared once it lints",
  },
  "validate.git-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "`devrites validate --staged` could not list the staged files: a git command failed.",
    hint: "check the repository with git status",
  },
  "validate.not-git": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites validate --staged` ran outside a git repository.",
    hint: "run it inside the repository, or drop --staged",
  },
  "validate.nothing-evaluated": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites validate --staged` found staged files, but none of them is anything devrites checks here, so the commit was checked by nothing.",
    hint: "nothing to do if the commit touches no devrites files; otherwise stage the files devrites checks",
  },
  "validate.nothing-to-check": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "nothing here for devrites to check",
    hint: "no pack/.claude, no generated adapters, no .devrites/ workspace: run devrites init first",
  },
  "validate.overlay-broken": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The devrites pack with this repository's customised files (.devrites/pack/) laid over it does not lint, so the generated files were not compared with it.",
    hint: "fix the files the errors name under .devrites/pack/, or remove them to use devrites' own",
  },
  "validate.pack-removed": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "The pack folder (pack/.claude) is gone, so there is no pack left to lint.",
    hint: "nothing to do if the pack was removed on purpose",
  },
  "validate.package-pack-broken": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the installed devrites' own pack does not lint; drift was not checked",
    hint: "reinstall devrites",
  },
  "validate.partially-staged": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary:
      "Some staged files also have unstaged changes; devrites checked the working-tree version, which is not exactly what is committed.",
    hint: "stage them fully (or stash the rest) so what is checked is what is committed",
  },
  "validate.staged-unverified": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A staged file is in the write scope of an active run that has no accepted result yet, so the leaf may still change it.",
    hint: "run devrites result check on the run's result first (or abandon the run), then commit",
  },
} as const satisfies Record<string, CodeEntry>;
