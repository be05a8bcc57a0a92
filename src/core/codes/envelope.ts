/** The `envelope.*` diagnostics (emitted from src/envelope). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const envelopeCodes = {
  "envelope.malformed-json": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the text is not valid JSON; the line and a hint point at the first fault",
  },
  "envelope.missing-field": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "at …: expected … (required field), got nothing",
  },
  "envelope.not-object": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "at …: expected a JSON object (the … envelope), got …",
    hint: "the file must hold one JSON object",
  },
  "envelope.schema": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the … envelope could not be checked: …",
    hint: "the input must be plain JSON data",
  },
  "envelope.unknown-field": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "at …: unknown field, got …",
  },
  "envelope.version": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "at …: expected a supported version (…), got …",
  },
} as const satisfies Record<string, CodeEntry>;
