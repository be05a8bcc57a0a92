/**
 * Where the journey stands, for `devrites status` and the prompt hook: phase, active and recent runs with
 * their verdicts and guard strength, pending questions, technical blockers, and the one next action.
 * `summarizeStatus` is pure; `readStatus` gathers its input from the workspace (tolerantly: a corrupt ledger
 * line becomes a warning and is skipped, never repaired).
 */

import type { Diagnostic } from "../core/diagnostics.js";
import { isRoleName, type RoleName } from "../envelope/roles.js";
import { pendingQuestions, readQuestions } from "./questions.js";
import { listRunDirs, readRunEvents, readState } from "./workspace.js";
import { checkWorkspace } from "./workspace-check.js";
import type { JourneyRef, Question, RunEvent, WorkspaceState } from "./workspace-types.js";

/** How the commands `status` suggests are run: the launcher the install writes (see src/install/launcher.ts). */
const CLI = ".devrites/bin/devrites";

/** How many finished runs `status` lists. */
export const RECENT_RUNS = 8;

export type RunState =
  | "active"
  | "accepted"
  | "rejected"
  | "blocked"
  | "waiting"
  | "superseded"
  | "abandoned";

export interface RunSummary {
  run_id: string;
  role?: RoleName;
  step_id?: string;
  attempt?: number;
  state: RunState;
  /** From the last `result.checked` event. */
  verdict?: string;
  guard_strength?: string;
  /** The technical blocker, for `blocked` runs. */
  blocker?: string;
  /** Time of the last event. */
  updated_at?: string;
}

export type NextAction =
  | { kind: "answer"; text: string; command: string; qid: string }
  | { kind: "blocked"; text: string }
  | { kind: "await"; text: string; command?: string }
  | { kind: "resume"; text: string; command: string }
  | { kind: "continue"; text: string }
  | { kind: "start"; text: string };

export interface StatusView {
  active_rite: string | null;
  phase: string | null;
  journey: JourneyRef | null;
  active_runs: RunSummary[];
  recent_runs: RunSummary[];
  pending_questions: Question[];
  blocked_runs: RunSummary[];
  next: NextAction;
}

/** Summarise one run from its events (pure). */
export function summarizeRun(runId: string, events: readonly RunEvent[], active: boolean): RunSummary {
  const s: RunSummary = { run_id: runId, state: active ? "active" : "waiting" };
  for (const ev of events) {
    if (!ev || typeof ev !== "object" || typeof ev.type !== "string") continue;
    const d = (ev.data ?? {}) as Record<string, unknown>;
    if (typeof ev.ts === "string") s.updated_at = ev.ts;
    if (isRoleName(d.role) && !s.role) s.role = d.role;
    if (typeof d.step_id === "string" && !s.step_id) s.step_id = d.step_id;
    if (typeof d.attempt === "number" && !s.attempt) s.attempt = d.attempt;
    if (ev.type === "result.checked") {
      if (typeof d.verdict === "string") s.verdict = d.verdict;
      if (typeof d.guard_strength === "string") s.guard_strength = d.guard_strength;
      if (!active)
        s.state = d.verdict === "rejected" ? "rejected" : d.verdict === "accepted" ? "accepted" : s.state;
    }
    if (ev.type === "step.failed" && !active) s.state = "rejected";
    if (ev.type === "run.superseded" && !active) s.state = "superseded";
    if (ev.type === "run.abandoned" && !active) s.state = "abandoned";
    if (ev.type === "step.accepted") s.state = "accepted";
    if (ev.type === "step.blocked") {
      s.state = "blocked";
      s.blocker = `${String(d.reason ?? "blocked")}: ${String(d.detail ?? "")}`;
    }
  }
  return s;
}

