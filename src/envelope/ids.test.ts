import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRunId, newRunId, nextStepNumber, RITE_PATTERN, stepId } from "./ids.js";

describe("run ids", () => {
  it("formats the UTC second and 8 hex characters", () => {
    const id = newRunId(new Date("2026-11-29T22:15:07.123Z"), Uint8Array.from([0x1a, 0x2b, 0x3c, 0x4d]));
    expect(id).toBe("run-20261129T221507Z-1a2b3c4d");
    expect(isRunId(id)).toBe(true);
  });

  it("always yields a valid run id (property)", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("9999-12-31T23:59:59Z"),
          noInvalidDate: true,
        }),
        fc.uint8Array({ minLength: 4, maxLength: 4 }),
        (d, r) => {
          expect(isRunId(newRunId(d, r))).toBe(true);
        },
      ),
    );
  });

  it("refuses entropy of the wrong size", () => {
    expect(() => newRunId(new Date(), new Uint8Array(3))).toThrow(RangeError);
  });

  it.each([
    "run-20261129T221507Z-1A2B3C4D",
    "run-20261129T221507-1a2b3c4d",
    "20261129T221507Z-1a2b3c4d",
    "",
    7,
  ])("rejects %s", (x) => {
    expect(isRunId(x)).toBe(false);
  });
});

describe("step ids", () => {
  it("numbers from 1 and never reuses a number", () => {
    expect(nextStepNumber("rite-build", "devrites-slice-wright", [])).toBe(1);
    expect(
      nextStepNumber("rite-build", "devrites-slice-wright", [
        "rite-build/devrites-slice-wright#1",
        "rite-build/devrites-slice-wright#4",
        "rite-build/devrites-evidence-scout#9",
        "rite-plan/devrites-slice-wright#12",
        "rite-build/devrites-slice-wright#x",
        "rite-build/devrites-slice-wright#",
      ]),
    ).toBe(5);
  });

  it("does not confuse a rite that is a prefix of another", () => {
    expect(
      nextStepNumber("rite-build", "devrites-code-reviewer", ["rite-build-x/devrites-code-reviewer#3"]),
    ).toBe(1);
  });

  it("formats <rite>/<role>#<n>", () => {
    expect(stepId("rite-build", "devrites-evidence-scout", 2)).toBe("rite-build/devrites-evidence-scout#2");
  });

  it.each([
    ["rite", true],
    ["rite-build", true],
    ["rite-quick-fix2", true],
    ["Rite-build", false],
    ["rite-", false],
    ["build", false],
    ["rite-build/x", false],
  ])("rite name %s → %s", (name, ok) => {
    expect(RITE_PATTERN.test(name)).toBe(ok);
  });
});
