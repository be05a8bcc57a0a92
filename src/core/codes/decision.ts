/** The `decision.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const decisionCodes = {
  "decision.invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A line of .devrites/decisions.jsonl is not a well-formed decision record: a field is missing or has the wrong type.",
    hint: "decision records are written by devrites; restore the file from version control or remove the bad line",
  },
  "decision.unknown-qid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A decision record in .devrites/decisions.jsonl cites a question id that no `devrites ask` (or journey gate) raised in this workspace.",
    hint: "devrites writes both files: restore .devrites/decisions.jsonl and .devrites/questions.jsonl from version control (a raised line may have been removed)",
  },
  "decision.unknown-run": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A decision record in .devrites/decisions.jsonl cites a run id that has no folder under .devrites/runs/.",
    hint: "restore the run's folder (or decisions.jsonl) from version control; devrites writes both",
  },
} as const satisfies Record<string, CodeEntry>;
