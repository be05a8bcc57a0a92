/** The guard policy: `decide(hookInput, ctx)` and its types. */

export { decide, MAX_COMMAND_CHARS, MAX_PATCH_CHARS } from "./decide.js";
export { patchPaths } from "./patch.js";
export { classifyShell } from "./shell/classify.js";
export type { Effect } from "./shell/effects.js";
export {
  type ActivePacket,
  GUARD_RULES,
  type GuardContext,
  type GuardDecision,
  type GuardRule,
  type ScopeCheck,
} from "./types.js";
