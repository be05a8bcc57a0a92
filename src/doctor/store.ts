/**
 * Where the last doctor result per host version is kept, and which host a command runs under.
 *
 * The result is a fact about a host binary on this machine (hooks honoured, sandbox starting), not about a
 * repository, so it lives in one per-user file: `$DEVRITES_DOCTOR_STATE`, else
 * `$XDG_STATE_HOME/devrites/doctor.json`, else `~/.local/state/devrites/doctor.json`. Keyed `<host>@<version>`:
 * a host upgrade has no record until doctor runs on it again (see docs/doctor.md for why not `.devrites/`).
 * Reading never throws: an unreadable or foreign file is "no record", and says so.
 */

import { mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.js";
import { failsRun } from "./matrix.js";
import type { DoctorHost, HostReport, ProbeId } from "./types.js";

export const DOCTOR_STATE_VERSION = 1;

export interface DoctorRecord {
  host: DoctorHost;
  version: string;
  bin: string;
  /** ISO time of the run. */
  at: string;
  ok: boolean;
  /** The gating rows that failed. */
  failed: { probe: ProbeId; detail: string; fix: string; repo?: string }[];
}

export interface DoctorState {
  doctor_state: typeof DOCTOR_STATE_VERSION;
  runs: Record<string, DoctorRecord>;
}

type Env = Readonly<Record<string, string | undefined>>;

export function doctorStatePath(env: Env = process.env): string {
  if (env.DEVRITES_DOCTOR_STATE) return env.DEVRITES_DOCTOR_STATE;
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "devrites", "doctor.json");
}

/** `2.1.328 (Claude Code)` → `2.1.328`; `codex-cli 0.169.0` → `0.169.0`; else the trimmed first line (pure). */
export function normalizeVersion(printed: string): string {
  const first = printed.trim().split("\n")[0]?.trim() ?? "";
  return /\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(first)?.[1] ?? first;
}

export const recordKey = (host: DoctorHost, version: string): string =>
  `${host}@${normalizeVersion(version)}`;

/** The record of one host's report (pure). */
export function recordOf(rep: HostReport, at: Date): DoctorRecord {
  const failed = rep.rows
    .filter(failsRun)
    .map((r) => ({ probe: r.probe, detail: r.detail, fix: r.fix, ...(r.repo ? { repo: r.repo } : {}) }));
  return {
    host: rep.host,
    version: normalizeVersion(rep.version),
    bin: rep.bin,
    at: at.toISOString(),
    ok: failed.length === 0,
    failed,
  };
}

export type StateRead = { ok: true; state: DoctorState } | { ok: false; why: string };

/** Parse the state file's text (pure). */
export function parseDoctorState(text: string): StateRead {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `not JSON (${(e as Error).message})` };
  }
  if (
    !v ||
    typeof v !== "object" ||
    (v as { doctor_state?: unknown }).doctor_state !== DOCTOR_STATE_VERSION
  ) {
    return { ok: false, why: `not a doctor state file (doctor_state ${DOCTOR_STATE_VERSION} expected)` };
  }
  const runs = (v as { runs?: unknown }).runs;
  if (!runs || typeof runs !== "object" || Array.isArray(runs))
    return { ok: false, why: "`runs` is not an object" };
  const out: Record<string, DoctorRecord> = {};
  for (const [k, r] of Object.entries(runs as Record<string, unknown>)) {
    const rec = r as Partial<DoctorRecord>;
    if (
      (rec.host === "claude" || rec.host === "codex") &&
      typeof rec.version === "string" &&
      typeof rec.ok === "boolean" &&
      typeof rec.at === "string" &&
      Array.isArray(rec.failed)
    ) {
      out[k] = {
        host: rec.host,
        version: rec.version,
        bin: typeof rec.bin === "string" ? rec.bin : "",
        at: rec.at,
        ok: rec.ok,
        failed: rec.failed.filter(
          (f): f is DoctorRecord["failed"][number] =>
            !!f &&
            typeof f.probe === "string" &&
            typeof f.detail === "string" &&
            typeof f.fix === "string" &&
            (f.repo === undefined || typeof f.repo === "string"),
        ),
      };
    }
  }
  return { ok: true, state: { doctor_state: DOCTOR_STATE_VERSION, runs: out } };
}

export function readDoctorState(env: Env = process.env): StateRead {
  let text: string;
  try {
    text = readFileSync(doctorStatePath(env), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: true, state: { doctor_state: DOCTOR_STATE_VERSION, runs: {} } };
    return { ok: false, why: `cannot read: ${(e as Error).message}` };
  }
  return parseDoctorState(text);
}

/** Merge the reports into the state file (atomic write); returns the file written. */
export function saveDoctorRun(reports: readonly HostReport[], at: Date, env: Env = process.env): string {
  const path = doctorStatePath(env);
  const read = readDoctorState(env);
  const state: DoctorState = read.ok ? read.state : { doctor_state: DOCTOR_STATE_VERSION, runs: {} };
  for (const rep of reports) state.runs[recordKey(rep.host, rep.version)] = recordOf(rep, at);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
  return path;
}

/**
 * The host this process runs under, from the variables each host sets for its tool calls (observed on Claude
 * Code 2.1.328: `AI_AGENT=claude-code_2-1-328_agent`, `CLAUDECODE=1`; Codex 0.169.0: `CODEX_VERSION=0.169.0`)
 * (pure). `version` is undefined when the host is known but its version is not.
 */
export function runningHost(env: Env): { host: DoctorHost; version: string | undefined } | undefined {
  if (env.CODEX_VERSION) return { host: "codex", version: normalizeVersion(env.CODEX_VERSION) };
  const agent = /^claude-code_(\d+)-(\d+)-(\d+)/.exec(env.AI_AGENT ?? "");
  if (agent) return { host: "claude", version: `${agent[1]}.${agent[2]}.${agent[3]}` };
  if (env.CLAUDECODE === "1") return { host: "claude", version: undefined };
  return undefined;
}
