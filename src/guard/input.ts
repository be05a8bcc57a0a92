/**
 * Host hook input → the call the guard judges. Both hosts send a JSON object on PreToolUse stdin with
 * `tool_name`, `tool_input` and `cwd`; inside a subagent both add `agent_id` and `agent_type` (Claude plugin
 * agents as `plugin:name`). The root session omits both, so:
 *
 * - an object with neither `agent_type` nor `agent_id` (or both null) is the root session: allowed untouched;
 * - an object with either is a leaf, and every field the guard needs must be well-formed;
 * - anything that is not an object cannot be attributed, so it is treated as a leaf's (fail closed).
 */

export type Call =
  | { kind: "root" }
  | { kind: "malformed"; why: string; agentType?: string }
  | {
      kind: "leaf";
      agentType: string;
      /**
       * Whether the input carries an `agent_id`: both hosts send one inside every subagent. Claude Code also sends
       * `agent_type` without it on a main thread started with `--agent NAME`.
       */
      subagent: boolean;
      toolName: string;
      toolInput: Record<string, unknown>;
      /** Absolute directory the call runs in. */
      cwd: string;
    };

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

export function normalizeCall(input: unknown): Call {
  if (!isPlainObject(input)) {
    return {
      kind: "malformed",
      why: "the hook input is not a JSON object, so the caller cannot be told apart",
    };
  }
  const agentType = own(input, "agent_type");
  const agentId = own(input, "agent_id");
  if ((agentType === undefined || agentType === null) && (agentId === undefined || agentId === null)) {
    return { kind: "root" };
  }
  if (typeof agentType !== "string" || agentType === "") {
    return { kind: "malformed", why: "a subagent call (agent_id present) without a string agent_type" };
  }
  const event = own(input, "hook_event_name");
  if (event !== undefined && event !== "PreToolUse") {
    return {
      kind: "malformed",
      why: `hook_event_name is ${JSON.stringify(event)}, not PreToolUse`,
      agentType,
    };
  }
  const toolName = own(input, "tool_name");
  if (typeof toolName !== "string" || toolName === "") {
    return { kind: "malformed", why: "tool_name is missing or not a non-empty string", agentType };
  }
  const toolInput = own(input, "tool_input");
  if (!isPlainObject(toolInput)) {
    return { kind: "malformed", why: "tool_input is missing or not an object", agentType };
  }
  const cwd = own(input, "cwd");
  if (typeof cwd !== "string" || !cwd.startsWith("/") || cwd.includes("\u0000")) {
    return { kind: "malformed", why: "cwd is missing or not an absolute path", agentType };
  }
  return {
    kind: "leaf",
    agentType,
    subagent: agentId !== undefined && agentId !== null,
    toolName,
    toolInput,
    cwd,
  };
}
