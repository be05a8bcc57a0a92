import { describe, expect, it } from "vitest";
import { error, info, warning } from "../core/diagnostics.js";
import { codesOf, exitCodeOf, verdictOf } from "./verdict.js";

describe("verdictOf", () => {
  it("accepts nothing, or only infos and non-gate warnings", () => {
    expect(verdictOf([])).toBe("accepted");
    expect(verdictOf([info("doctor.host-absent", "n"), warning("packet.superseded", "w")])).toBe("accepted");
  });

  it("pauses for a gate when there is no error", () => {
    expect(verdictOf([warning("result.gate", "g")])).toBe("gate");
  });

  it("rejects on any error, even beside a gate", () => {
    expect(verdictOf([warning("result.gate", "g"), error("result.stale", "s")])).toBe("rejected");
    expect(verdictOf([error("pack.read-failed", "e")])).toBe("rejected");
  });

  it("maps verdicts to the CLI exit codes", () => {
    expect(exitCodeOf("accepted")).toBe(0);
    expect(exitCodeOf("rejected")).toBe(1);
    expect(exitCodeOf("gate")).toBe(3);
  });

  it("lists distinct codes sorted", () => {
    expect(
      codesOf([error("result.stale", "1"), error("envelope.schema", "2"), error("result.stale", "3")]),
    ).toEqual(["envelope.schema", "result.stale"]);
  });
});
