import type { RunEvent } from "../run/workspace-types.js";

/**
 * How strongly the leaf's tool calls were policed, read from the run's ledger:
 * - `enforced`: the guard hook decided at least one tool call (`guard.decision`);
 * - `observed`: hooks ran (`hook.*`, e.g. `hook.subagent-stop`) but none decided a tool call;
 * - `unavailable`: no hook left a trace (the host ran none, or the root recorded the result itself).
 */
export type GuardStrength = "enforced" | "observed" | "unavailable";

export function guardStrength(events: readonly Pick<RunEvent, "type">[]): GuardStrength {
  let hooks = false;
  for (const e of events) {
    if (e.type === "guard.decision") return "enforced";
    if (typeof e.type === "string" && e.type.startsWith("hook.")) hooks = true;
  }
  return hooks ? "observed" : "unavailable";
}
