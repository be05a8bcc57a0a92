/** The `run.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const runCodes = {
  "run.empty": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "A run folder under .devrites/runs/ holds no files at all.",
    hint: "abandon the run (devrites run abandon <run-id>) or write its packet again",
  },
  "run.not-active": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites run abandon` named a run that exists but is no longer active (already accepted, superseded or abandoned).",
    hint: "`devrites status` lists the active runs",
  },
  "run.result-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a run's stored result.json cannot be read as an agent-result/v1",
    hint: "the result is stored by devrites result record; record the leaf's result again, or abandon the run",
  },
  "run.unknown": {
    severity: "error",
    exit: "varies",
    summary:
      "A run id names no run: `devrites run abandon` was given one with no folder in this workspace (exit 5), or `devrites validate` found a result.json for a run with neither a packet nor a recorded intent (exit 1).",
    hint: "`devrites status` lists the active runs; a result must answer a packet written by devrites packet new",
  },
  "run.result-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a run's result.json names another run (a warning when the run was given up)",
    hint: "devrites run abandon <run-id> gives the run up; a fresh packet redoes the step",
  },
} as const satisfies Record<string, CodeEntry>;
