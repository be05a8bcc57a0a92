/**
 * Decode and classify a hook's stdin. Pure. The hosts send one JSON object; anything else is malformed.
 * A call is a leaf's when the object carries `agent_type` (or `agent_id`): both hosts add them inside
 * subagents and omit them in the root session. Input that cannot be decoded at all is treated as a leaf's,
 * so that every failure path ends in a deny for anything that might be a leaf.
 */

import type { StdinRead } from "./stdin.js";

export type Caller = "root" | "leaf";

export type HookInput =
  | { ok: true; value: Record<string, unknown>; caller: Caller }
  | { ok: false; rule: "guard.malformed-input" | "guard.input-too-large"; message: string; caller: "leaf" };

const decoder = new TextDecoder("utf-8", { fatal: true });

export function parseHookInput(read: StdinRead): HookInput {
  switch (read.kind) {
    case "too-large":
      return malformed(
        "guard.input-too-large",
        `the hook input is larger than ${read.maxBytes} bytes; it was not read whole`,
      );
    case "timeout":
      return malformed(
        "guard.malformed-input",
        `the hook input did not end within ${read.afterMs} ms (${read.prefix.length} bytes arrived)`,
      );
    case "error":
      return malformed("guard.malformed-input", `the hook input could not be read: ${read.message}`);
    default:
      return parseBytes(read.bytes);
  }
}

export function parseBytes(bytes: Uint8Array): HookInput {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return malformed("guard.malformed-input", "the hook input is not UTF-8 text");
  }
  if (text.trim() === "") return malformed("guard.malformed-input", "the hook input is empty");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return malformed("guard.malformed-input", `the hook input is not JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return malformed("guard.malformed-input", `the hook input is ${kind}, not a JSON object`);
  }
  const obj = value as Record<string, unknown>;
  return { ok: true, value: obj, caller: callerOf(obj) };
}

/** Leaf when `agent_type` or `agent_id` is present with any value (even an empty or wrong-typed one). */
export function callerOf(obj: Record<string, unknown>): Caller {
  return Object.hasOwn(obj, "agent_type") || Object.hasOwn(obj, "agent_id") ? "leaf" : "root";
}

/** A string field, or undefined when absent or of another type. */
export function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return typeof v === "string" ? v : undefined;
}

function malformed(rule: "guard.malformed-input" | "guard.input-too-large", message: string): HookInput {
  return { ok: false, rule, message, caller: "leaf" };
}
