/** The `cli.*` diagnostics (emitted from src/cli, src/cli/commands). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const cliCodes = {
  "cli.internal": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "internal error: a command could not be loaded",
    hint: "this is a bug in devrites (or a broken install); please report it with the command you ran",
  },
  "cli.unknown-command": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "The command line does not start with the name of a devrites command.",
    hint: "run `devrites --help` for the list of commands",
  },
  "cli.usage": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "the command line is wrong: a flag or argument is missing, unknown or malformed",
    hint: "run `devrites <command> --help` for the command's flags",
  },
} as const satisfies Record<string, CodeEntry>;
