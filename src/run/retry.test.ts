import { describe, expect, it } from "vitest";
import {
  decideRetry,
  fingerprint,
  OBJECTIVE_MAX,
  quoteDefect,
  type RejectedAttempt,
  retryObjective,
} from "./retry.js";

const at = (attempt: number, codes: string[], malformed = false): RejectedAttempt => ({
  attempt,
  malformed,
  diagnostics: codes.map((code) => ({ code, message: `${code} happened` })),
});

describe("fingerprint", () => {
  it("is role, step and the sorted distinct codes", () => {
    expect(fingerprint("r", "s", [{ code: "b" }, { code: "a" }, { code: "b" }])).toBe("r|s|a,b");
    expect(fingerprint("r", "s", [{ code: "a" }, { code: "b" }])).toBe(
      fingerprint("r", "s", [{ code: "b" }, { code: "a" }]),
    );
    expect(fingerprint("r", "s", [{ code: "a" }])).not.toBe(fingerprint("r", "t", [{ code: "a" }]));
  });
});

describe("decideRetry", () => {
  it("retries a first malformed result, quoting its defect", () => {
    expect(decideRetry("r", "s", [at(1, ["result.schema"], true)])).toEqual({
      action: "retry",
      nextAttempt: 2,
      fingerprint: "r|s|result.schema",
      defect: "result.schema: result.schema happened",
    });
  });
  it("blocks a second malformed result, even with a different defect", () => {
    const d = decideRetry("r", "s", [at(1, ["result.schema"], true), at(2, ["result.json"], true)]);
    expect(d).toMatchObject({ action: "block", reason: "malformed-twice" });
  });
  it("retries a malformed result after a stale one (only one malformed so far)", () => {
    expect(decideRetry("r", "s", [at(1, ["result.stale"]), at(2, ["result.schema"], true)])).toMatchObject({
      action: "retry",
      nextAttempt: 3,
    });
  });
  it("blocks on the third attempt with the same fingerprint", () => {
    const h = [at(1, ["x"]), at(2, ["x"]), at(3, ["x"])];
    expect(decideRetry("r", "s", h)).toMatchObject({ action: "block", reason: "fingerprint-exhausted" });
    expect(decideRetry("r", "s", h.slice(0, 2))).toMatchObject({ action: "retry", nextAttempt: 3 });
  });
  it("blocks when attempts run out with different fingerprints", () => {
    expect(decideRetry("r", "s", [at(1, ["x"]), at(2, ["y"]), at(3, ["z"])])).toMatchObject({
      action: "block",
      reason: "attempts-exhausted",
    });
  });
});

describe("retryObjective", () => {
  it("appends the defect verbatim in quotes", () => {
    const o = retryObjective("Survey src.", 1, 'result.schema (a.json): expected "x"');
    expect(o).toBe(
      'Survey src.\n\nAttempt 1 was rejected. Fix exactly this defect and nothing else: "result.schema (a.json): expected "x""',
    );
  });
  it("cuts an over-long quotation at the cap and marks the cut", () => {
    const o = retryObjective("Survey src.", 2, "d".repeat(5000));
    expect(o.length).toBeLessThanOrEqual(OBJECTIVE_MAX);
    expect(o.endsWith('…[cut]"')).toBe(true);
    expect(o.startsWith("Survey src.")).toBe(true);
  });
  it("quotes a rejection without diagnostics plainly", () => {
    expect(quoteDefect({ diagnostics: [] })).toBe("rejected without a diagnostic");
  });
});
