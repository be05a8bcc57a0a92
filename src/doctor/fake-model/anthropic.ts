/**
 * A scripted fake of the Anthropic Messages API for driving Claude Code offline.
 *
 * Routes: `POST /v1/messages` (SSE when `stream` is true, else one JSON message), `POST /v1/messages/count_tokens`
 * (stub), anything else 404. Every request is logged. A scenario decides each reply from the conversation
 * content (`(request, ctx) => reply`), never from the turn index: Claude interleaves `role:"system"` messages and
 * runs subagent conversations against the same endpoint.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  type BudgetState,
  DEFAULT_BUDGET,
  freshId,
  headerText,
  type IncomingRequest,
  type LoggedRequest,
  type RunningServer,
  scenarioReply,
  startServer,
  writeJson,
  writeSse,
} from "./http.js";

export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicReplyObject {
  content: AnthropicBlock[];
  /** Defaults to `tool_use` when a tool_use block is present, else `end_turn`. */
  stopReason?: "end_turn" | "tool_use" | "max_tokens" | "stop_sequence";
}

/** A string is one text block. */
export type AnthropicReply = string | AnthropicBlock | AnthropicBlock[] | AnthropicReplyObject;

export const text = (t: string): AnthropicBlock => ({ type: "text", text: t });

/** A tool call with a fixed id, so a later request can be recognised by `ctx.toolResult(id)`. */
export const toolUse = (id: string, name: string, input: Record<string, unknown>): AnthropicBlock => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** The loosely typed request body Claude Code sends (only what scenarios commonly read). */
export interface AnthropicRequestBody {
  model?: string;
  stream?: boolean;
  system?: string | { type: string; text?: string }[];
  messages?: { role: string; content: string | Record<string, unknown>[] }[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  [key: string]: unknown;
}

export interface AnthropicRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: AnthropicRequestBody;
}

export interface ToolResult {
  /** The result text (text blocks joined by newlines). */
  text: string;
  isError: boolean;
}

export interface AnthropicContext {
  /** A subagent conversation (`x-claude-code-agent-id` header present). */
  isSubagent: boolean;
  /** The `x-claude-code-agent-id` header, if any. */
  agentId: string | undefined;
  /** Text of the tool result answering tool_use `id`, if the conversation has one. */
  toolResult(id: string): string | undefined;
  toolResultBlock(id: string): ToolResult | undefined;
  hasToolResult(id: string): boolean;
  /** All `system` text blocks joined. */
  system: string;
  /** Names of the tools offered in this request. */
  toolNames: string[];
  /** Does `text` occur in the system prompt or any message text? */
  has(text: string): boolean;
}

export type AnthropicScenario = (req: AnthropicRequest, ctx: AnthropicContext) => AnthropicReply;

