/**
 * How a run leaves `state.active_runs` other than by being accepted:
 *
 * - **superseded**: `devrites packet new` retires, as it registers the new run, every older active run it
 *   replaces (`supersededBy`): for the wright, every other active wright run (one writer at a time: two active
 *   wright packets would make the guard deny every write with `guard.ambiguous-packet`); for a read-only role,
 *   the active runs of the same rite and role whose last verdict was `rejected` (the retry of a rejected leaf).
 *   Read-only runs still out, or accepted, are left alone: up to three may run at once.
 * - **abandoned**: `devrites run abandon <run-id> [--reason …]`, for a run the root gives up on (a lost leaf,
 *   a malformed result from an older devrites).
 *
 * A rejected run stays active until then: its leaf may still correct its result once (the SubagentStop hook
 * blocks a rejected leaf so that it can). Each retirement is an event in the run's ledger (`run.superseded`
 * with `by`, or `run.abandoned` with `reason`); a retired run's stored result is kept as the record and is
 * reported, never failed, by `devrites validate`; `result record` refuses it (`record.run-not-active`).
 */

import { type Diagnostic, ExitCode, error } from "../core/diagnostics.js";
import { isRunId } from "../envelope/ids.js";
import { tamperedRecordsWarning, writeStateJournaled } from "./records-journal.js";
import { appendEvent, listRunDirs, readRunEvents, readState, workspacePaths } from "./workspace.js";
import type { ActiveRun, RunEvent } from "./workspace-types.js";

export const WRIGHT_ROLE = "devrites-slice-wright";

/** Event types that retire a run. */
export const RETIRED_EVENTS = ["run.superseded", "run.abandoned"] as const;

/** The last verdict `result check` recorded for a run, from its events (pure). */
export function lastVerdict(events: readonly RunEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === "result.checked" && typeof e.data?.verdict === "string") return e.data.verdict;
  }
  return undefined;
}

/** Whether a run's events retire it (superseded or abandoned) (pure). */
export function isRetired(events: readonly RunEvent[]): boolean {
  return events.some((e) => (RETIRED_EVENTS as readonly string[]).includes(e?.type));
}

/** The active runs a new packet for `role` in `rite` replaces (pure; see the module comment). */
export function supersededBy(
  active: readonly ActiveRun[],
  next: { role: string; rite: string },
  verdictOf: (runId: string) => string | undefined,
): ActiveRun[] {
  if (next.role === WRIGHT_ROLE) return active.filter((r) => r.role === WRIGHT_ROLE);
  const prefix = `${next.rite}/${next.role}#`;
  return active.filter(
    (r) => r.role === next.role && r.step_id.startsWith(prefix) && verdictOf(r.run_id) === "rejected",
  );
}

/** `supersededBy` over the workspace's ledgers. */
export function readSuperseded(
  root: string,
  active: readonly ActiveRun[],
  next: { role: string; rite: string },
) {
  return supersededBy(active, next, (id) => lastVerdict(readRunEvents(root, id).values));
}

/** Append `run.superseded` to each replaced run's ledger (the caller has already removed it from the state). */
export function recordSuperseded(root: string, runs: readonly ActiveRun[], by: string, now: Date): void {
  for (const r of runs) {
    appendEvent(root, {
      ts: now.toISOString(),
      run_id: r.run_id,
      type: "run.superseded",
      data: { role: r.role, step_id: r.step_id, by },
    });
  }
}

export interface AbandonOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  data?: { run_id: string; role: string; step_id: string; reason: string | null; active_runs: number };
}

/** `devrites run abandon <run-id> [--reason R]`: take an active run out of the active set, on record. */
export function abandonRun(opts: {
  root: string;
  runId: string;
  reason?: string | undefined;
  now: Date;
}): AbandonOutcome {
  const { root, runId, now } = opts;
  if (!isRunId(runId))
    return {
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("input.invalid", `${JSON.stringify(runId)} is not a run id`, {
          hint: "expected run-<YYYYMMDD>T<HHMMSS>Z-<8 hex>, as `devrites status` lists them",
        }),
      ],
    };
  const reason = opts.reason?.trim();
  if (opts.reason !== undefined && !reason)
    return {
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("input.invalid", "--reason is blank", {
          hint: "say in a few words why, or leave --reason out",
        }),
      ],
    };
  const state = readState(root, now.toISOString());
  if (!state.ok) return { exitCode: ExitCode.Violation, diagnostics: state.diagnostics };
  const run = state.state.active_runs.find((r) => r.run_id === runId);
  if (!run) {
    const known = listRunDirs(root).includes(runId);
    return known
      ? {
          exitCode: ExitCode.Violation,
          diagnostics: [
            error(
              "run.not-active",
              `run ${runId} is not active (accepted, superseded or abandoned already)`,
              {
                path: workspacePaths.state,
                hint: "`devrites status` lists the active runs",
              },
            ),
          ],
        }
      : {
          exitCode: ExitCode.MissingInput,
          diagnostics: [
            error("run.unknown", `no run ${runId} in this workspace`, {
              path: workspacePaths.runDir(runId),
              hint: "`devrites status` lists the active runs",
            }),
          ],
        };
  }
  appendEvent(root, {
    ts: now.toISOString(),
    run_id: runId,
    type: "run.abandoned",
    data: { role: run.role, step_id: run.step_id, reason: reason ?? null },
  });
  // judged before the write below, which is not journaled for the run it retires
  const forged = tamperedRecordsWarning(root, runId, "was abandoned");
  const remaining = state.state.active_runs.filter((r) => r.run_id !== runId);
  writeStateJournaled(
    root,
    { ...state.state, active_runs: remaining, updated_at: now.toISOString() },
    state.sha256,
  );
  return {
    exitCode: ExitCode.Ok,
    diagnostics: forged,
    data: {
      run_id: runId,
      role: run.role,
      step_id: run.step_id,
      reason: reason ?? null,
      active_runs: remaining.length,
    },
  };
}
