import { describe, expect, it } from "vitest";
import { type HostProcess, lastLine, sessionProblem } from "./process.js";

const ok: HostProcess = { stdout: "", stderr: "", exitCode: 0, timedOut: false, durationMs: 1 };

describe("sessionProblem", () => {
  it("is undefined for a session that ran, exited 0 and spawned the leaf", () => {
    expect(sessionProblem(ok, 30_000, "", undefined, [])).toBeUndefined();
  });

  it("names each thing that went wrong, in order, joined", () => {
    expect(
      sessionProblem({ ...ok, exitCode: 1 }, 30_000, "boom", "the leaf never came", ["budget spent"]),
    ).toBe("exited 1: boom; the leaf never came; budget spent");
  });

  it("a time-out or a start failure is said once, without an exit line", () => {
    expect(sessionProblem({ ...ok, exitCode: undefined, timedOut: true }, 30_000, "x", undefined, [])).toBe(
      "did not finish within 30 s",
    );
    expect(
      sessionProblem({ ...ok, exitCode: undefined, spawnError: "ENOENT" }, 30_000, "x", undefined, []),
    ).toBe("could not start: ENOENT");
  });
});

describe("lastLine", () => {
  it("takes the last non-blank line, at most 200 characters", () => {
    expect(lastLine("a\nb\n\n")).toBe("b");
    expect(lastLine(`x\n${"y".repeat(300)}`)).toBe("y".repeat(200));
    expect(lastLine("")).toBe("");
  });
});
