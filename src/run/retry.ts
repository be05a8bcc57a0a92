/**
 * Bounded technical recovery (pure). After a rejected attempt the engine either retries — quoting the exact
 * defect in the next attempt's objective — or records a technical blocker. It never asks a human to
 * authorise another attempt (ADR-0010 §8).
 *
 * - A malformed result is retried once; a second malformed result blocks.
 * - Three attempts with the same causal fingerprint (role + step + sorted diagnostic codes) block.
 * - A step has at most three attempts in all (the packet's `attempt` is 1..3).
 */

import type { StepBlockedData } from "./workspace-types.js";

export const MAX_ATTEMPTS = 3;
export const MAX_SAME_FINGERPRINT = 3;

/** One rejected attempt, as the engine remembers it. */
export interface RejectedAttempt {
  attempt: number;
  malformed: boolean;
  diagnostics: readonly RecordedDiagnostic[];
}

/**
 * A diagnostic as the ledger recorded it and the engine reads it back: its code is whatever string the file
 * holds (an older devrites, or a hand edit, may have written one the catalogue does not list).
 */
export interface RecordedDiagnostic {
  code: string;
  message: string;
  path?: string;
}

/** `role|step|code,code,…`: the codes sorted and de-duplicated, so the order of reporting does not matter. */
export function fingerprint(role: string, stepId: string, diagnostics: readonly { code: string }[]): string {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  return `${role}|${stepId}|${codes.join(",")}`;
}

export type RetryDecision =
  | { action: "retry"; nextAttempt: number; fingerprint: string; defect: string }
  | {
      action: "block";
      fingerprint: string;
      reason: Exclude<StepBlockedData["reason"], "leaf-escalated">;
      detail: string;
    };

/** Decide what follows the last of `history` (every rejected attempt of one step, oldest first). */
export function decideRetry(
  role: string,
  stepId: string,
  history: readonly RejectedAttempt[],
): RetryDecision {
  const last = history[history.length - 1];
  if (!last) throw new Error("decideRetry needs at least one rejected attempt");
  const fp = fingerprint(role, stepId, last.diagnostics);
  const same = history.filter((h) => fingerprint(role, stepId, h.diagnostics) === fp).length;
  const defect = quoteDefect(last);
  if (last.malformed && history.filter((h) => h.malformed).length >= 2)
    return {
      action: "block",
      fingerprint: fp,
      reason: "malformed-twice",
      detail: `the result was malformed twice; last defect: ${defect}`,
    };
  if (same >= MAX_SAME_FINGERPRINT)
    return {
      action: "block",
      fingerprint: fp,
      reason: "fingerprint-exhausted",
      detail: `${same} attempts failed the same way: ${defect}`,
    };
  if (last.attempt >= MAX_ATTEMPTS)
    return {
      action: "block",
      fingerprint: fp,
      reason: "attempts-exhausted",
      detail: `no attempt left after ${last.attempt}; last defect: ${defect}`,
    };
  return { action: "retry", nextAttempt: last.attempt + 1, fingerprint: fp, defect };
}

/** The defects of one attempt, verbatim: `code (path): message; …`. */
export function quoteDefect(a: Pick<RejectedAttempt, "diagnostics">): string {
  if (a.diagnostics.length === 0) return "rejected without a diagnostic";
  return a.diagnostics.map((d) => `${d.code}${d.path ? ` (${d.path})` : ""}: ${d.message}`).join("; ");
}

/** Packet objectives are capped at 4000 characters. */
export const OBJECTIVE_MAX = 4000;

/**
 * The objective of a retry: the step's objective, then the previous attempt's defect quoted exactly. When
 * the whole would exceed the cap the quotation is cut at the cap and marked, never reworded.
 */
export function retryObjective(objective: string, previousAttempt: number, defect: string): string {
  const head = `${objective}\n\nAttempt ${previousAttempt} was rejected. Fix exactly this defect and nothing else: `;
  const whole = `${head}"${defect}"`;
  if (whole.length <= OBJECTIVE_MAX) return whole;
  const marker = ` …[cut]"`;
  const room = OBJECTIVE_MAX - head.length - 1 - marker.length;
  if (room <= 0) return objective.slice(0, OBJECTIVE_MAX);
  return `${head}"${defect.slice(0, room)}${marker}`;
}
