import { describe, expect, it } from "vitest";
import { CODES, type Code, diag, STAGES } from "./codes.js";

const entries = Object.entries(CODES) as [Code, (typeof CODES)[Code]][];

describe("the diagnostics catalogue", () => {
  it.each(entries)("%s is well formed", (code, spec) => {
    expect(code).toMatch(/^[a-z]+\.[a-z]+(-[a-z]+)*$/);
    expect(STAGES).toContain(spec.stage);
    expect(spec.summary.length).toBeGreaterThan(10);
    expect(spec.hint.length).toBeGreaterThan(10);
    expect(spec.severity).toBe(code === "result.gate" ? "warning" : "error");
  });

  it("codes of a stage share its area", () => {
    for (const [code, spec] of entries) {
      const area = code.split(".")[0];
      if (spec.stage === "record") expect(area).toBe("record");
      else if (spec.stage === "schema") expect(["envelope", "result"]).toContain(area);
      else if (spec.stage !== "input") expect(area).toBe("result");
    }
  });

  it("diag carries the catalogued severity and hint, a path only when given", () => {
    expect(diag("result.stale", "m", "src/a.ts")).toEqual({
      code: "result.stale",
      severity: "error",
      message: "m",
      hint: CODES["result.stale"].hint,
      path: "src/a.ts",
    });
    expect(Object.hasOwn(diag("result.gate", "g"), "path")).toBe(false);
    expect(diag("result.gate", "g")).toEqual({
      code: "result.gate",
      severity: "warning",
      message: "g",
      hint: CODES["result.gate"].hint,
    });
    expect(diag("result.allowlist-invalid", "m", "p", "custom")).toMatchObject({ hint: "custom" });
  });
});
