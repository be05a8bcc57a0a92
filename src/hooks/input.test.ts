import { describe, expect, it } from "vitest";
import { callerOf, parseBytes, parseHookInput, stringField } from "./input.js";

const enc = (s: string) => Buffer.from(s, "utf8");

describe("parseBytes", () => {
  it("accepts a JSON object and classifies the root session", () => {
    const r = parseBytes(enc(JSON.stringify({ tool_name: "Write", cwd: "/r" })));
    expect(r).toEqual({ ok: true, value: { tool_name: "Write", cwd: "/r" }, caller: "root" });
  });

  it("classifies a leaf by agent_type (host shapes and wrong types alike)", () => {
    for (const agentType of ["devrites:devrites-evidence-scout", "devrites-slice-wright", "", null, 7]) {
      const r = parseBytes(enc(JSON.stringify({ agent_type: agentType })));
      expect(r.ok && r.caller).toBe("leaf");
    }
    const byId = parseBytes(enc(JSON.stringify({ agent_id: "a1" })));
    expect(byId.ok && byId.caller).toBe("leaf");
  });

  it("strips a UTF-8 BOM", () => {
    const r = parseBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), enc("{}")]));
    expect(r.ok).toBe(true);
  });

  it.each([
    ["empty", "", "empty"],
    ["whitespace", " \n\t", "empty"],
    ["truncated JSON", '{"agent_type":"x","tool', "not JSON"],
    ["an array", "[]", "an array"],
    ["null", "null", "null"],
    ["a string", '"x"', "string"],
    ["a number", "42", "number"],
  ])("rejects %s as malformed and treats the caller as a leaf", (_name, text, words) => {
    const r = parseBytes(enc(text));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.rule).toBe("guard.malformed-input");
      expect(r.caller).toBe("leaf");
      expect(r.message).toContain(words);
    }
  });

  it("rejects bytes that are not UTF-8", () => {
    const r = parseBytes(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect(r).toMatchObject({ ok: false, rule: "guard.malformed-input", caller: "leaf" });
    if (!r.ok) expect(r.message).toContain("UTF-8");
  });
});

describe("parseHookInput", () => {
  it("maps an oversized input to guard.input-too-large", () => {
    const r = parseHookInput({ kind: "too-large", prefix: enc("{"), maxBytes: 10 });
    expect(r).toMatchObject({ ok: false, rule: "guard.input-too-large", caller: "leaf" });
  });
  it("maps a timeout and a stream error to guard.malformed-input", () => {
    expect(parseHookInput({ kind: "timeout", prefix: enc("{}"), afterMs: 3000 })).toMatchObject({
      ok: false,
      rule: "guard.malformed-input",
    });
    expect(parseHookInput({ kind: "error", message: "EIO" })).toMatchObject({
      ok: false,
      rule: "guard.malformed-input",
    });
  });
  it("even a complete-looking prefix that timed out is not trusted", () => {
    const r = parseHookInput({ kind: "timeout", prefix: enc('{"cwd":"/r"}'), afterMs: 3000 });
    expect(r.ok).toBe(false);
  });
});

describe("callerOf and stringField", () => {
  it("uses own properties only", () => {
    const inherited = Object.create({ agent_type: "x" }) as Record<string, unknown>;
    expect(callerOf(inherited)).toBe("root");
    expect(callerOf({ __proto__: null, agent_type: "x" } as Record<string, unknown>)).toBe("leaf");
  });
  it("returns strings only", () => {
    expect(stringField({ a: "x" }, "a")).toBe("x");
    expect(stringField({ a: 1 }, "a")).toBeUndefined();
    expect(stringField({}, "a")).toBeUndefined();
    expect(stringField(Object.create({ a: "x" }) as Record<string, unknown>, "a")).toBeUndefined();
  });
});
