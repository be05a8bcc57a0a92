import { describe, expect, it } from "vitest";
import { guardStrength } from "./guard-strength.js";

describe("guardStrength", () => {
  it("is enforced when the guard decided a tool call", () => {
    expect(
      guardStrength([{ type: "packet.created" }, { type: "hook.subagent-stop" }, { type: "guard.decision" }]),
    ).toBe("enforced");
  });

  it("is observed when only hooks left a trace", () => {
    expect(guardStrength([{ type: "packet.created" }, { type: "hook.subagent-stop" }])).toBe("observed");
  });

  it("is unavailable when no hook left a trace", () => {
    expect(guardStrength([{ type: "packet.created" }, { type: "result.recorded" }])).toBe("unavailable");
    expect(guardStrength([])).toBe("unavailable");
  });

  it("does not count look-alike event types", () => {
    expect(guardStrength([{ type: "guard.decisions" }, { type: "xhook.y" }, { type: "Hook.x" }])).toBe(
      "unavailable",
    );
  });
});
