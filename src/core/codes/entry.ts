import type { ExitCode, Severity } from "../diagnostics.js";

/** One catalogued diagnostic code: what it means, how bad it is, how the CLI exits on it, what to do. */
export interface CodeEntry {
  severity: Severity;
  /**
   * The exit code a command ends with when this is its deciding diagnostic: `ExitCode.Ok` for warnings and
   * notes (they fail no command, save the few the catalogue test lists); `"varies"` where different commands,
   * or different cases of one, end with different codes (the summary says which); `"hook"` for a guard rule,
   * which is answered to the host as a hook decision, not as an exit code. `exits.test.ts` pins a sample.
   */
  exit: ExitCode | "varies" | "hook";
  /** What the code means, in one line, for the catalogue and docs. */
  summary: string;
  /** The standing hint: what to do about it. Sites may pass a more specific one. */
  hint: string;
  /** Catalogued but emitted by no code today (kept so scripts matching on it stay valid). */
  reserved?: true;
}
