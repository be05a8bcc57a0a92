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
    summary: "not a run event: …",
    hint: "the ledger is written by devrites alone; restore it from version control or abandon the run",
  },
  "event.run-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "event of run … in the ledger of …",
    hint: "the ledger is written by devrites alone; restore it from version control or abandon the run",
  },
} as const satisfies Record<string, CodeEntry>;
