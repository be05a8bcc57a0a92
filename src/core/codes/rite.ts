/** The `rite.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const riteCodes = {
  "rite.none-active": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "no rite is active; nothing to end",
    hint: "nothing to do",
  },
  "rite.other-active": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "another rite is active; nothing was changed",
    hint: "end the rite that is active (devrites rite end <rite>), then start the other",
  },
} as const satisfies Record<string, CodeEntry>;
