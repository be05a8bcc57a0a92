/** The fake model servers, exercised over HTTP without any host. */
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import * as A from "./anthropic.js";
import { decodeBody } from "./http.js";
import * as R from "./responses.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function anthropic(scenario: A.AnthropicScenario, opts?: A.FakeAnthropicOptions) {
  const f = await A.startFakeAnthropic(scenario, opts);
  closers.push(f.close);
  return f;
}

async function responses(scenario: R.ResponsesScenario, opts?: R.FakeResponsesOptions) {
  const f = await R.startFakeResponses(scenario, opts);
  closers.push(f.close);
  return f;
}

function sse(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter((f) => f.trim() !== "")
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "";
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null") as Record<string, unknown>;
      return { event, data };
    });
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("fake Anthropic Messages API", () => {
  it("streams a text reply as SSE with end_turn and logs the request", async () => {
    const f = await anthropic(() => A.text("hi"));
    const res = await post(
      `${f.baseUrl}/v1/messages?beta=true`,
      { model: "m", stream: true, messages: [] },
      { "x-a": "1" },
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const frames = sse(await res.text());
    expect(frames.map((x) => x.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(frames[2]?.data.delta).toEqual({ type: "text_delta", text: "hi" });
    expect(frames[4]?.data.delta).toMatchObject({ stop_reason: "end_turn" });
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]).toMatchObject({ method: "POST", url: "/v1/messages?beta=true", note: "sse" });
    expect(f.requests[0]?.headers["x-a"]).toBe("1");
    expect(f.requests[0]?.body).toEqual({ model: "m", stream: true, messages: [] });
    expect(f.modelRequests()).toHaveLength(1);
    expect(f.failures).toEqual([]);
  });

  it("streams a tool_use block with the whole input as one input_json_delta and stop_reason tool_use", async () => {
    const f = await anthropic(() => A.toolUse("toolu_1", "Write", { file_path: "/x", content: "y" }));
    const frames = sse(await (await post(`${f.baseUrl}/v1/messages`, { stream: true, messages: [] })).text());
    expect(frames[1]?.data.content_block).toEqual({
      type: "tool_use",
      id: "toolu_1",
      name: "Write",
      input: {},
    });
    const delta = frames[2]?.data.delta as { type: string; partial_json: string };
    expect(delta.type).toBe("input_json_delta");
    expect(JSON.parse(delta.partial_json)).toEqual({ file_path: "/x", content: "y" });
    expect(frames.at(-2)?.data.delta).toMatchObject({ stop_reason: "tool_use" });
  });

  it("answers a non-stream request with one JSON message", async () => {
    const f = await anthropic(() => [A.text("a"), A.toolUse("t", "Bash", { command: "ls" })]);
    const res = await post(`${f.baseUrl}/v1/messages`, { stream: false, messages: [] });
    const body = (await res.json()) as { content: unknown[]; stop_reason: string; type: string };
    expect(body.type).toBe("message");
    expect(body.stop_reason).toBe("tool_use");
    expect(body.content).toHaveLength(2);
    expect(f.requests[0]?.note).toBe("json");
  });

  it("stubs count_tokens and 404s anything else, logging both", async () => {
    const f = await anthropic(() => "unused");
    const ct = await post(`${f.baseUrl}/v1/messages/count_tokens`, { messages: [] });
    expect(ct.status).toBe(200);
    expect(typeof ((await ct.json()) as { input_tokens: number }).input_tokens).toBe("number");
    const models = await fetch(`${f.baseUrl}/v1/models`);
    expect(models.status).toBe(404);
    const get = await fetch(`${f.baseUrl}/v1/messages`);
    expect(get.status).toBe(404);
    expect(f.requests.map((r) => [r.method, r.url, r.status])).toEqual([
      ["POST", "/v1/messages/count_tokens", 200],
      ["GET", "/v1/models", 404],
      ["GET", "/v1/messages", 404],
    ]);
    expect(f.modelRequests()).toHaveLength(0);
    expect(f.budget.used).toBe(0);
  });

  it("past the budget answers with a final text and records exactly one failure", async () => {
    let calls = 0;
    const f = await anthropic(
      () => {
        calls += 1;
        return A.toolUse(`t${calls}`, "Bash", { command: "true" });
      },
      { budget: 2 },
    );
    for (let i = 0; i < 4; i++) await (await post(`${f.baseUrl}/v1/messages`, { stream: false })).text();
    expect(calls).toBe(2);
    expect(f.requests.map((r) => r.note)).toEqual(["json", "json", "budget", "budget"]);
    expect(f.failures).toHaveLength(1);
    expect(f.failures[0]).toContain("budget of 2");
    f.reset(() => "again");
    expect(f.failures).toEqual([]);
    expect(f.requests).toEqual([]);
    expect(f.budget.used).toBe(0);
  });

  it("records a scenario that throws and still answers", async () => {
    const f = await anthropic(() => {
      throw new Error("boom");
    });
    const res = await post(`${f.baseUrl}/v1/messages`, { stream: false });
    expect(res.status).toBe(200);
    expect(f.failures[0]).toContain("boom");
  });

  it("decodes a gzip body and records an undecodable one", async () => {
    const f = await anthropic(() => "ok");
    await fetch(`${f.baseUrl}/v1/messages`, {
      method: "POST",
      headers: { "content-encoding": "gzip", "content-type": "application/json" },
      body: gzipSync(JSON.stringify({ stream: false, model: "gz" })),
    });
    expect(f.requests[0]?.body).toEqual({ stream: false, model: "gz" });
    await fetch(`${f.baseUrl}/v1/messages`, { method: "POST", body: "{not json" });
    expect(f.requests[1]?.status).toBe(400);
    expect(f.failures).toHaveLength(1);
  });
});

describe("anthropicContext", () => {
  const body: A.AnthropicRequestBody = {
    system: [{ type: "text", text: "SYS-MARK" }],
    tools: [{ name: "Write" }, { name: "Read" }],
    messages: [
      { role: "user", content: "do it" },
      { role: "system", content: "reminder" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "Write", input: {} },
          { type: "tool_use", id: "b", name: "Write", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "plain text result" },
          {
            type: "tool_result",
            tool_use_id: "b",
            is_error: true,
            content: [{ type: "text", text: "denied" }],
          },
        ],
      },
    ],
  };

  it("finds tool results by id in string and block form, with is_error", () => {
    const ctx = A.anthropicContext(body, {});
    expect(ctx.toolResult("a")).toBe("plain text result");
    expect(ctx.toolResultBlock("a")?.isError).toBe(false);
    expect(ctx.toolResultBlock("b")).toEqual({ text: "denied", isError: true });
    expect(ctx.hasToolResult("c")).toBe(false);
    expect(ctx.toolResult("c")).toBeUndefined();
  });

  it("tells a subagent by its header, not by content", () => {
    expect(A.anthropicContext(body, {}).isSubagent).toBe(false);
    const sub = A.anthropicContext(body, { "x-claude-code-agent-id": "abc" });
    expect(sub.isSubagent).toBe(true);
    expect(sub.agentId).toBe("abc");
  });

  it("exposes system text, tool names and a content search", () => {
    const ctx = A.anthropicContext(body, {});
    expect(ctx.system).toBe("SYS-MARK");
    expect(ctx.toolNames).toEqual(["Write", "Read"]);
    expect(ctx.has("reminder")).toBe(true);
    expect(ctx.has("denied")).toBe(true);
    expect(ctx.has("absent-marker")).toBe(false);
  });
});