export interface FakeAnthropicOptions {
  /** Model requests allowed before the fake answers with a final text and records a failure. Default 20. */
  budget?: number;
}

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`, without `/v1` (what `ANTHROPIC_BASE_URL` wants). */
  baseUrl: string;
  port: number;
  /** Every request received, in order. */
  requests: LoggedRequest[];
  /** Only the `POST /v1/messages` requests. */
  modelRequests(): LoggedRequest[];
  /** Problems on the fake's side (budget exhausted, scenario threw, bad body). Assert it is empty. */
  failures: string[];
  budget: BudgetState;
  /** Replace the scenario and clear the log, failures and budget. */
  reset(scenario: AnthropicScenario, options?: FakeAnthropicOptions): void;
  close(): Promise<void>;
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => {
      if (b && typeof b === "object" && typeof (b as { text?: unknown }).text === "string") {
        return (b as { text: string }).text;
      }
      if (b && typeof b === "object" && "content" in b) return blockText((b as { content: unknown }).content);
      if (b && typeof b === "object" && "input" in b) return JSON.stringify((b as { input: unknown }).input);
      return "";
    })
    .join("\n");
}

/** Build the scenario context for one request body (pure). */
export function anthropicContext(body: AnthropicRequestBody, headers: IncomingHttpHeaders): AnthropicContext {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const results = new Map<string, ToolResult>();
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === "tool_result" && typeof b.tool_use_id === "string") {
        results.set(b.tool_use_id, { text: blockText(b.content), isError: b.is_error === true });
      }
    }
  }
  const system = blockText(body.system);
  const all = `${system}\n${messages.map((m) => blockText(m.content)).join("\n")}`;
  const agentId = headerText(headers, "x-claude-code-agent-id");
  return {
    isSubagent: agentId !== undefined,
    agentId,
    toolResult: (id) => results.get(id)?.text,
    toolResultBlock: (id) => results.get(id),
    hasToolResult: (id) => results.has(id),
    system,
    toolNames: Array.isArray(body.tools) ? body.tools.map((t) => t.name) : [],
    has: (t) => all.includes(t),
  };
}

/** The scenario context of a logged `POST /v1/messages` request, for assertions after a run. */
export function anthropicContextOf(req: LoggedRequest): AnthropicContext {
  return anthropicContext((req.body ?? {}) as AnthropicRequestBody, req.headers);
}

export function normalizeAnthropicReply(reply: AnthropicReply): Required<AnthropicReplyObject> {
  let content: AnthropicBlock[];
  let stop: AnthropicReplyObject["stopReason"];
  if (typeof reply === "string") content = [text(reply)];
  else if (Array.isArray(reply)) content = reply;
  else if ("content" in reply) {
    content = reply.content;
    stop = reply.stopReason;
  } else content = [reply];
  const stopReason = stop ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  return { content, stopReason };
}

function sseFrames(model: string, reply: Required<AnthropicReplyObject>): { event: string; data: unknown }[] {
  const frames: { event: string; data: unknown }[] = [];
  const usage = {
    input_tokens: 10,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  frames.push({
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        id: freshId("msg_fake"),
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
  });
  reply.content.forEach((b, index) => {
    if (b.type === "text") {
      frames.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      });
      frames.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } },
      });
    } else {
      frames.push({
        event: "content_block_start",
        data: {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
        },
      });
      frames.push({
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
        },
      });
    }
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  frames.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: reply.stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  });
  frames.push({ event: "message_stop", data: { type: "message_stop" } });
  return frames;
}

export async function startFakeAnthropic(
  scenario: AnthropicScenario,
  options: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  const failures: string[] = [];
  let current = scenario;
  const budget: BudgetState = { budget: options.budget ?? DEFAULT_BUDGET, used: 0, failures };

  const handle = (req: IncomingRequest, res: import("node:http").ServerResponse) => {
    if (req.method === "POST" && req.path === "/v1/messages/count_tokens") {
      writeJson(res, 200, { input_tokens: Math.max(1, Math.ceil(req.rawBody.length / 4)) });
      return { status: 200, note: "count_tokens" };
    }
    if (req.method !== "POST" || req.path !== "/v1/messages") {
      writeJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `no route ${req.path}` },
      });
      return { status: 404, note: "404" };
    }
    if (req.bodyError || typeof req.body !== "object" || req.body === null) {
      failures.push(`POST /v1/messages with an unreadable body: ${req.bodyError ?? "not an object"}`);
      writeJson(res, 400, {
        type: "error",
        error: { type: "invalid_request_error", message: req.bodyError ?? "body" },
      });
      return { status: 400, note: "bad body" };
    }
    const body = req.body as AnthropicRequestBody;
    const model = typeof body.model === "string" ? body.model : "e2e-model";
    const ctx = anthropicContext(body, req.headers);
    const { reply, outcome } = scenarioReply(
      budget,
      () => normalizeAnthropicReply(current({ url: req.url, headers: req.headers, body }, ctx)),
      normalizeAnthropicReply,
    );
    const note = outcome !== "answered" ? outcome : body.stream === false ? "json" : "sse";
    if (body.stream === false) {
      writeJson(res, 200, {
        id: freshId("msg_fake"),
        type: "message",
        role: "assistant",
        model,
        content: reply.content,
        stop_reason: reply.stopReason,
        stop_sequence: null,
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      });
    } else {
      writeSse(res, sseFrames(model, reply));
    }
    return { status: 200, note };
  };

  const server: RunningServer = await startServer(handle, failures);
  return {
    baseUrl: server.origin,
    port: server.port,
    requests: server.requests,
    modelRequests: () =>
      server.requests.filter((r) => r.method === "POST" && r.url.split("?")[0] === "/v1/messages"),
    failures,
    budget,
    reset(next, opts = {}) {
      current = next;
      server.requests.length = 0;
      failures.length = 0;
      budget.used = 0;
      budget.budget = opts.budget ?? DEFAULT_BUDGET;
    },
    close: () => server.close(),
  };
}
