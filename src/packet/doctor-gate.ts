/**
 * The writer's gate on `devrites doctor`: `packet new --role devrites-slice-wright` is refused while the last
 * doctor run for the host version this command runs under failed (./../doctor/store.ts keeps it per user,
 * keyed `<host>@<version>`). Only a failure refuses: no record (doctor never ran on this version), or a command
 * run outside a host, dispatches as before. A row about another repository (Codex's trust of that
 * repository's hooks) does not count here. An unreadable state file refuses: the gate fails closed.
 */

import { realpathSync } from "node:fs";
import type { Diagnostic } from "../core/diagnostics.js";
import {
  type DoctorRecord,
  doctorStatePath,
  readDoctorState,
  recordKey,
  runningHost,
} from "../doctor/store.js";
import { diag } from "../judge/codes.js";

type Env = Readonly<Record<string, string | undefined>>;

const same = (a: string, b: string): boolean => {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return real(a) === real(b);
};

/** The failures of `rec` that bear on a dispatch in `root` (pure but for realpath). */
export function relevantFailures(rec: DoctorRecord, root: string): DoctorRecord["failed"] {
  return rec.failed.filter((f) => f.repo === undefined || same(f.repo, root));
}

/** Diagnostics refusing a writer dispatch in `root`, or none. */
export function doctorGate(env: Env, root: string): Diagnostic[] {
  const running = runningHost(env);
  if (running === undefined || running.version === undefined) return [];
  const read = readDoctorState(env);
  const where = doctorStatePath(env);
  if (!read.ok) {
    return [
      diag(
        "dispatch.doctor-state-invalid",
        `the doctor's record ${where} cannot be read (${read.why}), so whether ${running.host} ${running.version} keeps devrites' guarantees is unknown`,
        where,
        `run \`devrites doctor --host ${running.host}\` (it rewrites the record), then dispatch again`,
      ),
    ];
  }
  const rec = read.state.runs[recordKey(running.host, running.version)];
  if (rec === undefined || rec.ok) return [];
  const failed = relevantFailures(rec, root);
  if (failed.length === 0) return [];
  const list = failed.map((f) => `${f.probe} (${f.detail})`).join("; ");
  return [
    diag(
      "dispatch.doctor-failed",
      `the last \`devrites doctor\` for ${running.host} ${running.version} (${rec.at}) failed: ${list}; a writer is not dispatched on a host that does not keep devrites' guarantees`,
      where,
      `${failed[0]!.fix.split("\n")[0]}; then run \`devrites doctor --host ${running.host}\` again, and dispatch once it passes`,
    ),
  ];
}
