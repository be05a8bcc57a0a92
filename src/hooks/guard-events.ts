/**
 * Record a leaf's guard decision as a `guard.decision` event in the ledger of every active run of the leaf's
 * role: the evidence behind `guard_strength: enforced`.
 *
 * A failure to record never changes the decision: a deny stays a deny, and an allow stays an allow (the
 * missing event only lowers the run's guard strength, which is the honest outcome; the validator's tree check
 * still judges the result). Failures come back as messages for the hook's stderr.
 */

import { formatDiagnostic } from "../core/diagnostics.js";
import { appendEvent } from "../run/workspace.js";
import type { LoadedPacket } from "./context.js";

export interface GuardEventData {
  tool: string | null;
  /** The host's id for the call (`tool_use_id`; Codex: the model's `call_id`): the receipt's key. */
  tool_use_id?: string | null;
  /** The tool input as decided (before any rewrite): `fnv1a64:<16 hex>` of its JSON text, null without one. */
  input_digest?: string | null;
  decision: "allow" | "deny";
  rule?: string;
  /** The offending input (a path or a command word), on a deny, when the guard named one. */
  input?: string;
  agent_id: string | null;
  agent_type: string | null;
  /**
   * On an allowed shell call: the sandbox it ran in (`bwrap`, `bwrap+overlay`), or null when none could start
   * here and the classifier decided alone. Absent for other tools and for denies.
   */
  sandbox?: string | null;
}

export function recordGuardDecision(
  root: string,
  packets: readonly LoadedPacket[],
  role: string | undefined,
  data: GuardEventData,
  now: string,
): string[] {
  if (role === undefined) return [];
  const problems: string[] = [];
  for (const p of packets) {
    if (p.role !== role) continue;
    try {
      // not fsynced: one decision per tool call; see AppendOptions.durable
      appendEvent(
        root,
        { ts: now, run_id: p.run_id, type: "guard.decision", data: { ...data } },
        { durable: false },
      );
    } catch (e) {
      problems.push(
        formatDiagnostic({
          code: "ledger.append-failed",
          severity: "warning",
          message: `could not record the guard decision for run ${p.run_id}: ${(e as Error)?.message ?? e}`,
        }),
      );
    }
  }
  return problems;
}
