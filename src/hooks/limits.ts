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
 * Total budget of one hook process, in ms from process start. At the deadline the hook answers with what it
 * knows: PreToolUse denies (its input is not complete, so the caller may be a leaf), the others step aside.
 */
export const HOOK_DEADLINE_MS = 3_000;

/** Longest reason printed to the host, in characters; longer reasons are cut with an ellipsis. */
export const MAX_REASON_CHARS = 8_000;
