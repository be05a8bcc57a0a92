import type { RunEvent } from "../run/workspace-types.js";

/**
 * How strongly the leaf's tool calls were policed, read from the run's ledger:
 * - `sandboxed`: the guard hook decided the run's tool calls and every shell call it let through ran in an OS
 *   sandbox (`guard.decision` events with `sandbox` naming a mechanism; at least one shell call, none with
 *   `sandbox: null`);
 * - `enforced`: the guard hook decided at least one tool call (`guard.decision`), but not every allowed shell
 *   call ran sandboxed (none could start here: the classifier decided alone), or there was no shell call;
 * - `observed`: hooks ran (`hook.*`, e.g. `hook.subagent-stop`) but none decided a tool call;
 * - `unavailable`: no hook left a trace (the host ran none, or the root recorded the result itself);
 * - `unverified`: it would be `sandboxed` or `enforced`, but the leaf's own transcript could not be read and
 *   matched against the guard's receipts (./receipts.ts), so a call the guard never saw cannot be ruled out.
 *   `sandboxed` and `enforced` need every call in the transcript receipted.
 */
export type GuardStrength = "sandboxed" | "enforced" | "observed" | "unavailable" | "unverified";

export function guardStrength(
  events: readonly Pick<RunEvent, "type" | "data">[],
  receiptsVerified: boolean,
): GuardStrength {
  let hooks = false;
  let decided = false;
  let sandboxedShell = 0;
  let unsandboxedShell = 0;
  for (const e of events) {
    if (e.type === "guard.decision") {
      decided = true;
      const data = e.data as Record<string, unknown> | undefined;
      if (data && typeof data === "object" && Object.hasOwn(data, "sandbox") && data.decision === "allow") {
        if (typeof data.sandbox === "string" && data.sandbox !== "") sandboxedShell++;
        else unsandboxedShell++;
      }
    } else if (typeof e.type === "string" && e.type.startsWith("hook.")) hooks = true;
  }
  if (decided && !receiptsVerified) return "unverified";
  if (decided) return sandboxedShell > 0 && unsandboxedShell === 0 ? "sandboxed" : "enforced";
  return hooks ? "observed" : "unavailable";
}
