/**
 * Errors as data. Every check in devrites returns diagnostics instead of throwing; the CLI maps them to
 * exit codes. Codes are stable strings (`area.rule`, kebab-case parts) that scripts may match on.
 */

/** CLI-wide exit codes. */
export const ExitCode = {
  /** Accepted / ok. */
  Ok: 0,
  /** A rule was violated (rejected result, lint error, drift). */
  Violation: 1,
  /** The command line was wrong: unknown flag, missing argument, bad target. */
  Usage: 2,
  /** A human decision is needed. A pause, not a crash. */
  HumanGate: 3,
  /** Another devrites process holds the lock on this target; try again when it is done. */
  Busy: 4,
  /** A required input file or directory does not exist. */
  MissingInput: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

import type { Code } from "./codes/index.js";

export type { Code } from "./codes/index.js";

export type Severity = "error" | "warning" | "info";

export interface Diagnostic {
  /** Stable machine code, e.g. `result.stale` or `scope.traversal`. */
  code: Code;
  severity: Severity;
  /** What is wrong, in one sentence. */
  message: string;
  /** The offending file or path, repo-relative where possible. */
  path?: string;
  /** 1-based line, where known. */
  line?: number;
  /** What to do about it. */
  hint?: string;
}

export function error(code: Code, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { code, severity: "error", message, ...extra };
}

export function warning(code: Code, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { code, severity: "warning", message, ...extra };
}

export function info(code: Code, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { code, severity: "info", message, ...extra };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Deterministic order for output: by path, then line, then code, then message. Stable for equal keys. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      cmp(a.path ?? "", b.path ?? "") ||
      (a.line ?? 0) - (b.line ?? 0) ||
      cmp(a.code, b.code) ||
      cmp(a.message, b.message),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One line per diagnostic, for humans: `error result.stale path: message (hint: …)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.path ? ` ${d.path}${d.line ? `:${d.line}` : ""}` : "";
  const hint = d.hint ? `\n    hint: ${d.hint}` : "";
  return `${d.severity} ${d.code}${where}: ${d.message}${hint}`;
}
