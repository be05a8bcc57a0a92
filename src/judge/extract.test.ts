import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractResultJson } from "./extract.js";

const OBJ = '{"result_version":"agent-result/v1","n":1}';

function codeOf(text: string): string | undefined {
  const r = extractResultJson(text, "stdin");
  return r.ok ? undefined : r.diagnostics[0]?.code;
}

describe("extractResultJson", () => {
  it("accepts a bare object, with surrounding whitespace", () => {
    const r = extractResultJson(`\n  ${OBJ}\n\n`);
    expect(r).toMatchObject({ ok: true, json: OBJ, value: { n: 1 } });
  });

  it("accepts exactly one ```json block with prose around it", () => {
    const r = extractResultJson(`Done. Here is my result:\n\n\`\`\`json\n${OBJ}\n\`\`\`\n\nThanks.`);
    expect(r).toMatchObject({ ok: true, json: OBJ });
  });

  it("accepts an uppercase info string and a longer fence", () => {
    expect(extractResultJson(`\`\`\`\`JSON\n${OBJ}\n\`\`\`\`\n`)).toMatchObject({ ok: true });
  });

  it("ignores fenced blocks of other languages", () => {
    const text = `\`\`\`sh\nnpm test\n\`\`\`\n\`\`\`json\n${OBJ}\n\`\`\``;
    expect(extractResultJson(text)).toMatchObject({ ok: true, json: OBJ });
  });

  it("a json fence inside another fence is not a block", () => {
    const text = `\`\`\`\`md\n\`\`\`json\n{"x":1}\n\`\`\`\n\`\`\`\`\n\`\`\`json\n${OBJ}\n\`\`\``;
    expect(extractResultJson(text)).toMatchObject({ ok: true, json: OBJ });
  });

  it("keeps a fenced block's lines exactly as they were", () => {
    const body = '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}';
    expect(extractResultJson(`x\n\`\`\`json\n${body}\n\`\`\`\n`)).toMatchObject({ ok: true, json: body });
  });

  it("a closing fence may be indented or followed by spaces", () => {
    expect(extractResultJson(`\`\`\`json\n${OBJ}\n  \`\`\`   \nafter`)).toMatchObject({
      ok: true,
      json: OBJ,
    });
  });

  it("a body line that merely starts or ends with backticks does not close the block", () => {
    expect(codeOf('````json\n{"a":1}\n```x\n````')).toBe("record.malformed-json");
    expect(codeOf('````json\n{"a":1}\nx```\n````')).toBe("record.malformed-json");
    expect(codeOf('````json\n{"a":1}\n```\n````')).toBe("record.malformed-json");
  });

  it.each([
    ["prose", "hello", "no bare JSON object and no ```json fenced block found"],
    ["two blocks", "```json\n{}\n```\n```json\n{}\n```", "found 2 ```json fenced blocks; expected one"],
    ["an array", "```json\n[]\n```", "the result is an array, not a JSON object"],
    ["null", "```json\nnull\n```", "the result is null, not a JSON object"],
    ["a number", "```json\n5\n```", "the result is number, not a JSON object"],
  ])("says what it found: %s", (_name, text, message) => {
    const r = extractResultJson(text);
    expect(r.ok ? "" : r.diagnostics[0]!.message).toBe(message);
  });

  it("quotes the parse error", () => {
    const r = extractResultJson("{oops");
    expect(r.ok ? "" : r.diagnostics[0]!.message).toMatch(/^the result is not valid JSON: ./);
  });

  it.each([
    ["prose only", "I could not finish.", "record.no-json"],
    ["empty", "", "record.no-json"],
    ["an unlabelled fence", `\`\`\`\n${OBJ}\n\`\`\``, "record.no-json"],
    ["two json blocks", `\`\`\`json\n${OBJ}\n\`\`\`\n\`\`\`json\n${OBJ}\n\`\`\``, "record.multiple-json"],
    ["bare object with trailing prose", `${OBJ}\nDone.`, "record.malformed-json"],
    ["a fenced block that is not JSON", "```json\n{result: 1}\n```", "record.malformed-json"],
    ["an unclosed fence with a truncated object", '```json\n{"a":', "record.malformed-json"],
    ["a fenced array", "```json\n[1,2]\n```", "record.not-object"],
    ["a fenced null", "```json\nnull\n```", "record.not-object"],
    ["a fenced string", '```json\n"x"\n```', "record.not-object"],
  ])("rejects %s with %s", (_name, text, code) => {
    expect(codeOf(text)).toBe(code);
  });

  it("names the source in the diagnostic", () => {
    const r = extractResultJson("nothing", "leaf.txt");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]).toMatchObject({ path: "leaf.txt", severity: "error" });
  });

  it("never throws, and accepts only JSON objects (property)", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const r = extractResultJson(text);
        if (r.ok) {
          expect(typeof r.value).toBe("object");
          expect(Array.isArray(r.value)).toBe(false);
          expect(JSON.parse(r.json)).toEqual(r.value);
        } else {
          expect(r.diagnostics).toHaveLength(1);
          expect(r.diagnostics[0]!.code).toMatch(/^record\./);
        }
      }),
    );
  });

  it("round-trips any object, bare or fenced (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (obj, fenced) => {
        const json = JSON.stringify(obj, null, 2);
        const text = fenced ? `Result:\n\`\`\`json\n${json}\n\`\`\`\n` : json;
        const r = extractResultJson(text);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value).toEqual(JSON.parse(json));
      }),
    );
  });
});
