/** The `journey.*` diagnostics (emitted from src/cli/commands, src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const journeyCodes = {
  "journey.bad-rite": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A step of a journey definition names a rite that is not a rite name (`rite` or `rite-<name>`); the engine refuses to run the journey.",
    hint: "name a rite the pack defines (`rite` or `rite-<name>`)",
  },
  "journey.bad-role": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A dispatch step of a journey definition names a role that is not a devrites role; the engine refuses to run the journey.",
    hint: "use a role listed in src/envelope/roles.ts",
  },
  "journey.blocked": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A journey step hit a technical blocker it cannot retry past; `devrites resume` stops with exit 1 (it is not a human gate).",
    hint: "fix the cause the blocker names; this is not a question for a human",
  },
  "journey.empty-dispatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A dispatch step of a journey definition lists no packets; the engine refuses to run the journey.",
    hint: "give the dispatch step at least one packet",
  },
  "journey.empty-question": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A gate step of a journey definition has no question for the human; the engine refuses to run the journey.",
    hint: "give the gate the question a human must answer",
  },
  "journey.in-progress": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a journey is already in progress in this workspace",
    hint: "run `devrites resume` to continue it",
  },
  "journey.reader-writes": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A dispatch step of a journey definition gives write paths to a read-only role; the engine refuses to run the journey.",
    hint: "give writes only to devrites-slice-wright; read-only roles describe changes instead",
  },
  "journey.unknown": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A journey was started under a name no registered journey has; the start is refused like any refused engine run (exit 1).",
    hint: "name a journey this devrites knows",
  },
  "journey.unknown-driver": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A journey was started with a driver name no registered driver has; the start is refused like any refused engine run (exit 1).",
    hint: "name a driver this devrites knows",
  },
} as const satisfies Record<string, CodeEntry>;
