/** The `decision.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const decisionCodes = {
  "decision.invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "not a decision record: …",
    hint: "decision records are written by devrites; restore the file from version control or remove the bad line",
  },
  "decision.unknown-qid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "decision … cites question …, which was never raised",
    hint: "cite a question id that `devrites ask` raised in this workspace",
  },
  "decision.unknown-run": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "decision … cites run …, which does not exist",
    hint: "cite a run id that exists under .devrites/runs/",
  },
} as const satisfies Record<string, CodeEntry>;