describe("fake OpenAI Responses API", () => {
  it("streams a message and a namespaced function call, completed with usage", async () => {
    const f = await responses(() => [
      R.text("hello"),
      R.functionCall("call_1", "spawn_agent", { agent_type: "scout" }, { namespace: "multi_agent_v1" }),
    ]);
    const res = await post(`${f.baseUrl}/responses`, { model: "fake-model", stream: true, input: [] });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const frames = sse(await res.text());
    expect(frames.map((x) => x.event)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_item.done",
      "response.output_item.added",
      "response.output_item.done",
      "response.completed",
    ]);
    for (const fr of frames) expect(fr.data.type).toBe(fr.event);
    expect(frames[3]?.data.item).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "hello" }],
    });
    const call = frames[5]?.data.item as Record<string, unknown>;
    expect(call).toMatchObject({
      type: "function_call",
      call_id: "call_1",
      name: "spawn_agent",
      namespace: "multi_agent_v1",
    });
    expect(JSON.parse(call.arguments as string)).toEqual({ agent_type: "scout" });
    const completed = frames[6]?.data.response as { usage: { total_tokens: number }; output: unknown[] };
    expect(completed.output).toHaveLength(2);
    expect(completed.usage.total_tokens).toBeGreaterThan(0);
    expect(f.requests[0]).toMatchObject({ method: "POST", url: "/v1/responses", note: "sse" });
  });

  it("omits namespace on a plain function call", async () => {
    const f = await responses(() => R.functionCall("c", "exec_command", { cmd: "ls" }));
    const frames = sse(await (await post(`${f.baseUrl}/responses`, { input: [] })).text());
    expect(frames[2]?.data.item).not.toHaveProperty("namespace");
  });

  it("stubs GET /v1/models and 404s anything else", async () => {
    const f = await responses(() => "unused");
    expect((await fetch(`${f.baseUrl}/models`)).status).toBe(200);
    expect((await fetch(`${f.baseUrl}/chat/completions`, { method: "POST", body: "{}" })).status).toBe(404);
    expect(f.requests.map((r) => r.status)).toEqual([200, 404]);
    expect(f.modelRequests()).toHaveLength(0);
  });

  it("past the budget answers with a final text and records one failure", async () => {
    const f = await responses(() => R.functionCall("c", "exec_command", { cmd: "true" }), { budget: 1 });
    await (await post(`${f.baseUrl}/responses`, { input: [] })).text();
    const frames = sse(await (await post(`${f.baseUrl}/responses`, { input: [] })).text());
    expect(frames[1]?.data.item).toMatchObject({ type: "message" });
    expect(f.failures).toHaveLength(1);
  });

  it("records a scenario that throws and still answers, with a final text", async () => {
    const f = await responses(() => {
      throw new Error("boom");
    });
    const frames = sse(await (await post(`${f.baseUrl}/responses`, { input: [] })).text());
    expect(frames[1]?.data.item).toMatchObject({ type: "message" });
    expect(JSON.stringify(frames)).toContain("[fake] scenario error; stopping.");
    expect(f.requests.map((r) => r.note)).toEqual(["scenario error"]);
    expect(f.failures).toHaveLength(1);
    expect(f.failures[0]).toContain("scenario threw: Error: boom");
  });
});

