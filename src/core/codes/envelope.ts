/** The `envelope.*` diagnostics (emitted from src/envelope). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const envelopeCodes = {
  "envelope.malformed-json": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the text is not valid JSON; the line and a hint point at the first fault",
    hint: "fix the JSON at the line given; the hint there names the first fault",
  },
  "envelope.missing-field": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "at …: expected … (required field), got nothing",
    hint: "add the required field the message names",
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
    hint: "remove the field; envelopes are strict and take only the fields their schema lists",
  },
  "envelope.version": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "at …: expected a supported version (…), got …",
    hint: "write the version the schema names (the message lists the supported ones)",
  },
} as const satisfies Record<string, CodeEntry>;
