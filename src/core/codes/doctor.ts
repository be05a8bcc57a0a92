/** The `doctor.*` diagnostics (emitted from src/doctor). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const doctorCodes = {
  "doctor.host-absent": {
    severity: "info",
    exit: ExitCode.Ok,
    summary:
      "a host named on the command line (or found by default) is not installed; its probes were skipped",
    hint: "install the host, or pass its path, to probe it",
  },
  "doctor.host-not-found": {
    severity: "error",
    exit: "varies",
    summary:
      "The host binary given (or looked for on PATH) is not an executable file; `devrites doctor` exits 5 when no host could be probed at all, 1 when another host was.",
    hint: 'give the path of the host\'s executable (e.g. --claude "$(command -v claude)")',
  },
  "doctor.host-unusable": {
    severity: "error",
    exit: "varies",
    summary:
      "The host binary does not answer `--version` as expected; `devrites doctor` exits 5 when no host could be probed at all, 1 when another host was.",
    hint: "check that the path is the host's CLI and that it runs on its own",
  },
  "doctor.probe-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a probe that devrites relies on failed on this host; the message names the probe and what it saw",
    hint: "follow the fix the message gives; devrites refuses to rely on this host version until doctor passes",
  },
  "doctor.probe-warning": {
    severity: "info",
    exit: ExitCode.Ok,
    summary: "a probe that devrites does not rely on failed or could not run on this host",
    hint: "nothing devrites relies on is affected; follow the fix the message gives if you need the feature",
  },
} as const satisfies Record<string, CodeEntry>;
