/** The `resume.*` diagnostics (emitted from src/cli/commands, src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const resumeCodes = {
  "resume.nothing": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "nothing to resume: no journey is in progress",
    hint: "start a rite, or run `devrites status`",
  },
  "resume.unknown-journey": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the journey in progress is not known to this devrites",
    hint: "use the devrites version that started the journey",
  },
  "resume.unknown-driver": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the in-progress journey's driver is not known to this devrites",
    hint: "use the devrites version that started the journey",
  },
} as const satisfies Record<string, CodeEntry>;
