/** The `demo.*` diagnostics (emitted from src/cli/commands). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const demoCodes = {
  "demo.expectation-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a demo stage did not behave as the demo script expects",
    hint: "the demo is a check: this devrites does not behave as the script expects",
  },
} as const satisfies Record<string, CodeEntry>;
