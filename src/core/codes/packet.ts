/** The `packet.*` diagnostics (emitted from src/packet). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const packetCodes = {
  "packet.anchor-unwritable": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites packet new` could not write the run's anchor (the record, out of the leaf's reach, that binds the packet to its baseline), so no run was created.",
    hint: "the anchor goes under the git folder, or .devrites/anchors when that is read-only: make one of them writable for this command",
  },
  "packet.exists": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "The engine asked for a packet for a run id that already has one; a packet is written once.",
    hint: "read the existing packet instead of writing another",
  },
  "packet.superseded": {
    severity: "info",
    exit: ExitCode.Ok,
    summary:
      "A new packet for a rite and role retired the active run of the same rite and role; that run can no longer record a result.",
    hint: "dispatch the new packet",
  },
} as const satisfies Record<string, CodeEntry>;
