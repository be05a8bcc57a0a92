/**
 * Types of the `.devrites/` workspace records. Like the envelopes, these types are the schema source:
 * `npm run schemas` generates `schemas/devrites-state.v1.schema.json` and `schemas/run-event.v1.schema.json`.
 */

import type { RoleName } from "../envelope/roles.js";
import type { Phase, RepoPath, RunId, Timestamp } from "../envelope/types.js";

export const STATE_SCHEMA = "devrites-state/v1";

/** A run between `devrites packet new` and its accepted (or abandoned) result. */
export interface ActiveRun {
  run_id: RunId;
  role: RoleName;
  /**
   * Composite step id `<rite>/<role>#<n>`.
   * @pattern ^rite(-[a-z0-9]+)*\/devrites-[a-z0-9-]+#[0-9]+$
   */
  step_id: string;
  /** Repository-relative path of the packet. */
  packet_path: RepoPath;
  created_at: Timestamp;
}

/** `.devrites/state.json`: where the journey stands. Rewritten atomically; the history is in the event logs. */
export interface WorkspaceState {
  schema: "devrites-state/v1";
  /** The rite the journey is in, or null when idle. */
  active_rite: string | null;
  phase: Phase | null;
  active_runs: ActiveRun[];
  updated_at: Timestamp;
}

/** One line of `.devrites/runs/<run-id>/events.jsonl`. Append-only; never rewritten. */
export interface RunEvent {
  /** When it happened. */
  ts: Timestamp;
  run_id: RunId;
  /** What happened, e.g. `packet.created`, `guard.decision`, `result.recorded`, `result.checked`. */
  type: string;
  /** Event-specific fields. */
  data: Record<string, unknown>;
}
