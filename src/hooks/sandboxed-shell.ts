/**
 * What a leaf's shell call needs when the OS sandbox runs it, as one lazy part of the PreToolUse bundle
 * (`scripts/build-hooks.ts`, `LAZY_MODULES`): the front table's quick verdict, the user's own Claude Code rules
 * on the original command, and the sandbox planner. An allowed call needs all three, so they are compiled
 * together, once, sharing one copy of the shell parser; every other call skips them.
 */

export { frontArgv, frontShell } from "../guard/shell/front.js";
export { planShellCall } from "./sandbox-plan-call.js";
export { checkUserRules } from "./user-rules.js";
