/** The `generate.*` diagnostics (emitted from src/hosts, src/hosts/claude, src/hosts/codex). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const generateCodes = {
  "generate.asset-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a skill asset was not read",
    hint: "pass the asset's text in PlanInput.assets",
  },
  "generate.cli-bundle-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the one-file CLI bin/devrites.cjs does not exist",
    hint: "npm run build",
  },
  "generate.codex-vocabulary": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary:
      "A file generated for Codex still holds wording that only makes sense in Claude Code (a Claude-only tool or feature name).",
    hint: "reword the pack text host-neutrally, or add a rule to the Codex vocabulary table",
  },
  "generate.delete-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites generate` could not delete a file it no longer generates (permissions or an I/O error).",
    hint: "fix the permissions on the file named, then generate again",
  },
  "generate.hand-edit-overwritten": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "a hand edit to a generated file was replaced",
    hint: "make the change in the pack (pack/.claude) so it survives generation",
  },
  "generate.hand-edited": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a generated file was edited by hand",
    hint: "edit the pack (pack/.claude) instead and run devrites generate; the diff shows the edit",
  },
  "generate.hook-bundle-missing": {
    severity: "error",
    exit: ExitCode.MissingInput,
    summary:
      "A hook bundle the adapters need (hooks/<entry> in the devrites package) does not exist, so nothing was written; `generate`, `init` and `update` exit 5.",
    hint: "build the package's hook bundles (npm run build), or reinstall devrites",
  },
  "generate.json-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a JSON file devrites merges into is not valid JSON; nothing was written",
    hint: "fix the file by hand (devrites never overwrites a file it cannot read), then generate again",
  },
  "generate.manifest-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the generated-files manifest cannot be read",
    hint: "delete the manifest and the files it listed, then generate again",
  },
  "generate.marker-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A file devrites merges a block into (such as AGENTS.md) holds devrites' begin and end markers in the wrong number or order, so its block cannot be found.",
    hint: "keep exactly one devrites begin/end marker pair, or delete both",
  },
  "generate.missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a generated file is missing",
    hint: "run devrites generate",
  },
  "generate.orphan-kept": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "a file devrites no longer generates was edited; it is kept, untracked",
    hint: "delete it if you do not need it",
  },
  "generate.orphaned": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a previously generated file is no longer produced",
    hint: "run devrites generate to delete it (or keep it: a hand-edited orphan is kept and reported)",
  },
  "generate.path-conflict": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "two adapters plan different content for one file",
    hint: "a bug in the adapters: two of them plan one file; report it",
  },
  "generate.path-not-dir": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "a folder devrites generates into is taken by something that is not a folder",
    hint: "move the file away so the generated folder can be created",
  },
  "generate.path-not-file": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "a path devrites generates exists and is not a regular file",
    hint: "move it away so the generated file can be written",
  },
  "generate.path-outside": {
    severity: "error",
    exit: ExitCode.Usage,
    summary:
      "An output path resolves to the target folder itself or outside it (the second line of defence behind the lexical path rules); `devrites generate` refuses it with exit 2.",
    hint: "generated files are written only inside the target directory",
  },
  "generate.path-symlink": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "a path devrites generates is a symlink",
    hint: "generated files are never written through symlinks; replace the link with a real folder or file",
  },
  "generate.path-unreadable": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A path `devrites generate` writes could not be inspected (permissions or an I/O error).",
    hint: "fix the permissions on the path named, then generate again",
  },
  "generate.path-unsafe": {
    severity: "error",
    exit: ExitCode.Usage,
    summary:
      "An adapter planned an output path that breaks the scope rules (absolute, with `..`, a glob, or inside .git); `devrites generate` refuses it with exit 2.",
    hint: "a bug in an adapter: the message names the rule the path broke; report it",
  },
  "generate.read-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites generate` could not read a file it compares or merges into (permissions or an I/O error).",
    hint: "fix the permissions on the file named, then generate again",
  },
  "generate.root-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "An adapter planned a devrites-owned file outside the folder (root) it is recorded under; a bug in the adapters.",
    hint: "a bug in an adapter: it plans an owned file outside its root; report it",
  },
  "generate.stale": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a generated file is out of date, or a file devrites generates holds other content",
    hint: "run devrites generate",
  },
  "generate.write-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites generate` could not write a generated file (permissions, a full disk or an I/O error).",
    hint: "fix the permissions or free space for the file named, then generate again",
  },
  "generate.target-invalid": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the generate target is not a directory, or no repository root was found from here",
    hint: "pass --target DIR",
  },
} as const satisfies Record<string, CodeEntry>;
