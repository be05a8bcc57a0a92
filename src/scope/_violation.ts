import type { ScopeRule, ScopeViolation } from "./types.js";

export const SCOPE_HINTS: Record<ScopeRule, string> = {
  "scope.empty": "give a repository-relative file path such as src/app.ts",
  "scope.nul": "remove the NUL byte; paths cannot contain it",
  "scope.control-char":
    "remove control, line-separator, bidirectional-override or unpaired-surrogate characters from the path",
  "scope.too-long": "use a path of at most 4096 UTF-8 bytes",
  "scope.absolute": "use a path relative to the repository root, e.g. src/app.ts instead of /src/app.ts",
  "scope.drive":
    "drive paths (C:x, c:\\x) are not repository paths; use a relative path with forward slashes",
  "scope.unc": "UNC and device paths (\\\\server\\share, \\\\?\\C:\\x, //host/x) are not repository paths",
  "scope.backslash":
    "use forward slashes; a backslash is a separator on Windows and a name character elsewhere",
  "scope.traversal": "remove `..` segments; name the file by its path from the repository root",
  "scope.dot-segment": "remove `.` segments; write the canonical path (a/b, not a/./b)",
  "scope.empty-segment": "remove the doubled slash (a/b, not a//b)",
  "scope.trailing-slash": "name a file, not a directory: remove the trailing slash",
  "scope.git": "nothing inside .git (in any spelling) may be listed, read as scope or written by a leaf",
  "scope.devrites": "the .devrites/ workspace is written only by the devrites CLI",
  "scope.glob":
    "list exact files; wildcards (* ?) and brace expansion ({a,b}) are not expanded and are not allowed",
  "scope.outside-root": "the path must be inside the repository root",
  "scope.symlink-escape":
    "a symlink on this path leads outside the repository or into .git/.devrites; name the real file",
  "scope.not-a-file": "list a file: directories, the repository root and special files cannot be allowlisted",
  "scope.duplicate": "list each path once",
  "scope.unresolvable":
    "the path could not be resolved on disk (symlink loop, permissions or I/O error); fix it or drop it",
};

export const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/** A printable rendering of an input: control and invisible characters become `\u{…}`, long inputs are cut. */
export function show(input: string): string {
  // printable ASCII has nothing to escape; skipping the replace spares building its Unicode sets
  const escaped = PRINTABLE_ASCII.test(input)
    ? input
    : input.replace(
        /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Default_Ignorable_Code_Point}\p{Cs}\u061c\u202a-\u202e\u2066-\u2069]/gu,
        (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`,
      );
  return escaped.length > 160 ? `"${escaped.slice(0, 160)}…" (${input.length} chars)` : `"${escaped}"`;
}

export function violation(rule: ScopeRule, input: string, message: string): ScopeViolation {
  return { rule, input, message, hint: SCOPE_HINTS[rule] };
}

export function reject(
  rule: ScopeRule,
  input: string,
  message: string,
): { ok: false; violation: ScopeViolation } {
  return { ok: false, violation: violation(rule, input, message) };
}
