import { describe, expect, it } from "vitest";
import { doctorDiagnostics, doctorExitCode, renderMatrix } from "./matrix.js";
import { type HostReport, type ProbeRow, row } from "./types.js";

const pass = (probe: ProbeRow["probe"], host: ProbeRow["host"] = "claude"): ProbeRow =>
  row({ host, version: host === "claude" ? "2.1.328" : "0.169.0", probe, result: "pass", detail: "ok" });

const report = (host: HostReport["host"], rows: ProbeRow[], wallMs = 3200): HostReport => ({
  host,
  bin: `/bin/${host}`,
  version: host === "claude" ? "2.1.328" : "0.169.0",
  rows,
  wallMs,
});

describe("the doctor matrix", () => {
  it("renders one aligned row per probe with the host, version, result and what to do, then the times", () => {
    const text = renderMatrix([
      report("claude", [pass("host.runs"), pass("guard.deny")]),
      report(
        "codex",
        [
          pass("host.runs", "codex"),
          row({
            host: "codex",
            version: "0.169.0",
            probe: "codex.repo-trust",
            result: "fail",
            detail: "2 of 2 devrites hooks are untrusted",
            fix: 'open `codex`, type /hooks\n[hooks.state."k"]\ntrusted_hash = "sha256:x"',
          }),
        ],
        2100,
      ),
    ]);
    const lines = text.split("\n");
    expect(lines[0]).toBe("host    version  probe             result  what to do");
    expect(lines[1]).toBe("claude  2.1.328  host.runs         pass    -");
    expect(lines[4]).toBe("codex   0.169.0  codex.repo-trust  fail    open `codex`, type /hooks");
    expect(text).not.toContain("trusted_hash"); // the whole fix is the diagnostic's hint
    expect(lines.at(-1)).toBe(
      "doctor: 1 guarantee devrites relies on failed (claude 3.2 s, codex 2.1 s); the rites refuse to dispatch a writer on codex 0.169.0 until doctor passes",
    );
  });

  it("says every guarantee holds when nothing failed", () => {
    expect(
      renderMatrix([report("claude", [pass("host.runs")])])
        .split("\n")
        .at(-1),
    ).toBe("doctor: every guarantee devrites relies on holds on claude 2.1.328 (claude 3.2 s)");
  });

  it("shows why a row was skipped, and a non-gating failure as warn", () => {
    const text = renderMatrix([
      report("codex", [
        row({
          host: "codex",
          version: "0.169.0",
          probe: "codex.repo-trust",
          result: "skip",
          detail: "not in a git repository",
          fix: "run it in one",
          gating: false,
        }),
        row({
          host: "codex",
          version: "0.169.0",
          probe: "guard.spawn",
          result: "fail",
          detail: "odd",
          fix: "x",
          gating: false,
        }),
      ]),
    ]);
    expect(text).toContain("↳ not in a git repository");
    expect(text).toMatch(/guard\.spawn\s+warn\s+x/);
    expect(text).toContain("every guarantee devrites relies on holds");
  });

  it("exit code: 1 only when a gating row failed", () => {
    expect(doctorExitCode([report("claude", [pass("host.runs")])])).toBe(0);
    expect(doctorExitCode([])).toBe(0);
    const skip = row({
      host: "codex",
      version: "1",
      probe: "codex.repo-trust",
      result: "skip",
      detail: "d",
      gating: false,
    });
    expect(doctorExitCode([report("codex", [skip])])).toBe(0);
    const warn = row({
      host: "codex",
      version: "1",
      probe: "guard.spawn",
      result: "fail",
      detail: "d",
      gating: false,
    });
    expect(doctorExitCode([report("codex", [warn])])).toBe(0);
    const fail = row({
      host: "codex",
      version: "1",
      probe: "guard.spawn",
      result: "fail",
      detail: "d",
      fix: "f",
    });
    expect(doctorExitCode([report("claude", [pass("host.runs")]), report("codex", [fail])])).toBe(1);
  });

  it("one doctor.probe-failed error per gating failure (the probe as path, the fix as hint); warnings as info", () => {
    const fail = row({
      host: "codex",
      version: "0.169.0",
      probe: "guard.deny",
      result: "fail",
      detail: "ran",
      fix: "wire it",
    });
    const warn = row({
      host: "codex",
      version: "0.169.0",
      probe: "guard.spawn",
      result: "fail",
      detail: "w",
      fix: "x",
      gating: false,
    });
    expect(doctorDiagnostics([report("codex", [pass("host.runs", "codex"), fail, warn])])).toEqual([
      {
        code: "doctor.probe-failed",
        severity: "error",
        message: "codex 0.169.0: guard.deny: ran",
        path: "guard.deny",
        hint: "wire it",
      },
      {
        code: "doctor.probe-warning",
        severity: "info",
        message: "codex 0.169.0: guard.spawn: w",
        path: "guard.spawn",
        hint: "x",
      },
    ]);
  });
});
