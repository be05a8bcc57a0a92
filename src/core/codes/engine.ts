/** The `engine.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const engineCodes = {
  "engine.driver-error": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the journey driver failed while dispatching a step",
    hint: "see the driver's message; run `devrites resume` once the cause is fixed",
  },
  "engine.no-result": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the driver accepted a result it did not return",
    hint: "a bug in the driver: it must return the result it accepted; report it",
  },
  "engine.locked": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "Another devrites process holds the engine lock (.devrites/engine.lock) and is driving a journey in this workspace; `devrites resume` refuses with exit 1.",
    hint: "wait for it to finish; if no such process exists, remove the lock file",
  },
} as const satisfies Record<string, CodeEntry>;