describe("responsesContext", () => {
  const body: R.ResponsesRequestBody = {
    tools: [
      { type: "function", name: "exec_command" },
      { type: "namespace", name: "multi_agent_v1", tools: [{ type: "function", name: "spawn_agent" }] },
    ],
    input: [
      { type: "message", role: "developer", content: [{ type: "input_text", text: "ROLE-MARK" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
      { type: "function_call", name: "exec_command", arguments: "{}", call_id: "c1" },
      { type: "function_call_output", call_id: "c1", output: "Command blocked by PreToolUse hook: no" },
    ],
  };

  it("finds a function_call_output by call_id", () => {
    const ctx = R.responsesContext(body, {});
    expect(ctx.toolResult("c1")).toContain("blocked");
    expect(ctx.hasToolResult("c2")).toBe(false);
  });

  it("tells a child by x-openai-subagent or thread_source, not by content", () => {
    expect(R.responsesContext(body, {}).isSubagent).toBe(false);
    expect(R.responsesContext(body, { "x-openai-subagent": "collab_spawn" }).isSubagent).toBe(true);
    const meta = (source: string) => ({ "x-codex-turn-metadata": JSON.stringify({ thread_source: source }) });
    expect(R.responsesContext(body, meta("subagent")).isSubagent).toBe(true);
    expect(R.responsesContext(body, meta("user")).isSubagent).toBe(false);
    expect(R.responsesContext(body, { "x-codex-turn-metadata": "{broken" }).turnMetadata).toBeUndefined();
  });

  it("collects developer text and namespaced tool names", () => {
    const ctx = R.responsesContext(body, {});
    expect(ctx.developer).toBe("ROLE-MARK");
    expect(ctx.toolNames).toEqual(["exec_command", "multi_agent_v1.spawn_agent"]);
    expect(ctx.has("go")).toBe(true);
    expect(ctx.has("nope")).toBe(false);
  });
});

describe("offeredTools", () => {
  it("merges body tools with an additional_tools input item (catalog slugs send tools there)", () => {
    const body: R.ResponsesRequestBody = {
      tools: [],
      input: [
        {
          type: "additional_tools",
          role: "developer",
          tools: [
            { type: "namespace", name: "collaboration", tools: [{ type: "function", name: "spawn_agent" }] },
          ],
        },
      ],
    };
    expect(R.offeredTools(body).map((t) => t.name)).toEqual(["collaboration"]);
    expect(R.responsesContext(body, {}).toolNames).toEqual(["collaboration.spawn_agent"]);
    expect(R.offeredTools({})).toEqual([]);
  });
});

describe("decodeBody", () => {
  it("passes identity through and reports unknown encodings", () => {
    expect(decodeBody(Buffer.from("x"), undefined)).toEqual({ text: "x" });
    expect(decodeBody(Buffer.from("x"), "compress")).toHaveProperty("error");
    expect(decodeBody(Buffer.from("not gzip"), "gzip")).toHaveProperty("error");
  });
});
