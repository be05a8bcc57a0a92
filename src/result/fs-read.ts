import { readFileSync } from "node:fs";
import { type Diagnostic, ExitCode, error } from "../core/diagnostics.js";

export type TextRead =
  | { ok: true; text: string }
  | { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] };

export type BytesRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] };

/**
 * Read a required input file's bytes, exactly (no decoding: a stored record is judged by what is on disk,
 * and `decodeUtf8Strict` refuses what is not UTF-8). Failures as `readInput`.
 */
export function readInputBytes(abs: string, shown: string, what: string): BytesRead {
  try {
    return { ok: true, bytes: readFileSync(abs) };
  } catch (e) {
    return readFailure(e, shown, what);
  }
}

/**
 * Read a required input file as UTF-8. Missing → exit 5 (`input.missing`); a directory where a file was
 * expected → exit 2 (`input.invalid`); any other read failure → exit 1 (`input.unreadable`).
 * `shown` is the path as the diagnostics print it; `what` names the expected file ("the result file").
 */
export function readInput(abs: string, shown: string, what: string): TextRead {
  try {
    return { ok: true, text: readFileSync(abs, "utf8") };
  } catch (e) {
    return readFailure(e, shown, what);
  }
}

function readFailure(
  e: unknown,
  shown: string,
  what: string,
): { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] } {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return {
      ok: false,
      exitCode: ExitCode.MissingInput,
      diagnostics: [
        error("input.missing", `${what} does not exist`, {
          path: shown,
          hint: `expected ${what} at this path`,
        }),
      ],
    };
  }
  if (code === "EISDIR") {
    return {
      ok: false,
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("input.invalid", `${shown} is a directory; expected ${what}`, {
          path: shown,
          hint: `name ${what} itself`,
        }),
      ],
    };
  }
  return {
    ok: false,
    exitCode: ExitCode.Violation,
    diagnostics: [
      error("input.unreadable", `${what} cannot be read: ${(e as Error).message}`, {
        path: shown,
        hint: "check its permissions",
      }),
    ],
  };
}
