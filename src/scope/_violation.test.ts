import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { show } from "./_violation.js";

/** `show` without its printable-ASCII shortcut. */
function slowShow(input: string): string {
  const escaped = input.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Default_Ignorable_Code_Point}\p{Cs}\u061c\u202a-\u202e\u2066-\u2069]/gu,
    (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
  return escaped.length > 160 ? `"${escaped.slice(0, 160)}…" (${input.length} chars)` : `"${escaped}"`;
}

describe("show", () => {
  it("renders every input as the full Unicode escape does, printable ASCII shortcut or not", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({
        unit: fc.constantFrom("a", " ", "~", "\u007f", "\u0000", "\t", "\u00ad", "\u200b", "\ud800"),
        maxLength: 200,
      }),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(show(s)).toBe(slowShow(s));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["src/a.ts", '"src/a.ts"'],
    ["a b~", '"a b~"'],
    ["a\u007fb", '"a\\u{7F}b"'],
    ["a\tb", '"a\\u{9}b"'],
    ["a\u200bb", '"a\\u{200B}b"'],
    ["\ud800", '"\\u{D800}"'],
  ])("show(%j) is %s", (input, expected) => {
    expect(show(input)).toBe(expected);
  });
});
