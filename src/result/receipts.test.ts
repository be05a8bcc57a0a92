import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { receiptIds, transcriptCalls, transcriptPathOf, unreceipted, verifyReceipts } from "./receipts.js";

const j = (...lines: unknown[]) => Buffer.from(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);

/** The shapes Claude Code 2.1.328 writes to a subagent's transcript (trimmed). */
const claude = j(
  { type: "user", isSidechain: true, agentId: "a1", message: { role: "user", content: "go" } },
  { type: "attachment", agentId: "a1" },
  {
    type: "assistant",
    agentId: "a1",
    message: { content: [{ type: "tool_use", id: "toolu_write", name: "Write", input: {} }] },
  },
  { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "toolu_write" }] } },
  {
    type: "assistant",
    message: {
      content: [
        { type: "text", text: "and" },
        { type: "tool_use", id: "toolu_append", name: "Bash", input: {} },
      ],
    },
  },
);

/** The shapes Codex 0.169.0 writes to a child's rollout (trimmed). */
const codex = j(
  { type: "session_meta", payload: { id: "t2", parent_thread_id: "t1" } },
  { type: "response_item", payload: { type: "message", role: "user", content: [] } },
  { type: "response_item", payload: { type: "function_call", call_id: "call_b", name: "exec_command" } },
  { type: "response_item", payload: { type: "function_call_output", call_id: "call_b" } },
  { type: "response_item", payload: { type: "function_call", call_id: "call_p", name: "update_plan" } },
  { type: "response_item", payload: { type: "custom_tool_call", call_id: "call_a", name: "apply_patch" } },
  { type: "event_msg", payload: { type: "task_complete" } },
);

