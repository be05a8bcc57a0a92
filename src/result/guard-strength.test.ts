import { describe, expect, it } from "vitest";
import { guardStrength } from "./guard-strength.js";

describe("guardStrength", () => {
  it("is enforced when the guard decided a tool call", () => {
    expect(
      guardStrength(
        [
          { type: "packet.created", data: {} },
          { type: "hook.subagent-stop", data: {} },
          { type: "guard.decision", data: {} },
        ],
        true,
      ),
    ).toBe("enforced");
  });

  it("is observed when only hooks left a trace", () => {
    expect(
      guardStrength(
        [
          { type: "packet.created", data: {} },
          { type: "hook.subagent-stop", data: {} },
        ],
        true,
      ),
    ).toBe("observed");
  });

  it("is unavailable when no hook left a trace", () => {
    expect(
      guardStrength(
        [
          { type: "packet.created", data: {} },
          { type: "result.recorded", data: {} },
        ],
        true,
      ),
    ).toBe("unavailable");
    expect(guardStrength([], true)).toBe("unavailable");
  });

  it("does not count look-alike event types", () => {
    expect(
      guardStrength(
        [
          { type: "guard.decisions", data: {} },
          { type: "xhook.y", data: {} },
          { type: "Hook.x", data: {} },
        ],
        true,
      ),
    ).toBe("unavailable");
  });

  const shell = (sandbox: string | null, decision = "allow") => ({
    type: "guard.decision",
    data: { tool: "Bash", decision, sandbox },
  });
  const read = { type: "guard.decision", data: { tool: "Read", decision: "allow" } };

  it("is sandboxed when every allowed shell call ran in a sandbox", () => {
    expect(guardStrength([read, shell("bwrap"), shell("bwrap+overlay")], true)).toBe("sandboxed");
    // a call under the Landlock helper alone counts as sandboxed too; one unsandboxed call beside it does not
    expect(guardStrength([read, shell("landlock")], true)).toBe("sandboxed");
    expect(guardStrength([shell("landlock"), shell(null)], true)).toBe("enforced");
    // a denied shell call did not run, sandboxed or not
    expect(
      guardStrength(
        [shell("bwrap"), { type: "guard.decision", data: { tool: "Bash", decision: "deny" } }],
        true,
      ),
    ).toBe("sandboxed");
  });

  it("is only enforced when one allowed shell call ran unsandboxed, or there was no shell call", () => {
    expect(guardStrength([shell("bwrap"), shell(null)], true)).toBe("enforced");
    expect(guardStrength([read], true)).toBe("enforced");
    expect(guardStrength([shell("")], true)).toBe("enforced");
    // the mechanism name must be a string: a look-alike is not a sandbox
    expect(
      guardStrength([{ type: "guard.decision", data: { decision: "allow", sandbox: true } }], true),
    ).toBe("enforced");
  });

  it("is unverified when the guard decided calls but the leaf's transcript could not be matched to receipts", () => {
    const shell = { type: "guard.decision", data: { tool: "Bash", decision: "allow", sandbox: "bwrap" } };
    const write = { type: "guard.decision", data: { tool: "Write", decision: "allow" } };
    expect(guardStrength([shell], false)).toBe("unverified");
    expect(guardStrength([write], false)).toBe("unverified");
    // near misses: with no decision at all the strength is what the hooks show, receipts or not
    expect(guardStrength([{ type: "hook.subagent-stop", data: {} }], false)).toBe("observed");
    expect(guardStrength([], false)).toBe("unavailable");
    expect(guardStrength([shell], true)).toBe("sandboxed");
  });
});
