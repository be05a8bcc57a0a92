/**
 * `devrites doctor`, the imperative shell: find each host, make its scratch repository, run its probes, and
 * store the result per host version (./store.ts). Pure parts: ./probes.ts (judging), ./matrix.ts (output).
 */

import { type Diagnostic, ExitCode } from "../core/diagnostics.js";
import { probeClaude, userHooksRow } from "./claude.js";
import { probeCodex, repoTrustRow } from "./codex.js";
import { findHost, onPath } from "./find-host.js";
import { doctorDiagnostics, doctorExitCode } from "./matrix.js";
import { BACKGROUND_ROLE, LEAF_ROLE } from "./probes.js";
import { makeScratch } from "./scratch.js";
import { saveDoctorRun } from "./store.js";
import { type DoctorFault, type DoctorHost, type HostReport, row } from "./types.js";

export interface DoctorOptions {
  /** Hosts asked for (`--host`); undefined: every host found. */
  hosts: DoctorHost[] | undefined;
  /** `--claude PATH`, `--codex PATH`. */
  bins: Partial<Record<DoctorHost, string>>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  /** Test-only faults seeded into the scratch install; not reachable from the command line. */
  faults?: readonly DoctorFault[];
  /** Per host run; default 60 s. */
  timeoutMs?: number;
  /** Keep the scratch folders (debugging). */
  keepScratch?: boolean;
}

export interface DoctorOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  reports: HostReport[];
  /** The state file written, when any host was probed. */
  statePath?: string;
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorOutcome> {
  const asked = opts.hosts ?? (["claude", "codex"] as DoctorHost[]);
  const explicit = (h: DoctorHost) => opts.hosts !== undefined || opts.bins[h] !== undefined;
  const diagnostics: Diagnostic[] = [];
  const reports: HostReport[] = [];
  const faults = opts.faults ?? [];
  for (const host of asked) {
    const found = await findHost(host, opts.bins[host], opts.env, opts.cwd);
    if (!found.ok) {
      // a host the user did not ask for by name is simply not there: said, but no failure
      diagnostics.push(
        explicit(host) || found.diagnostic.code !== "doctor.host-not-found"
          ? found.diagnostic
          : { ...found.diagnostic, code: "doctor.host-absent", severity: "info" },
      );
      continue;
    }
    const started = Date.now();
    const { bin, version } = found.found;
    let rows: HostReport["rows"] = [];
    let stage = "the scratch repository could not be prepared";
    try {
      const roles = host === "claude" ? [LEAF_ROLE, BACKGROUND_ROLE] : [LEAF_ROLE];
      const scratch = await makeScratch(host, roles, opts.env, faults);
      stage = "the probes could not run";
      try {
        const common = { bin, version, scratch, env: opts.env, timeoutMs: opts.timeoutMs ?? 60_000 };
        if (host === "claude") {
          const bwrap = onPath("bwrap", "/usr/bin:/bin:/usr/local/bin") ?? "bwrap";
          rows = await probeClaude({
            ...common,
            ...(faults.includes("no-sandbox")
              ? { wrap: [bwrap, "--dev-bind", "/", "/", "--unshare-user", "--disable-userns", "--"] }
              : {}),
          });
          rows.push(userHooksRow({ version, cwd: opts.cwd, env: opts.env }));
        } else {
          rows = await probeCodex({ ...common, trustHooks: !faults.includes("hooks-untrusted") });
          rows.push(await repoTrustRow({ bin, version, cwd: opts.cwd, env: opts.env }));
        }
      } finally {
        if (!opts.keepScratch) scratch.cleanup();
      }
    } catch (e) {
      rows = [
        row({
          host,
          version,
          probe: "host.runs",
          result: "fail",
          detail: `${stage}: ${(e as Error).message}`,
          fix: "see the message; doctor needs git and a writable cache folder (DEVRITES_DOCTOR_SCRATCH)",
        }),
      ];
    }
    reports.push({ host, bin, version, rows, wallMs: Date.now() - started });
  }
  if (reports.length === 0 && !diagnostics.some((d) => d.severity === "error")) {
    diagnostics.length = 0;
    diagnostics.push({
      code: "doctor.host-not-found",
      severity: "error",
      message: "neither `claude` nor `codex` is on PATH",
      hint: "install a host, or give its path with --claude PATH or --codex PATH",
    });
  }
  diagnostics.push(...doctorDiagnostics(reports));
  let statePath: string | undefined;
  if (reports.length > 0) statePath = saveDoctorRun(reports, opts.now(), opts.env);
  const missing = diagnostics.some(
    (d) => d.code === "doctor.host-not-found" || d.code === "doctor.host-unusable",
  );
  const exitCode =
    doctorExitCode(reports) !== ExitCode.Ok
      ? ExitCode.Violation
      : missing
        ? reports.length === 0
          ? ExitCode.MissingInput
          : ExitCode.Violation
        : ExitCode.Ok;
  return { exitCode, diagnostics, reports, ...(statePath ? { statePath } : {}) };
}
