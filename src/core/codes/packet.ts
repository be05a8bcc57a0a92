/** The `packet.*` diagnostics (emitted from src/packet). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const packetCodes = {
  "packet.anchor-unwritable": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "cannot write the run's anchor: …",
    hint: "the anchor goes under the git folder, or .devrites/anchors when that is read-only: make one of them writable for this command",
  },
  "packet.exists": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "run … already has a packet; a packet is written once",
    hint: "read the existing packet instead of writing another",
  },
  "packet.superseded": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "run … (…) is superseded by …",
    hint: "its leaf can no longer record a result; the new packet is the one to dispatch",
  },
} as const satisfies Record<string, CodeEntry>;
