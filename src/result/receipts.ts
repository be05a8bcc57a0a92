/**
 * Guard receipts: every tool call a leaf made must have been decided by the guard. The PreToolUse hook records a
 * `guard.decision` event per leaf call with the host's `tool_use_id`; the SubagentStop hook records where the
 * host keeps the leaf's own transcript (`hook.transcript`). Here (pure): the tool calls in that transcript, and
 * the ones no receipt answers — a skipped hook (hooks off, Codex hooks not trusted), a hook that crashed or
 * timed out (both hosts then run the call), a call the guard never saw.
 *
 * Transcript formats are the hosts' own, read defensively and pinned to what the pinned binaries write:
 * - Claude Code 2.1.328 (`agent_transcript_path`, JSON lines): `{"type":"assistant","message":{"content":[…]}}`
 *   whose content items of a type ending in `tool_use` (`tool_use`, `server_tool_use`) carry the call's `id`.
 * - Codex 0.169.0 (the child's rollout, JSON lines): `{"type":"response_item","payload":{…}}` whose payload type
 *   ends in `_call` (`function_call`, `custom_tool_call`, `local_shell_call`, `web_search_call` …) carries
 *   `call_id` (else `id`); the file opens with a `session_meta` line.
 * A file that is neither, or a call without an id, is `unknown`: the run's guard strength is then `unverified`.
 *
 * Codex does not run PreToolUse for every tool (its docs: simple shell calls, apply_patch, MCP; observed on
 * 0.169.0: spawn and wait too). The tools below never reach a hook and change nothing, so they need no receipt;
 * any other unhooked tool (a web search included) does, and its call rejects the result.
 */

/** Codex tools that never reach PreToolUse and have no effect outside the conversation (Codex 0.169.0). */
export const CODEX_UNHOOKED_HARMLESS: ReadonlySet<string> = new Set(["update_plan", "view_image"]);

export interface TranscriptCall {
  id: string;
  name: string;
  /** 1-based line of the transcript. */
  line: number;
  /**
   * The host refused the call before any hook could see it, so it never ran: Claude Code answers a call with
   * invalid input, or to a tool it does not have, with an error result of its own (`<tool_use_error>` then
   * `InputValidationError:` or `Error: No such tool available:`). A tool's own error output cannot start so:
   * Claude puts `Exit code N` before a failed command's output (observed on 2.1.328).
   */
  refusedByHost?: true;
}

/** How Claude Code 2.1.328 starts the error result of a call it refused itself (no hook ran, nothing ran). */
const CLAUDE_REFUSALS = [
  "<tool_use_error>InputValidationError:",
  "<tool_use_error>Error: No such tool available:",
];

/** The text of a tool result's content (a string, or the first text block). */
function resultText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (Array.isArray(content) && isObject(content[0]) && typeof content[0].text === "string")
    return content[0].text;
  return undefined;
}

export type TranscriptFormat = "claude-jsonl" | "codex-rollout";

export type TranscriptCalls =
  | { ok: true; format: TranscriptFormat; calls: TranscriptCall[] }
  | { ok: false; why: string };

