/**
 * What a host hands the root when a leaf ends is not the leaf's bare final message (observed on Claude Code
 * 2.1.328 and Codex 0.169.0):
 *
 * - Claude's Agent tool result: a `[Subagent hand-back] … The report follows:` frame, the message indented,
 *   then an `agentId: … (use SendMessage …)` line and a `<usage>…</usage>` trailer;
 * - Codex's `wait_agent` output: `{"status":{"<agent-id>":{"completed":"<final message>"}},"timed_out":false}`.
 *
 * `unwrapHandBack` gives back the leaf's own message from either (and any other text unchanged), so
 * `devrites result record` stores the leaf's bytes, never the host's wrapper. Pure; linear in the input.
 */

export type HandBackFrame = "claude-hand-back" | "codex-wait-agent";

export type Unwrapped =
  | { ok: true; text: string; frame: HandBackFrame | null }
  | {
      ok: false;
      code: "record.hand-back-ambiguous" | "record.hand-back-unfinished";
      message: string;
      hint: string;
    };

const CLAUDE_MARK = "[Subagent hand-back]";
const CLAUDE_START = "The report follows:";

export function unwrapHandBack(text: string): Unwrapped {
  const codex = unwrapWaitAgent(text);
  if (codex) return codex;
  const claude = unwrapClaude(text);
  if (claude !== undefined) return { ok: true, text: claude, frame: "claude-hand-back" };
  return { ok: true, text, frame: null };
}

/** Codex `wait_agent`: one agent's `completed` message. Undefined when the text is not that object. */
function unwrapWaitAgent(text: string): Unwrapped | undefined {
  const t = text.trim();
  if (!t.startsWith("{") || !t.includes('"status"')) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const status = o.status;
  if (typeof status !== "object" || status === null || Array.isArray(status)) return undefined;
  if (!Object.keys(o).every((k) => k === "status" || k === "timed_out")) return undefined;
  const agents = Object.entries(status as Record<string, unknown>);
  if (agents.length === 0) return undefined;
  if (agents.length > 1)
    return {
      ok: false,
      code: "record.hand-back-ambiguous",
      message: `the wait_agent output holds ${agents.length} agents (${agents.map(([id]) => id).join(", ")}); it cannot tell which is this run's`,
      hint: "record each leaf's message under its own run: wait for one agent at a time, or pass only its `completed` text",
    };
  const [id, state] = agents[0]!;
  const completed =
    typeof state === "object" && state !== null ? (state as Record<string, unknown>).completed : undefined;
  if (typeof completed !== "string")
    return {
      ok: false,
      code: "record.hand-back-unfinished",
      message: `agent ${id} has not completed (${JSON.stringify(state)})`,
      hint: "wait for the agent to finish (wait_agent again), then record its message",
    };
  return { ok: true, text: completed, frame: "codex-wait-agent" };
}

/**
 * Claude's hand-back frame: the report between the frame line and the trailer. Claude indents every line of the
 * report (two spaces), so the first non-blank line at column zero after it ends it (the `agentId:` line, then
 * `<usage>`): a frame-like line inside the report is indented, and cannot end it early or start another.
 */
function unwrapClaude(text: string): string | undefined {
  let mark = text.startsWith(CLAUDE_MARK) ? 0 : text.indexOf(`\n${CLAUDE_MARK}`);
  if (mark < 0) return undefined;
  if (mark > 0) mark += 1;
  const lineEnd = text.indexOf("\n", mark);
  if (lineEnd < 0) return undefined;
  const frameLine = text.slice(mark, lineEnd);
  if (!frameLine.trimEnd().endsWith(CLAUDE_START)) return undefined;
  const lines = text.slice(lineEnd + 1).split("\n");
  let end = lines.findIndex((l) => l !== "" && !/^[ \t]/.test(l));
  if (end < 0) end = lines.length;
  const body = lines.slice(0, end).map((l) => l.replace(/\r$/, ""));
  while (body.length > 0 && body.at(-1)!.trim() === "") body.pop();
  const nonBlank = body.filter((l) => l.trim() !== "");
  const indent = nonBlank.every((l) => l.startsWith("  "))
    ? 2
    : Math.min(...nonBlank.map((l) => /^[ \t]*/.exec(l)![0].length), Number.POSITIVE_INFINITY);
  const cut = Number.isFinite(indent) ? indent : 0;
  return body.map((l) => (l.trim() === "" ? l.trim() : l.slice(cut))).join("\n");
}
