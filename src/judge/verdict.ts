import { type Diagnostic, ExitCode, hasErrors } from "../core/diagnostics.js";

export type Verdict = "accepted" | "rejected" | "gate";

/**
 * The verdict of a check: any error rejects; otherwise a raised gate pauses for a human; otherwise the
 * result is accepted. Fails closed: only the absence of every error accepts.
 */
export function verdictOf(diagnostics: readonly Diagnostic[]): Verdict {
  if (hasErrors(diagnostics)) return "rejected";
  if (diagnostics.some((d) => d.code === "result.gate")) return "gate";
  return "accepted";
}

export function exitCodeOf(verdict: Verdict): ExitCode {
  switch (verdict) {
    case "accepted":
      return ExitCode.Ok;
    case "gate":
      return ExitCode.HumanGate;
    default:
      return ExitCode.Violation;
  }
}

/** The distinct codes of the diagnostics, sorted: what the `result.checked` event records. */
export function codesOf(diagnostics: readonly Diagnostic[]): string[] {
  return [...new Set(diagnostics.map((d) => d.code))].sort();
}
