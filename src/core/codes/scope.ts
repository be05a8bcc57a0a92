/**
 * The scope rules (`src/scope`): why a path was refused as an allowlist entry, a packet path or a guard write
 * target. The standing hints live beside the rules (`SCOPE_HINTS`), which the guard bundle carries.
 */

import { SCOPE_HINTS } from "../../scope/_violation.js";
import type { ScopeRule } from "../../scope/types.js";
import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

const SUMMARIES: Record<ScopeRule, string> = {
  "scope.empty": "the path is empty",
  "scope.nul": "the path holds a NUL byte",
  "scope.control-char":
    "the path holds a control, line-separator, bidirectional-override or unpaired-surrogate character",
  "scope.too-long": "the path is longer than 4096 UTF-8 bytes",
  "scope.absolute": "the path is absolute, not relative to the repository root",
  "scope.drive": "the path is a Windows drive path",
  "scope.unc": "the path is a UNC or device path",
  "scope.backslash": "the path holds a backslash",
  "scope.traversal": "the path has a `..` segment",
  "scope.dot-segment": "the path has a `.` segment",
  "scope.empty-segment": "the path has an empty segment (a doubled slash)",
  "scope.trailing-slash": "the path ends with a slash",
  "scope.git": "the path is inside .git (in any spelling)",
  "scope.devrites": "the path is inside the .devrites/ workspace",
  "scope.glob": "the path holds a wildcard or brace expansion",
  "scope.outside-root": "the path resolves outside the repository root",
  "scope.symlink-escape": "a symlink on the path leads outside the repository or into .git/.devrites",
  "scope.not-a-file": "the path names a directory, the repository root or a special file",
  "scope.duplicate": "the path is listed more than once",
  "scope.unresolvable": "the path cannot be resolved on disk (symlink loop, permissions or I/O error)",
};

function entries(): { [R in ScopeRule]: CodeEntry } {
  const out = {} as { [R in ScopeRule]: CodeEntry };
  for (const rule of Object.keys(SUMMARIES) as ScopeRule[]) {
    out[rule] = {
      severity: "error",
      exit: ExitCode.Usage,
      summary: SUMMARIES[rule],
      hint: SCOPE_HINTS[rule],
    };
  }
  return out;
}

export const scopeCodes = {
  ...entries(),
  "scope.submodule": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "an allowlist entry is inside a submodule or a nested repository",
    hint: "allowlist files of this repository only; work on the submodule in its own repository",
  },
} satisfies Record<ScopeRule | "scope.submodule", CodeEntry>;
