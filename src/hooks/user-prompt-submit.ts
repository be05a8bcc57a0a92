/**
 * The UserPromptSubmit hook: add one line of context about the journey ("devrites: active rite …, phase …,
 * next: …") to every prompt of the root session, or nothing when there is no journey; a subagent's prompt
 * (`agent_id`/`agent_type` in the input) gets nothing. It never blocks a prompt: every failure,
 * malformed input and the deadline end in exit 0 with no context (and a note on stderr).
 */

import { utcIso } from "../core/utc-iso.js";
import { promptContextLine } from "../run/prompt-context.js";
import { pendingQuestions, readQuestions } from "../run/questions.js";
import { readState } from "../run/workspace.js";
import { allowAnswer, contextAnswer, type HookAnswer, SILENT } from "./answer.js";
import { findCallRoot } from "./call-root.js";
import { parseHookInput, stringField } from "./input.js";
import { PROMPT_DEADLINE_MS } from "./limits.js";
import type { HookEnv, HookSpec } from "./runtime.js";
import type { StdinRead } from "./stdin.js";

export interface UserPromptDeps {
  /** The context line for the workspace at `root` ("" when there is no journey). */
  contextLine(root: string, now: Date): string;
  now(): Date;
}

/**
 * The production context line: `promptContextLine` over `.devrites/state.json` and the pending questions.
 * A state that cannot be read throws (the hook reports it on stderr and adds no context).
 */
export function workspaceContextLine(root: string, now: Date): string {
  const state = readState(root, utcIso(now));
  if (!state.ok)
    throw new Error(state.diagnostics.map((d) => `${d.path ?? ""} ${d.message}`.trim()).join("; "));
  return promptContextLine(state.state, pendingQuestions(readQuestions(root).questions));
}

export function handleUserPromptSubmit(read: StdinRead, env: HookEnv, deps: UserPromptDeps): HookAnswer {
  const input = parseHookInput(read);
  if (!input.ok) return SILENT;
  // The journey line is for the root session; a subagent (a devrites leaf, or the host's or user's own agent) gets
  // nothing added to its prompt.
  if (input.caller === "leaf") return SILENT;
  const root = findCallRoot([stringField(input.value, "cwd"), env.env.CLAUDE_PROJECT_DIR, env.cwd]);
  if (root === undefined) return SILENT;
  try {
    return contextAnswer(deps.contextLine(root, deps.now()));
  } catch (e) {
    return allowAnswer(`devrites prompt context unavailable: ${(e as Error)?.message ?? String(e)}`);
  }
}

export function userPromptSubmitHook(deps: UserPromptDeps): HookSpec {
  return {
    name: "user-prompt-submit",
    sync: true,
    deadlineMs: PROMPT_DEADLINE_MS,
    handle: (read, env) => handleUserPromptSubmit(read, env, deps),
    onDeadline: () => SILENT,
    onCrash: () => SILENT,
  };
}
