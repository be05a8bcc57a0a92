import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type KnownValue, parseReusing, topLevelValueText } from "./json-reuse.js";

const LIST = [{ path: "a", n: 1 }, { path: 'q"\\', n: null }, []];
/** A known value as the contract requires: its text, and what JSON.parse makes of that text. */
function known(value: unknown, indent?: number): KnownValue {
  const text = JSON.stringify(value, null, indent);
  return { text, value: JSON.parse(text) };
}

/** What parseReusing must agree with whenever it answers. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for("invalid");
  }
}

describe("parseReusing", () => {
  it("reuses the known value (the same object) and parses the rest", () => {
    const k = known(LIST);
    const text = `{"run_id": "r1", "dirty": ${k.text}, "touched": [1, "x"]}`;
    const doc = parseReusing(text, "dirty", k);
    expect(doc).toEqual(JSON.parse(text));
    expect(doc?.dirty).toBe(k.value);
    expect(Object.keys(doc!)).toEqual(["run_id", "dirty", "touched"]);
  });

  it("works for any formatting around the value, and for pretty-printed values", () => {
    const k = known(LIST, 2);
    const record = { schema: "s", dirty: LIST, touched: [] };
    const nested = JSON.stringify(record, null, 2).replace(
      JSON.stringify(LIST, null, 2).replaceAll("\n", "\n  "),
      () => k.text,
    );
    for (const text of [
      nested,
      ` \n\t{ "dirty" :\r\n${k.text}\n}\n `,
      `{"a":{"dirty":1},"dirty":${k.text}}`,
    ]) {
      expect(parseReusing(text, "dirty", k)).toEqual(parsed(text));
    }
  });

  it.each<[string, string]>([
    ["the value differs", `{"dirty": [1]}`],
    ["the value has the known text as a prefix only", `{"dirty": [${JSON.stringify(LIST)}]}`],
    ["the value is followed by more of itself", `{"dirty": ${JSON.stringify(LIST)}[]}`],
    ["the key is absent", `{"touched": ${JSON.stringify(LIST)}}`],
    ["the key is repeated", `{"dirty": ${JSON.stringify(LIST)}, "dirty": []}`],
    ["the key is repeated in an escaped spelling", `{"dirty": ${JSON.stringify(LIST)}, "dir\\u0074y": []}`],
    ["the escaped spelling comes first", `{"dir\\u0074y": [], "dirty": ${JSON.stringify(LIST)}}`],
    ["the known text is nested", `{"x": {"dirty": ${JSON.stringify(LIST)}}}`],
    [
      "the known text is inside a string",
      `{"x": "\\"dirty\\": ${JSON.stringify(LIST).replaceAll('"', '\\"')}"}`,
    ],
    ["the document is an array", `[{"dirty": ${JSON.stringify(LIST)}}]`],
    ["the document is empty", `{}`],
    ["the document is not JSON after the value", `{"dirty": ${JSON.stringify(LIST)}, "x": tru}`],
    ["the document is not JSON before the value", `{"x": 01, "dirty": ${JSON.stringify(LIST)}}`],
    ["a key is not a string", `{x: 1, "dirty": ${JSON.stringify(LIST)}}`],
    ["a colon is missing", `{"x" 1, "dirty": ${JSON.stringify(LIST)}}`],
    ["a comma is missing", `{"x": 1 "dirty": ${JSON.stringify(LIST)}}`],
    ["a trailing comma", `{"dirty": ${JSON.stringify(LIST)},}`],
    ["text after the object", `{"dirty": ${JSON.stringify(LIST)}} x`],
    ["a second object after it", `{"dirty": ${JSON.stringify(LIST)}}{}`],
    ["an unterminated string before it", `{"x": "abc, "dirty": ${JSON.stringify(LIST)}}`],
    ["an unterminated key", `{"x`],
    ["an unterminated nested value", `{"x": [1, {"y": "}"`],
    ["an unterminated string in a nested value", `{"x": [1, "]`],
    ["an empty value", `{"x": , "dirty": ${JSON.stringify(LIST)}}`],
    ["a key that is not valid JSON", `{"\\x": 1, "dirty": ${JSON.stringify(LIST)}}`],
  ])("declines when %s", (_why, text) => {
    expect(parseReusing(text, "dirty", known(LIST))).toBeUndefined();
  });

  it("declines a known value that is not an array or object text", () => {
    for (const v of ["abc", 12, null, true]) {
      const k = known(v);
      expect(parseReusing(`{"dirty": ${k.text}}`, "dirty", k)).toBeUndefined();
    }
    expect(parseReusing(`{"dirty":  [1]}`, "dirty", { text: " [1]", value: [1] })).toBeUndefined();
  });

  it("reuses an object value too, and keeps other keys whatever their names", () => {
    const k = known({ a: [1, { b: "}" }] });
    const text = `{"__proto__": {"x": 1}, "dirty": ${k.text}, "constructor": "c"}`;
    const doc = parseReusing(text, "dirty", k);
    expect(doc).toEqual(JSON.parse(text));
    expect(Object.hasOwn(doc!, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
  });

  it("agrees with JSON.parse on every document it answers for (property)", () => {
    const value = fc.oneof(
      fc.array(fc.jsonValue(), { maxLength: 4 }),
      fc.dictionary(fc.string(), fc.jsonValue()),
    );
    const doc = fc.tuple(
      fc.dictionary(fc.constantFrom("a", "dirty", "b", "dir\\u0074y", '"', "\\"), fc.jsonValue(), {
        maxKeys: 4,
      }),
      value,
      fc.constantFrom(undefined, 1, 2, "\t"),
    );
    let answered = 0;
    fc.assert(
      fc.property(doc, fc.boolean(), ([rest, v, indent], put) => {
        const k = known(v, typeof indent === "number" ? indent : undefined);
        const obj = put ? { ...rest, dirty: v } : rest;
        let text = JSON.stringify(obj, null, indent);
        // Spell the known value exactly as known, wherever the formatter indented it.
        if (put && indent !== undefined)
          text = JSON.stringify({ ...obj, dirty: "\u0000" }, null, indent).replace('"\\u0000"', () => k.text);
        const got = parseReusing(text, "dirty", k);
        if (got !== undefined) {
          answered++;
          expect(got).toEqual(parsed(text));
          expect(got.dirty).toBe(k.value);
        } else if (put && !("dir\\u0074y" in rest) && typeof parsed(text) === "object") {
          // the only reason to decline a well-formed document holding the known value: a repeated key
          expect(Object.keys(rest)).toContain("dirty");
        }
      }),
    );
    expect(answered).toBeGreaterThan(10);
  });

  it("never answers for text that JSON.parse rejects, nor differently (mutated documents, property)", () => {
    const k = known([{ p: "x\\y", q: [1, 2] }, "]", "}"]);
    const base = `{"a": "s\\"}", "dirty": ${k.text}, "b": [{"c": null}, -1.5e3, true]}`;
    const edit = fc.tuple(
      fc.nat({ max: base.length }),
      fc.nat({ max: 3 }),
      fc.constantFrom("", '"', "\\", "{", "}", "[", "]", ",", ":", " ", "x", "1", '"dirty":'),
    );
    let answered = 0;
    let declinedValid = 0;
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 3 }), (edits) => {
        let text = base;
        for (const [at, del, ins] of edits) text = text.slice(0, at) + ins + text.slice(at + del);
        const got = parseReusing(text, "dirty", k);
        if (got !== undefined) {
          answered++;
          expect(got).toEqual(parsed(text));
        } else if (typeof parsed(text) === "object") declinedValid++;
      }),
      { numRuns: 2000 },
    );
    expect(answered).toBeGreaterThan(100); // edits that keep the document valid, or break only what is reparsed
    expect(declinedValid).toBeGreaterThan(0); // e.g. an edit inside the known value
    expect(parseReusing(base, "dirty", k)).toEqual(JSON.parse(base));
  });
});

describe("topLevelValueText", () => {
  it("returns the exact text of a top-level value, whatever it is", () => {
    const text = `{ "a" : "x\\"}" ,"dirty":\n[ 1, {"b": "]"} ] , "c": -2e5, "d": {"dirty": 0}, "e": true }`;
    expect(topLevelValueText(text, "dirty")).toBe('[ 1, {"b": "]"} ]');
    expect(topLevelValueText(text, "a")).toBe('"x\\"}"');
    expect(topLevelValueText(text, "c")).toBe("-2e5");
    expect(topLevelValueText(text, "d")).toBe('{"dirty": 0}');
    expect(topLevelValueText(text, "e")).toBe("true");
    expect(topLevelValueText(text, "z")).toBeUndefined();
  });

  it("is undefined for a repeated key, a non-object or a broken text", () => {
    expect(topLevelValueText(`{"dirty": [], "dirty": [1]}`, "dirty")).toBeUndefined();
    expect(topLevelValueText(`[{"dirty": []}]`, "dirty")).toBeUndefined();
    expect(topLevelValueText(`{"dirty": [}`, "dirty")).toBeUndefined();
    expect(topLevelValueText(`{"dirty": []`, "dirty")).toBeUndefined();
    expect(topLevelValueText(`{"dirty": []} x`, "dirty")).toBeUndefined();
    expect(topLevelValueText(`{"dirty": []}{}`, "dirty")).toBeUndefined();
    expect(topLevelValueText(` {"dirty": []}\n`, "dirty")).toBe("[]");
  });

  it("its text, given back as the known value, is reused (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 4 }),
        fc.jsonValue(),
        fc.constantFrom(undefined, 2),
        (v, other, indent) => {
          const text = JSON.stringify({ other, dirty: v }, null, indent);
          const t = topLevelValueText(text, "dirty");
          expect(t).toBeDefined();
          const k = { text: t!, value: JSON.parse(t!) };
          expect(k.value).toEqual(JSON.parse(text).dirty);
          const doc = parseReusing(text, "dirty", k);
          expect(doc).toEqual(JSON.parse(text));
          expect(doc?.dirty).toBe(k.value);
        },
      ),
    );
  });
});
