/** The `decision.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const decisionCodes = {
  "decision.invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "not a decision record: …",
  },
  "decision.unknown-qid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "decision … cites question …, which was never raised",
  },
  "decision.unknown-run": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "decision … cites run …, which does not exist",
  },
} as const satisfies Record<string, CodeEntry>;
