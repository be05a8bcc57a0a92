import { describe, expect, it } from "vitest";
import { guardStrength } from "./guard-strength.js";

describe("guardStrength", () => {
  it("is enforced when the guard decided a tool call", () => {
    expect(
      guardStrength([
        { type: "packet.created", data: {} },
        { type: "hook.subagent-stop", data: {} },
        { type: "guard.decision", data: {} },
      ]),
    ).toBe("enforced");
  });

  it("is observed when only hooks left a trace", () => {
    expect(
      guardStrength([
        { type: "packet.created", data: {} },
        { type: "hook.subagent-stop", data: {} },
      ]),
    ).toBe("observed");
  });

  it("is unavailable when no hook left a trace", () => {
    expect(
      guardStrength([
        { type: "packet.created", data: {} },
        { type: "result.recorded", data: {} },
      ]),
    ).toBe("unavailable");
    expect(guardStrength([])).toBe("unavailable");
  });

  it("does not count look-alike event types", () => {
    expect(
      guardStrength([
        { type: "guard.decisions", data: {} },
        { type: "xhook.y", data: {} },
        { type: "Hook.x", data: {} },
      ]),
    ).toBe("unavailable");
  });

  const shell = (sandbox: string | null, decision = "allow") => ({
    type: "guard.decision",
    data: { tool: "Bash", decision, sandbox },
  });
  const read = { type: "guard.decision", data: { tool: "Read", decision: "allow" } };

  it("is sandboxed when every allowed shell call ran in a sandbox", () => {
    expect(guardStrength([read, shell("bwrap"), shell("bwrap+overlay")])).toBe("sandboxed");
    // a call under the Landlock helper alone counts as sandboxed too; one unsandboxed call beside it does not
    expect(guardStrength([read, shell("landlock")])).toBe("sandboxed");
    expect(guardStrength([shell("landlock"), shell(null)])).toBe("enforced");
    // a denied shell call did not run, sandboxed or not
    expect(
      guardStrength([shell("bwrap"), { type: "guard.decision", data: { tool: "Bash", decision: "deny" } }]),
    ).toBe("sandboxed");
  });

  it("is only enforced when one allowed shell call ran unsandboxed, or there was no shell call", () => {
    expect(guardStrength([shell("bwrap"), shell(null)])).toBe("enforced");
    expect(guardStrength([read])).toBe("enforced");
    expect(guardStrength([shell("")])).toBe("enforced");
    // the mechanism name must be a string: a look-alike is not a sandbox
    expect(guardStrength([{ type: "guard.decision", data: { decision: "allow", sandbox: true } }])).toBe(
      "enforced",
    );
  });
});
