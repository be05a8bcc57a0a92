import { describe, expect, it } from "vitest";
import { normalizeCall } from "./input.js";

const base = {
  tool_name: "Bash",
  tool_input: { command: "ls" },
  cwd: "/repo",
  hook_event_name: "PreToolUse",
};

describe("normalizeCall", () => {
  it("reads both hosts' subagent calls", () => {
    expect(
      normalizeCall({ ...base, session_id: "s", agent_id: "a", agent_type: "p:devrites-code-reviewer" }),
    ).toEqual({
      kind: "leaf",
      agentType: "p:devrites-code-reviewer",
      subagent: true,
      toolName: "Bash",
      toolInput: { command: "ls" },
      cwd: "/repo",
    });
    expect(
      normalizeCall({
        ...base,
        turn_id: "t",
        model: "m",
        agent_id: "thread",
        agent_type: "devrites-slice-wright",
      }),
    ).toMatchObject({
      kind: "leaf",
      agentType: "devrites-slice-wright",
    });
  });
  it("marks a call with agent_type but no agent_id (a main thread under --agent) as not a subagent", () => {
    expect(normalizeCall({ ...base, agent_type: "reviewer" })).toMatchObject({
      kind: "leaf",
      subagent: false,
    });
    expect(normalizeCall({ ...base, agent_type: "reviewer", agent_id: null })).toMatchObject({
      kind: "leaf",
      subagent: false,
    });
    expect(normalizeCall({ ...base, agent_type: "reviewer", agent_id: "" })).toMatchObject({
      subagent: true,
    });
  });
  it("treats a call without agent fields (or with nulls) as the root", () => {
    expect(normalizeCall(base)).toEqual({ kind: "root" });
    expect(normalizeCall({ ...base, agent_type: null, agent_id: null })).toEqual({ kind: "root" });
    expect(normalizeCall({ agent_type: undefined })).toEqual({ kind: "root" });
  });
  it("ignores inherited properties", () => {
    const proto = { agent_type: "devrites-slice-wright" };
    expect(normalizeCall(Object.assign(Object.create(proto), base))).toEqual({ kind: "root" });
  });
  it.each([
    ["not an object", "x"],
    ["an array", []],
    ["agent_id only", { ...base, agent_id: "a" }],
    ["agent_type a number", { ...base, agent_type: 1 }],
    ["no tool_name", { agent_type: "x", tool_input: {}, cwd: "/r" }],
    ["tool_input an array", { ...base, agent_type: "x", tool_input: [] }],
    ["relative cwd", { ...base, agent_type: "x", cwd: "r" }],
    ["another event", { ...base, agent_type: "x", hook_event_name: "Stop" }],
  ])("flags %s as malformed", (_l, input) => {
    expect(normalizeCall(input).kind).toBe("malformed");
  });

  // The why lands in the deny reason: it names the field a host or hook wiring got wrong.
  it.each<[string, unknown, Record<string, unknown>]>([
    [
      "not an object",
      "x",
      { why: "the hook input is not a JSON object, so the caller cannot be told apart" },
    ],
    [
      "agent_id only",
      { ...base, agent_id: "a" },
      { why: "a subagent call (agent_id present) without a string agent_type" },
    ],
    [
      "empty agent_type",
      { ...base, agent_type: "" },
      { why: "a subagent call (agent_id present) without a string agent_type" },
    ],
    [
      "another event",
      { ...base, agent_type: "x", hook_event_name: "Stop" },
      { why: 'hook_event_name is "Stop", not PreToolUse', agentType: "x" },
    ],
    [
      "an empty tool_name",
      { ...base, agent_type: "x", tool_name: "" },
      { why: "tool_name is missing or not a non-empty string", agentType: "x" },
    ],
    [
      "tool_input null",
      { ...base, agent_type: "x", tool_input: null },
      { why: "tool_input is missing or not an object", agentType: "x" },
    ],
    [
      "cwd a number",
      { ...base, agent_type: "x", cwd: 1 },
      { why: "cwd is missing or not an absolute path", agentType: "x" },
    ],
    [
      "cwd with a NUL",
      { ...base, agent_type: "x", cwd: "/r\u0000/x" },
      { why: "cwd is missing or not an absolute path", agentType: "x" },
    ],
  ])("says why %s is malformed", (_l, input, expected) => {
    expect(normalizeCall(input)).toEqual({ kind: "malformed", ...expected });
  });

  it("accepts a leaf call without hook_event_name (near miss)", () => {
    const { hook_event_name: _e, ...noEvent } = base;
    expect(normalizeCall({ ...noEvent, agent_type: "x" })).toMatchObject({ kind: "leaf", agentType: "x" });
  });
});
