/** The `event.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const eventCodes = {
  "event.data-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a run ledger event's data does not have the shape its type requires",
    hint: "the ledger is written by devrites alone; restore it from version control or abandon the run",
  },
  "event.invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A line of a run's ledger (.devrites/runs/<run>/events.jsonl) is not a run event: a field every event has is missing or has the wrong type.",
    hint: "the ledger is written by devrites alone; restore it from version control or abandon the run",
  },
  "event.run-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "An event in one run's ledger names another run id (an event was copied or moved between runs).",
    hint: "the ledger is written by devrites alone; restore it from version control or abandon the run",
  },
} as const satisfies Record<string, CodeEntry>;
