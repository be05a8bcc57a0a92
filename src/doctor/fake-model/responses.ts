/**
 * A scripted fake of the OpenAI Responses API for driving Codex offline.
 *
 * Routes: `POST /v1/responses` (SSE), `GET /v1/models` (stub), anything else 404. Every request is logged. A
 * scenario decides each reply from the conversation content (`(request, ctx) => reply`), never from the turn
 * index: parent and child threads share the endpoint and are told apart by headers.
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
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

export type ResponsesItem =
  | { type: "message"; text: string }
  | {
      type: "function_call";
      callId: string;
      name: string;
      namespace?: string;
      arguments: Record<string, unknown>;
    };

/** A string is one assistant message. */
export type ResponsesReply = string | ResponsesItem | ResponsesItem[];

export const text = (t: string): ResponsesItem => ({ type: "message", text: t });

/**
 * A function call with a fixed `callId`, so a later request can be recognised by `ctx.toolResult(callId)`.
 * Namespaced tools (e.g. `multi_agent_v1` → `spawn_agent`) take the bare name plus `namespace`.
 */
export const functionCall = (
  callId: string,
  name: string,
  args: Record<string, unknown>,
  opts: { namespace?: string } = {},
): ResponsesItem => ({
  type: "function_call",
  callId,
  name,
  arguments: args,
  ...(opts.namespace ? { namespace: opts.namespace } : {}),
});

export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  name?: string;
  namespace?: string;
  arguments?: string;
  call_id?: string;
  output?: string | { type: string; text?: string }[];
  [key: string]: unknown;
}

export interface ResponsesTool {
  type: string;
  name: string;
  description?: string;
  parameters?: unknown;
  /** Present on `type: "namespace"` entries. */
  tools?: ResponsesTool[];
  [key: string]: unknown;
}

export interface ResponsesRequestBody {
  model?: string;
  stream?: boolean;
  input?: ResponsesInputItem[];
  tools?: ResponsesTool[];
  [key: string]: unknown;
}

export interface ResponsesRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: ResponsesRequestBody;
}

export interface ResponsesContext {
  /** A child-agent thread (`x-openai-subagent` header, or turn metadata `thread_source: "subagent"`). */
  isSubagent: boolean;
  /** Parsed `x-codex-turn-metadata` header, if present and JSON. */
  turnMetadata: Record<string, unknown> | undefined;
  /** Output text of the `function_call_output` answering `callId`, if the conversation has one. */
  toolResult(callId: string): string | undefined;
  hasToolResult(callId: string): boolean;
  /** All `developer` message text joined. */
  developer: string;
  /** Tool names offered (`tools` and `additional_tools`), namespaced ones as `<namespace>.<name>`. */
  toolNames: string[];
  /** Does `text` occur in any input message or tool output? */
  has(text: string): boolean;
}

export type ResponsesScenario = (req: ResponsesRequest, ctx: ResponsesContext) => ResponsesReply;

export interface FakeResponsesOptions {
  /** Model requests allowed before the fake answers with a final text and records a failure. Default 20. */
  budget?: number;
}

export interface FakeResponses {
  /** `http://127.0.0.1:<port>/v1` (what a Codex `model_providers.<x>.base_url` wants). */
  baseUrl: string;
  port: number;
  requests: LoggedRequest[];
  /** Only the `POST /v1/responses` requests. */
  modelRequests(): LoggedRequest[];
  failures: string[];
  budget: BudgetState;
  reset(scenario: ResponsesScenario, options?: FakeResponsesOptions): void;
  close(): Promise<void>;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c) =>
      c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string"
        ? (c as { text: string }).text
        : "",
    )
    .join("\n");
}

/**
 * The tools a request offers: the body's `tools` plus those of any `additional_tools` input item (catalog
 * model slugs such as `gpt-6-sol` send their tool surface there and leave `tools` empty) (pure).
 */
export function offeredTools(body: ResponsesRequestBody): ResponsesTool[] {
  const out: ResponsesTool[] = Array.isArray(body.tools) ? [...body.tools] : [];
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (item.type === "additional_tools" && Array.isArray(item.tools))
      out.push(...(item.tools as ResponsesTool[]));
  }
  return out;
}

/** Flatten a tools array to names, namespaced ones as `<namespace>.<name>` (pure). */
export function flattenToolNames(tools: ResponsesTool[] | undefined): string[] {
  if (!Array.isArray(tools)) return [];
  const out: string[] = [];
  for (const t of tools) {
    if (t.type === "namespace" && Array.isArray(t.tools)) {
      for (const inner of t.tools) out.push(`${t.name}.${inner.name}`);
    } else if (typeof t.name === "string") out.push(t.name);
  }
  return out;
}

