/** The `ledger.*` diagnostics (emitted from src/hooks, src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const ledgerCodes = {
  "ledger.append-failed": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary:
      "The guard hook decided on a tool call but could not append its decision to the run's ledger (an I/O error); the decision stood.",
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
    summary:
      "Two runs in the ledgers record the same attempt of one journey step (two engines dispatched it at once); the first run stands, the other is ignored.",
    hint: "two engines ran at once; the first run stands",
  },
} as const satisfies Record<string, CodeEntry>;
