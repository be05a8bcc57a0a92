import { nextAction } from "./status.js";
import type { Question, WorkspaceState } from "./workspace-types.js";

/** The longest line the prompt hook adds. */
export const PROMPT_LINE_MAX = 240;

/**
 * The one line of context the `UserPromptSubmit` hook adds to every prompt (pure):
 * `devrites: active rite rite-build, phase build, next: answer q-20261129-001 (scope): Keep b?`.
 * Empty when there is no journey and nothing pending, so an idle project gets no noise.
 */
export function promptContextLine(
  state: Pick<WorkspaceState, "active_rite" | "phase" | "active_runs" | "journey">,
  pending: readonly Question[],
): string {
  const open = pending.filter((q) => q.answer === undefined);
  const journey = state.journey && state.journey.status !== "done" ? state.journey : null;
  if (!state.active_rite && !journey && open.length === 0 && state.active_runs.length === 0) return "";
  const parts = [
    `active rite ${state.active_rite ?? "none"}`,
    ...(state.phase ? [`phase ${state.phase}`] : []),
    `next: ${nextAction(state, open).text}`,
  ];
  const line = `devrites: ${parts.join(", ")}`.replace(/\s+/g, " ");
  return line.length > PROMPT_LINE_MAX ? `${line.slice(0, PROMPT_LINE_MAX - 1)}…` : line;
}