export function parseTurnMetadata(headers: IncomingHttpHeaders): Record<string, unknown> | undefined {
  const raw = headerText(headers, "x-codex-turn-metadata");
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Build the scenario context for one request (pure). */
export function responsesContext(body: ResponsesRequestBody, headers: IncomingHttpHeaders): ResponsesContext {
  const input = Array.isArray(body.input) ? body.input : [];
  const outputs = new Map<string, string>();
  const texts: string[] = [];
  const developer: string[] = [];
  for (const item of input) {
    if (item.type === "function_call_output" && typeof item.call_id === "string") {
      const out = contentText(item.output);
      outputs.set(item.call_id, out);
      texts.push(out);
    } else if (item.type === "message" || item.role !== undefined) {
      const t = contentText(item.content);
      texts.push(t);
      if (item.role === "developer") developer.push(t);
    }
  }
  const turnMetadata = parseTurnMetadata(headers);
  const isSubagent =
    headerText(headers, "x-openai-subagent") !== undefined || turnMetadata?.thread_source === "subagent";
  const all = texts.join("\n");
  return {
    isSubagent,
    turnMetadata,
    toolResult: (id) => outputs.get(id),
    hasToolResult: (id) => outputs.has(id),
    developer: developer.join("\n"),
    toolNames: flattenToolNames(offeredTools(body)),
    has: (t) => all.includes(t),
  };
}

/** The scenario context of a logged `POST /v1/responses` request, for assertions after a run. */
export function responsesContextOf(req: LoggedRequest): ResponsesContext {
  return responsesContext((req.body ?? {}) as ResponsesRequestBody, req.headers);
}

export function normalizeResponsesReply(reply: ResponsesReply): ResponsesItem[] {
  if (typeof reply === "string") return [text(reply)];
  return Array.isArray(reply) ? reply : [reply];
}

function wireItem(item: ResponsesItem, done: boolean): Record<string, unknown> {
  if (item.type === "message") {
    return {
      type: "message",
      id: freshId("msg_fake"),
      role: "assistant",
      status: done ? "completed" : "in_progress",
      content: done ? [{ type: "output_text", text: item.text, annotations: [] }] : [],
    };
  }
  return {
    type: "function_call",
    id: freshId("fc_fake"),
    call_id: item.callId,
    name: item.name,
    ...(item.namespace ? { namespace: item.namespace } : {}),
    arguments: done ? JSON.stringify(item.arguments) : "",
    status: done ? "completed" : "in_progress",
  };
}

function sseFrames(model: string, items: ResponsesItem[]): { event: string; data: unknown }[] {
  const id = freshId("resp_fake");
  const frames: { event: string; data: unknown }[] = [];
  let seq = 0;
  const push = (type: string, data: Record<string, unknown>) =>
    frames.push({ event: type, data: { type, sequence_number: seq++, ...data } });
  push("response.created", {
    response: { id, object: "response", status: "in_progress", model, output: [] },
  });
  const doneItems: Record<string, unknown>[] = [];
  items.forEach((item, output_index) => {
    const started = wireItem(item, false);
    push("response.output_item.added", { output_index, item: started });
    const finished = { ...wireItem(item, true), id: started.id };
    if (item.type === "message") {
      push("response.output_text.delta", {
        item_id: started.id,
        output_index,
        content_index: 0,
        delta: item.text,
      });
    }
    push("response.output_item.done", { output_index, item: finished });
    doneItems.push(finished);
  });
  push("response.completed", {
    response: {
      id,
      object: "response",
      status: "completed",
      model,
      output: doneItems,
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    },
  });
  return frames;
}

export async function startFakeResponses(
  scenario: ResponsesScenario,
  options: FakeResponsesOptions = {},
): Promise<FakeResponses> {
  const failures: string[] = [];
  let current = scenario;
  const budget: BudgetState = { budget: options.budget ?? DEFAULT_BUDGET, used: 0, failures };

  const handle = (req: IncomingRequest, res: ServerResponse) => {
    if (req.method === "GET" && req.path === "/v1/models") {
      writeJson(res, 200, { object: "list", data: [], models: [] });
      return { status: 200, note: "models" };
    }
    if (req.method !== "POST" || req.path !== "/v1/responses") {
      writeJson(res, 404, { error: { type: "not_found", message: `no route ${req.method} ${req.path}` } });
      return { status: 404, note: "404" };
    }
    if (req.bodyError || typeof req.body !== "object" || req.body === null) {
      failures.push(`POST /v1/responses with an unreadable body: ${req.bodyError ?? "not an object"}`);
      writeJson(res, 400, { error: { type: "invalid_request_error", message: req.bodyError ?? "body" } });
      return { status: 400, note: "bad body" };
    }
    const body = req.body as ResponsesRequestBody;
    const model = typeof body.model === "string" ? body.model : "fake-model";
    const ctx = responsesContext(body, req.headers);
    const { reply: items, outcome } = scenarioReply(
      budget,
      () => normalizeResponsesReply(current({ url: req.url, headers: req.headers, body }, ctx)),
      (stop) => [text(stop)],
    );
    writeSse(res, sseFrames(model, items));
    return { status: 200, note: outcome === "answered" ? "sse" : outcome };
  };

  const server: RunningServer = await startServer(handle, failures);
  return {
    baseUrl: `${server.origin}/v1`,
    port: server.port,
    requests: server.requests,
    modelRequests: () =>
      server.requests.filter((r) => r.method === "POST" && r.url.split("?")[0] === "/v1/responses"),
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