describe("transcriptCalls", () => {
  it("reads Claude's tool_use items with their ids, in order", () => {
    expect(transcriptCalls(claude)).toEqual({
      ok: true,
      format: "claude-jsonl",
      calls: [
        { id: "toolu_write", name: "Write", line: 3 },
        { id: "toolu_append", name: "Bash", line: 5 },
      ],
    });
  });

  it("reads Codex's *_call payloads with their call ids, not their outputs", () => {
    const r = transcriptCalls(codex);
    expect(r.ok && r.format).toBe("codex-rollout");
    expect(r.ok && r.calls.map((c) => c.id)).toEqual(["call_b", "call_p", "call_a"]);
  });

  it("fails closed on what it does not know: another format, both formats, a call without an id, a broken line", () => {
    expect(transcriptCalls(j({ kind: "x" }))).toMatchObject({ ok: false });
    expect(transcriptCalls(Buffer.concat([claude, codex]))).toMatchObject({ ok: false });
    const noId = j({ type: "assistant", message: { content: [{ type: "tool_use", name: "Bash" }] } });
    expect(transcriptCalls(noId)).toMatchObject({ ok: false, why: "line 1: a tool call without an id" });
    expect(
      transcriptCalls(Buffer.from(`{"type":"user","message":{}}\n{oops\n{"type":"user","message":{}}\n`)),
    ).toMatchObject({
      ok: false,
      why: "line 2 is not JSON",
    });
    // near miss: a last line still being written is not held against the file
    const partial = Buffer.concat([claude, Buffer.from('{"type":"assis')]);
    expect(transcriptCalls(partial)).toMatchObject({ ok: true });
  });

  it("never throws, on any bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        (bytes, values) => {
          expect(typeof transcriptCalls(bytes).ok).toBe("boolean");
          expect(typeof transcriptCalls(j(...values)).ok).toBe("boolean");
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("unreceipted", () => {
  const decided = (...ids: string[]) =>
    receiptIds(ids.map((id) => ({ type: "guard.decision", data: { tool: "Bash", tool_use_id: id } })));

  it("names the calls no guard.decision answers", () => {
    const c = transcriptCalls(claude);
    if (!c.ok) throw new Error("fixture");
    expect(unreceipted(c, decided("toolu_write", "toolu_append"))).toEqual([]);
    expect(unreceipted(c, decided("toolu_write")).map((x) => x.id)).toEqual(["toolu_append"]);
    // near miss: a receipt of another event type, or without an id, answers nothing
    const other = receiptIds([
      { type: "hook.subagent-stop", data: { tool_use_id: "toolu_write" } },
      { type: "guard.decision", data: { tool: "Write" } },
    ]);
    expect(unreceipted(c, other).map((x) => x.id)).toEqual(["toolu_write", "toolu_append"]);
  });

  it("excepts Codex's unhooked harmless tools (update_plan), and only on Codex", () => {
    const c = transcriptCalls(codex);
    if (!c.ok) throw new Error("fixture");
    expect(unreceipted(c, decided("call_b", "call_a"))).toEqual([]);
    const onClaude = transcriptCalls(
      j({ type: "assistant", message: { content: [{ type: "tool_use", id: "t", name: "update_plan" }] } }),
    );
    if (!onClaude.ok) throw new Error("fixture");
    expect(unreceipted(onClaude, decided()).map((x) => x.id)).toEqual(["t"]);
  });
});

describe("calls Claude refused itself", () => {
  const use = (id: string, name = "Read") => ({
    type: "assistant",
    message: { content: [{ type: "tool_use", id, name, input: {} }] },
  });
  const result = (id: string, content: unknown, is_error = true) => ({
    type: "user",
    message: { content: [{ type: "tool_result", tool_use_id: id, is_error, content }] },
  });

  it("need no receipt: invalid input and an unknown tool, as Claude Code 2.1.328 answers them", () => {
    const c = transcriptCalls(
      j(
        use("t1"),
        result(
          "t1",
          "<tool_use_error>InputValidationError: Read failed due to the following issues:\n…</tool_use_error>",
        ),
        use("t2", "NoSuchToolX"),
        result("t2", [
          {
            type: "text",
            text: "<tool_use_error>Error: No such tool available: NoSuchToolX</tool_use_error>",
          },
        ]),
      ),
    );
    if (!c.ok) throw new Error("fixture");
    expect(unreceipted(c, new Set())).toEqual([]);
  });

  it("near misses still need one: a failed command's output, a result that is not an error, another error", () => {
    const c = transcriptCalls(
      j(
        use("b1", "Bash"),
        result("b1", "Exit code 1\n<tool_use_error>InputValidationError: forged</tool_use_error>"),
        use("b2", "Bash"),
        result("b2", "<tool_use_error>InputValidationError: forged</tool_use_error>", false),
        use("b3", "Bash"),
        result("b3", "<tool_use_error>Error: something else</tool_use_error>"),
      ),
    );
    if (!c.ok) throw new Error("fixture");
    expect(unreceipted(c, new Set()).map((x) => x.id)).toEqual(["b1", "b2", "b3"]);
  });
});

describe("verifyReceipts", () => {
  const events = (path?: string) => [
    { type: "guard.decision", data: { tool_use_id: "toolu_write" } },
    { type: "guard.decision", data: { tool_use_id: "toolu_append" } },
    ...(path ? [{ type: "hook.transcript", data: { path } }] : []),
  ];

  it("verifies against the transcript the latest hook.transcript names", () => {
    expect(transcriptPathOf([...events("/a"), { type: "hook.transcript", data: { path: "/b" } }])).toBe("/b");
    expect(verifyReceipts(events("/t"), () => claude)).toMatchObject({
      verified: true,
      calls: 2,
      missing: [],
    });
  });

  it("is unverified, with nothing missing, without a transcript or when it cannot be read", () => {
    expect(verifyReceipts(events(), () => claude)).toMatchObject({
      verified: false,
      missing: [],
      transcript: null,
    });
    expect(verifyReceipts(events("/t"), () => undefined)).toMatchObject({
      verified: false,
      missing: [],
      why: "the transcript cannot be read",
    });
  });
});
