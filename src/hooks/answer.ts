/**
 * What a hook process answers: exit code, stdout, stderr. Pure builders, one per outcome, checked against
 * both hosts' protocols:
 *
 * - PreToolUse deny: exit 2 with the reason on stderr (Claude uses stderr and ignores JSON on exit 2; Codex
 *   blocks on exit 2 + stderr) **and** the JSON deny on stdout (Codex also honours it; if a host ever reads
 *   stdout instead, the reason is the same). Both hosts then show the model the reason.
 * - PreToolUse allow: exit 0, nothing on stdout. Never an `allow` JSON: Codex does not honour it, and an
 *   explicit allow would skip Claude's own permission prompts.
 * - PreToolUse allow of a leaf's shell call that runs sandboxed: exit 0 with `permissionDecision` and
 *   `updatedInput` (every original tool-input field, the command replaced by the sandboxed one). Both hosts
 *   run the rewritten command (observed on Claude Code 2.1.328 and Codex 0.169.0); see docs/guard-policy.md
 *   for the decision chosen per host and how the user's own deny rules still apply.
 * - A report that must not block (root session): exit 0, stdout empty, the report on stderr.
 * - SubagentStop block: exit 0 with `{"decision":"block","reason":…}` on stdout (the documented form on both
 *   hosts; Claude feeds the reason to the subagent, Codex turns it into a follow-up prompt).
 * - UserPromptSubmit context: exit 0 with plain text on stdout (both hosts add it as context).
 */

import { MAX_REASON_CHARS } from "./limits.js";

export interface HookAnswer {
  exitCode: 0 | 2;
  stdout: string;
  stderr: string;
}

export const SILENT: HookAnswer = { exitCode: 0, stdout: "", stderr: "" };

/**
 * The text both hosts show for a denied call. The guard's reasons already read
 * `devrites guard denied this call [<rule>] …`; the runtime's own reasons get the same prefix.
 */
export function denyText(rule: string, reason: string): string {
  const text = oneLine(reason);
  return clip(text.includes(`[${rule}]`) ? text : `devrites guard denied this call [${rule}]: ${text}`);
}

export function denyAnswer(rule: string, reason: string): HookAnswer {
  const text = denyText(rule, reason);
  const json = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: text,
    },
  };
  return { exitCode: 2, stdout: `${JSON.stringify(json)}\n`, stderr: `${text}\n` };
}

/** Exit 0, no stdout; `report` (if any) on stderr. */
export function allowAnswer(report?: string): HookAnswer {
  return report ? { exitCode: 0, stdout: "", stderr: `${clip(report)}\n` } : SILENT;
}

/** Exit 0 with the rewritten tool input; `report` (if any) on stderr. */
export function rewriteAnswer(
  decision: "allow" | "ask",
  updatedInput: Record<string, unknown>,
  report?: string,
): HookAnswer {
  const json = {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, updatedInput },
  };
  return { exitCode: 0, stdout: `${JSON.stringify(json)}\n`, stderr: report ? `${clip(report)}\n` : "" };
}

export function blockStopAnswer(reason: string, report?: string): HookAnswer {
  return {
    exitCode: 0,
    stdout: `${JSON.stringify({ decision: "block", reason: clip(reason) })}\n`,
    stderr: report ? `${clip(report)}\n` : "",
  };
}

export function contextAnswer(line: string): HookAnswer {
  const text = oneLine(line);
  return text === "" ? SILENT : { exitCode: 0, stdout: `${clip(text)}\n`, stderr: "" };
}

function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

function clip(s: string): string {
  return s.length > MAX_REASON_CHARS ? `${s.slice(0, MAX_REASON_CHARS - 3)}...` : s;
}
