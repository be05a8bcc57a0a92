import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a64Hex } from "./fnv.js";

/** The definition, with BigInt: the reference the fast version is held to. */
function reference(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

describe("fnv1a64Hex", () => {
  it("gives the published FNV-1a 64 values for ASCII", () => {
    expect(fnv1a64Hex("")).toBe("cbf29ce484222325");
    expect(fnv1a64Hex("a")).toBe("af63dc4c8601ec8c");
    expect(fnv1a64Hex("foobar")).toBe("85944171f73967e8");
  });
  it("tells near-identical inputs apart", () => {
    expect(fnv1a64Hex('{"command":"ls"}')).not.toBe(fnv1a64Hex('{"command":"ls "}'));
    expect(fnv1a64Hex("ab")).not.toBe(fnv1a64Hex("ba"));
  });
  it("equals the BigInt definition on any string (any code unit, surrogates included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => fnv1a64Hex(s) === reference(s)),
      { numRuns: 500 },
    );
  });
});
