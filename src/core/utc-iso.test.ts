import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utcIso } from "./utc-iso.js";

describe("utcIso", () => {
  it("writes what toISOString writes, for any date in years 0 to 9999", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("0000-01-01T00:00:00.000Z"),
          max: new Date("9999-12-31T23:59:59.999Z"),
          noInvalidDate: true,
        }),
        (d) => {
          expect(utcIso(d)).toBe(d.toISOString());
        },
      ),
      { numRuns: 5000 },
    );
  });

  it.each([
    "1970-01-01T00:00:00.000Z",
    "2000-02-29T23:59:59.999Z",
    "2026-12-31T23:59:59.999Z",
    "0000-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
  ])("keeps %s as it is", (iso) => {
    expect(utcIso(new Date(iso))).toBe(iso);
  });

  it("near miss: outside four-digit years and for an invalid date it is toISOString (signed year, throw)", () => {
    const far = new Date("+010000-01-01T00:00:00.000Z");
    expect(utcIso(far)).toBe("+010000-01-01T00:00:00.000Z");
    expect(utcIso(new Date(-62198755200001))).toBe(new Date(-62198755200001).toISOString());
    expect(() => utcIso(new Date(Number.NaN))).toThrow(RangeError);
  });
});