/** The single next action (pure). Questions first: nothing moves while a human decision is open. */
export function nextAction(
  state: Pick<WorkspaceState, "active_rite" | "phase" | "active_runs" | "journey">,
  pending: readonly Question[],
  blocked: readonly RunSummary[] = [],
): NextAction {
  const q = pending[0];
  if (q) {
    const more = pending.length > 1 ? ` (${pending.length - 1} more pending)` : "";
    return {
      kind: "answer",
      qid: q.qid,
      text: `answer ${q.qid} (${q.kind}): ${q.question}${more}`,
      command: `${CLI} resolve ${q.qid} "<answer>"`,
    };
  }
  const journey = state.journey ?? null;
  if (journey?.status === "blocked") {
    const b = blocked[0];
    return {
      kind: "blocked",
      text: b
        ? `technical blocker on ${b.step_id ?? b.run_id}: ${b.blocker ?? "blocked"}; fix the cause before going on`
        : "the journey stopped at a technical blocker; see the blocked runs",
    };
  }
  const run = state.active_runs[0];
  if (run)
    return {
      kind: "await",
      text: `run ${run.role} with ${run.packet_path} and record its result${state.active_runs.length > 1 ? ` (${state.active_runs.length} runs out)` : ""}`,
      ...(journey && journey.status !== "done" ? { command: `${CLI} resume` } : {}),
    };
  if (journey && journey.status !== "done")
    return { kind: "resume", text: `continue journey ${journey.name}`, command: `${CLI} resume` };
  if (state.active_rite)
    return {
      kind: "continue",
      text: `continue ${state.active_rite}${state.phase ? ` (phase ${state.phase})` : ""}`,
    };
  return {
    kind: "start",
    text: "nothing in progress: start a rite (the rite skill shows the menu: /rite in Claude Code, $rite in Codex)",
  };
}

export interface StatusInput {
  state: WorkspaceState;
  runs: { run_id: string; events: RunEvent[] }[];
  questions: Question[];
}

/** Build the status view (pure). */
export function summarizeStatus(input: StatusInput): StatusView {
  const activeIds = new Set(input.state.active_runs.map((r) => r.run_id));
  const runs = input.runs.map((r) => summarizeRun(r.run_id, r.events, activeIds.has(r.run_id)));
  const active_runs = input.state.active_runs.map(
    (a) =>
      runs.find((r) => r.run_id === a.run_id) ?? {
        run_id: a.run_id,
        role: a.role,
        step_id: a.step_id,
        state: "active" as const,
      },
  );
  const finished = runs
    .filter((r) => !activeIds.has(r.run_id))
    .sort((a, b) => (a.run_id < b.run_id ? 1 : -1));
  const pending = pendingQuestions(input.questions);
  const blocked_runs = finished.filter((r) => r.state === "blocked");
  return {
    active_rite: input.state.active_rite,
    phase: input.state.phase,
    journey: input.state.journey ?? null,
    active_runs,
    recent_runs: finished.slice(0, RECENT_RUNS),
    pending_questions: pending,
    blocked_runs,
    next: nextAction(input.state, pending, blocked_runs),
  };
}

/**
 * Read the workspace and summarise it. A corrupt state.json is an error diagnostic (nothing else can be
 * trusted); corrupt ledger lines are warnings and are skipped.
 */
export function readStatus(
  root: string,
  now: string = new Date().toISOString(),
): { ok: true; view: StatusView; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] } {
  const st = readState(root, now);
  if (!st.ok) return { ok: false, diagnostics: st.diagnostics };
  // Every workspace defect (corrupt ledger lines, results for unknown runs, …), as warnings: status still
  // shows what can be read.
  const diagnostics: Diagnostic[] = checkWorkspace(root).map((d) =>
    d.severity === "error" ? { ...d, severity: "warning" as const } : d,
  );
  const runs = listRunDirs(root).map((run_id) => ({ run_id, events: readRunEvents(root, run_id).values }));
  const q = readQuestions(root);
  return { ok: true, view: summarizeStatus({ state: st.state, runs, questions: q.questions }), diagnostics };
}
