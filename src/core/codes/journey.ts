/** The `journey.*` diagnostics (emitted from src/cli/commands, src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const journeyCodes = {
  "journey.bad-rite": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "…: not a rite name: …",
  },
  "journey.bad-role": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "….packets[…]: unknown role …",
  },
  "journey.blocked": {
    severity: "error",
    exit: ExitCode.HumanGate,
    summary: "a journey step hit a technical blocker it cannot retry past",
    hint: "fix the cause the blocker names; this is not a question for a human",
  },
  "journey.empty-dispatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "…: a dispatch step needs packets",
  },
  "journey.empty-question": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "…: the gate has no question",
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
    summary: "….packets[…]: a read-only role cannot have writes",
  },
  "journey.unknown": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "no journey has this name",
  },
  "journey.unknown-driver": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "no journey driver has this name",
  },
} as const satisfies Record<string, CodeEntry>;
