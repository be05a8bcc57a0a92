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
    summary:
      "An agent packet or result lacks a field its schema requires; the message names the field and what it expects.",
    hint: "add the field the message names; if a similarly spelt field is there, rename it",
  },
  "envelope.not-object": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The packet or result file holds JSON that is not an object (an array, a string, a number or null).",
    hint: "the file must hold one JSON object: an agent-packet/v1 or an agent-result/v1",
  },
  "envelope.schema": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A field of an agent packet or result has a value its schema does not allow (wrong type, out of range, not one of the allowed values), or the input could not be checked at all.",
    hint: "give the field at the path named a value of the kind the message expects; the input must be plain JSON data",
  },
  "envelope.unknown-field": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "An agent packet or result has a field its schema does not list; envelopes are closed.",
    hint: "remove the field; envelopes are strict and take only the fields their schema lists",
  },
  "envelope.version": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The envelope's version field (`packet_version`, `result_version`) names a version this devrites does not read.",
    hint: "write the version the schema names (the message lists the supported ones)",
  },
} as const satisfies Record<string, CodeEntry>;
