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
});
