/**
 * Rendering a doctor run (pure): one matrix for every host (host, version, probe, result, what to do), the
 * exit code, and one diagnostic per failed probe (what was observed, the whole fix as its hint).
 */

import { type Diagnostic, ExitCode, error, info } from "../core/diagnostics.js";
import type { HostReport, ProbeRow } from "./types.js";

/** 1 when any gating row failed, else 0. */
export function doctorExitCode(reports: readonly HostReport[]): ExitCode {
  return reports.some((r) => r.rows.some(failsRun)) ? ExitCode.Violation : ExitCode.Ok;
}

export const failsRun = (r: ProbeRow): boolean => r.result === "fail" && r.gating;

/** One `doctor.probe-failed` error per failed gating row, a `doctor.probe-warning` info per other failure. */
export function doctorDiagnostics(reports: readonly HostReport[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rep of reports) {
    for (const r of rep.rows) {
      if (r.result !== "fail") continue;
      const message = `${r.host} ${r.version}: ${r.probe}: ${r.detail}`;
      out.push(
        r.gating
          ? error("doctor.probe-failed", message, { path: r.probe, hint: r.fix })
          : info("doctor.probe-warning", message, { path: r.probe, hint: r.fix }),
      );
    }
  }
  return out;
}

const HEAD = ["host", "version", "probe", "result", "what to do"] as const;

/** The matrix as aligned text; the detail of a failed or skipped row follows it, indented. */
export function renderMatrix(reports: readonly HostReport[]): string {
  const rows = reports.flatMap((rep) => rep.rows);
  const cells = rows.map((r) => [
    r.host,
    r.version,
    r.probe,
    r.result === "fail" && !r.gating ? "warn" : r.result,
    r.result === "pass" ? "-" : (r.fix.split("\n")[0] ?? "") || "-",
  ]);
  const widths = HEAD.slice(0, 4).map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    [...c.slice(0, 4).map((x, i) => x.padEnd(widths[i]!)), c[4]].join("  ").trimEnd();
  const out = [line(HEAD)];
  const indent = " ".repeat(widths[0]! + 2);
  rows.forEach((r, i) => {
    out.push(line(cells[i]!));
    // a failure's detail and whole fix follow as its diagnostic (doctorDiagnostics); a skip says why here
    if (r.result === "skip" || (r.result === "fail" && !r.gating)) out.push(`${indent}↳ ${r.detail}`);
  });
  const times = reports.map((r) => `${r.host} ${(r.wallMs / 1000).toFixed(1)} s`).join(", ");
  const failed = rows.filter(failsRun).length;
  out.push(
    "",
    failed === 0
      ? `doctor: every guarantee devrites relies on holds on ${hostsText(reports)} (${times})`
      : `doctor: ${failed} guarantee${failed === 1 ? "" : "s"} devrites relies on failed (${times}); the rites refuse to dispatch a writer on ${failedHostsText(reports)} until doctor passes`,
  );
  return out.join("\n");
}

function hostsText(reports: readonly HostReport[]): string {
  return reports.map((r) => `${r.host} ${r.version}`).join(" and ") || "no host";
}

function failedHostsText(reports: readonly HostReport[]): string {
  return hostsText(reports.filter((r) => r.rows.some(failsRun)));
}
