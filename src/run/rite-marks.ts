/**
 * Where the journey a host model drives stands: `state.active_rite` and `state.phase`, set when a rite starts
 * (`devrites rite start <rite>`, and by every `devrites packet new --rite <rite>`) and cleared when it ends
 * (`devrites rite end <rite>`). `status`, route stickiness, `resume` and the prompt context line read them.
 */

import { type Diagnostic, ExitCode, error, info } from "../core/diagnostics.js";
import { RITE_PATTERN } from "../envelope/ids.js";
import type { Phase } from "../envelope/types.js";
import { isPhase, PHASES } from "../packet/assemble.js";
import { writeStateJournaled } from "./records-journal.js";
import { readState, workspacePaths } from "./workspace.js";

export interface RiteMarkOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  data?: { active_rite: string | null; phase: string | null; changed: boolean };
}

/** The phase a rite named after one is in (`rite-build` → `build`). */
export function phaseOfRite(rite: string): Phase | undefined {
  const suffix = rite.slice("rite-".length);
  return isPhase(suffix) ? suffix : undefined;
}

function badRite(rite: string): Diagnostic | undefined {
  return RITE_PATTERN.test(rite)
    ? undefined
    : error("input.invalid", `${JSON.stringify(rite)} is not a rite name`, {
        hint: "expected rite-<name>, lowercase, e.g. rite-build",
      });
}

export function startRite(opts: {
  root: string;
  rite: string;
  phase?: string | undefined;
  now: Date;
}): RiteMarkOutcome {
  const bad = badRite(opts.rite);
  if (bad) return { exitCode: ExitCode.Usage, diagnostics: [bad] };
  if (opts.phase !== undefined && !isPhase(opts.phase))
    return {
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("input.invalid", `unknown phase ${JSON.stringify(opts.phase)}`, {
          hint: `expected one of ${PHASES.join(", ")}`,
        }),
      ],
    };
  const st = readState(opts.root, opts.now.toISOString());
  if (!st.ok) return { exitCode: ExitCode.Violation, diagnostics: st.diagnostics };
  const phase = (opts.phase as Phase | undefined) ?? phaseOfRite(opts.rite) ?? null;
  const changed = st.state.active_rite !== opts.rite || st.state.phase !== phase;
  if (changed)
    writeStateJournaled(
      opts.root,
      {
        ...st.state,
        active_rite: opts.rite,
        phase,
        updated_at: opts.now.toISOString(),
      },
      st.sha256,
    );
  return { exitCode: ExitCode.Ok, diagnostics: [], data: { active_rite: opts.rite, phase, changed } };
}

export function endRite(opts: { root: string; rite?: string | undefined; now: Date }): RiteMarkOutcome {
  if (opts.rite !== undefined) {
    const bad = badRite(opts.rite);
    if (bad) return { exitCode: ExitCode.Usage, diagnostics: [bad] };
  }
  const st = readState(opts.root, opts.now.toISOString());
  if (!st.ok) return { exitCode: ExitCode.Violation, diagnostics: st.diagnostics };
  const active = st.state.active_rite;
  if (active === null)
    return {
      exitCode: ExitCode.Ok,
      diagnostics: [info("rite.none-active", "no rite is active; nothing to end")],
      data: { active_rite: null, phase: st.state.phase, changed: false },
    };
  if (opts.rite !== undefined && opts.rite !== active)
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [
        error("rite.other-active", `${active} is active, not ${opts.rite}; nothing was changed`, {
          path: workspacePaths.state,
          hint: `end the rite that is active (devrites rite end ${active}), or start ${opts.rite}`,
        }),
      ],
    };
  writeStateJournaled(
    opts.root,
    { ...st.state, active_rite: null, phase: null, updated_at: opts.now.toISOString() },
    st.sha256,
  );
  return { exitCode: ExitCode.Ok, diagnostics: [], data: { active_rite: null, phase: null, changed: true } };
}
