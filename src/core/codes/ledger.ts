/** The `ledger.*` diagnostics (emitted from src/hooks, src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const ledgerCodes = {
  "ledger.append-failed": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "could not record the guard decision for run …: …",
    hint: "the guard's decision stood; check that .devrites/ is writable so the next one is recorded",
  },
  "ledger.corrupt-line": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a run ledger line is not valid JSON, or the last line is incomplete (a torn write)",
    hint: "the ledger is append-only: leave the line in place; devrites skips it",
  },
  "ledger.duplicate-attempt": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "… attempt … has two runs",
    hint: "two engines ran at once; the first run stands",
  },
} as const satisfies Record<string, CodeEntry>;