/** Transcripts larger than this are not read (the guard strength is then `unverified`). */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The tool calls in a transcript's bytes. Never throws. */
export function transcriptCalls(bytes: Uint8Array): TranscriptCalls {
  if (bytes.length > MAX_TRANSCRIPT_BYTES)
    return { ok: false, why: `the transcript is larger than ${MAX_TRANSCRIPT_BYTES} bytes` };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
  let claude = false;
  let codex = false;
  const calls: TranscriptCall[] = [];
  const refused = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      // the host may be writing its last line right now; a broken line elsewhere is not a format we know
      if (i === lines.length - 1) continue;
      return { ok: false, why: `line ${i + 1} is not JSON` };
    }
    if (!isObject(v)) return { ok: false, why: `line ${i + 1} is not a JSON object` };
    const type = v.type;
    if (
      type === "session_meta" ||
      type === "response_item" ||
      type === "event_msg" ||
      type === "turn_context"
    )
      codex = true;
    if ((type === "assistant" || type === "user") && isObject(v.message)) claude = true;
    if (type === "assistant" && isObject(v.message) && Array.isArray(v.message.content)) {
      for (const item of v.message.content) {
        if (!isObject(item) || typeof item.type !== "string" || !item.type.endsWith("tool_use")) continue;
        if (typeof item.id !== "string" || item.id === "")
          return { ok: false, why: `line ${i + 1}: a tool call without an id` };
        calls.push({ id: item.id, name: typeof item.name === "string" ? item.name : "?", line: i + 1 });
      }
    }
    if (type === "user" && isObject(v.message) && Array.isArray(v.message.content)) {
      for (const item of v.message.content) {
        if (!isObject(item) || item.type !== "tool_result" || item.is_error !== true) continue;
        const t = resultText(item.content);
        if (
          typeof item.tool_use_id === "string" &&
          t !== undefined &&
          CLAUDE_REFUSALS.some((r) => t.startsWith(r))
        )
          refused.add(item.tool_use_id);
      }
    }
    if (type === "response_item" && isObject(v.payload)) {
      const p = v.payload;
      if (typeof p.type === "string" && p.type.endsWith("_call")) {
        const id = typeof p.call_id === "string" && p.call_id !== "" ? p.call_id : p.id;
        if (typeof id !== "string" || id === "")
          return { ok: false, why: `line ${i + 1}: a tool call without an id` };
        const name = typeof p.name === "string" ? p.name : p.type;
        calls.push({ id, name, line: i + 1 });
      }
    }
  }
  if (claude === codex)
    return {
      ok: false,
      why: claude ? "it reads as both hosts' formats" : "it is in no format devrites knows",
    };
  if (claude) for (const c of calls) if (refused.has(c.id)) c.refusedByHost = true;
  return { ok: true, format: claude ? "claude-jsonl" : "codex-rollout", calls };
}

/** The `tool_use_id`s the run's `guard.decision` events answer. */
export function receiptIds(events: readonly { type: string; data?: unknown }[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.type !== "guard.decision" || !isObject(e.data)) continue;
    const id = e.data.tool_use_id;
    if (typeof id === "string" && id !== "") ids.add(id);
  }
  return ids;
}

/**
 * The transcript's calls no receipt answers: not those the host refused itself (they never ran), nor the
 * unhooked harmless tools of its host.
 */
export function unreceipted(
  found: Extract<TranscriptCalls, { ok: true }>,
  receipts: ReadonlySet<string>,
): TranscriptCall[] {
  return found.calls.filter(
    (c) =>
      !receipts.has(c.id) &&
      c.refusedByHost !== true &&
      !(found.format === "codex-rollout" && CODEX_UNHOOKED_HARMLESS.has(c.name)),
  );
}

/** Where the SubagentStop hook said the leaf's transcript is: the latest `hook.transcript` event's path. */
export function transcriptPathOf(events: readonly { type: string; data?: unknown }[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as { type: string; data?: unknown };
    if (
      e.type === "hook.transcript" &&
      isObject(e.data) &&
      typeof e.data.path === "string" &&
      e.data.path !== ""
    )
      return e.data.path;
  }
  return undefined;
}

/** What the receipt check found, for the verdict and the run's guard strength. */
export interface ReceiptCheck {
  /** Every call in a transcript devrites could read had a receipt. */
  verified: boolean;
  /** The calls without one (the result is then rejected). */
  missing: TranscriptCall[];
  transcript: string | null;
  format?: TranscriptFormat;
  calls: number;
  /** Why the calls could not be verified, when they could not. */
  why?: string;
}

/**
 * Check the run's receipts against the leaf's transcript, read through `read` (undefined: unreadable). No
 * transcript recorded, an unreadable one or one in an unknown format: not verified, nothing missing.
 */
export function verifyReceipts(
  events: readonly { type: string; data?: unknown }[],
  read: (path: string) => Uint8Array | undefined,
): ReceiptCheck {
  const path = transcriptPathOf(events);
  if (path === undefined)
    return {
      verified: false,
      missing: [],
      transcript: null,
      calls: 0,
      why: "no transcript was recorded for the run",
    };
  const bytes = read(path);
  if (bytes === undefined)
    return { verified: false, missing: [], transcript: path, calls: 0, why: "the transcript cannot be read" };
  const found = transcriptCalls(bytes);
  if (!found.ok) return { verified: false, missing: [], transcript: path, calls: 0, why: found.why };
  const missing = unreceipted(found, receiptIds(events));
  return {
    verified: missing.length === 0,
    missing,
    transcript: path,
    format: found.format,
    calls: found.calls.length,
  };
}
