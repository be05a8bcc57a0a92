/**
 * The hook runtime's budgets. The hosts fail open on a hook that times out, crashes or prints nonsense, so
 * every hook answers on its own well inside the host's timeout (the adapters configure 10 s or more).
 */

/**
 * Largest hook input read, in bytes. A host's PreToolUse input is bounded by the model's output (a tool call
 * of a few hundred kilobytes at most), so anything larger is not a host talking to us: the PreToolUse hook
 * denies it, the other hooks ignore it.
 */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/**
 * Total budget of the PreToolUse hook, in ms from process start. At the deadline it denies: its input is not
 * complete, so the caller may be a leaf. Configure the host's hook timeout at 10 s or more.
 */
export const HOOK_DEADLINE_MS = 3_000;

/**
 * Budget of the SubagentStop hook, which stores and checks a result (git status, hashing the touched files).
 * At the deadline it steps aside and the root checks the result itself. Configure the host's timeout at 60 s.
 */
export const SUBAGENT_STOP_DEADLINE_MS = 30_000;

/** Budget of the UserPromptSubmit hook; at the deadline it adds no context. Host timeout: 10 s. */
export const PROMPT_DEADLINE_MS = 2_000;

/** Longest reason printed to the host, in characters; longer reasons are cut with an ellipsis. */
export const MAX_REASON_CHARS = 8_000;
