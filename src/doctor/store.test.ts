import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  doctorStatePath,
  normalizeVersion,
  parseDoctorState,
  readDoctorState,
  recordKey,
  runningHost,
  saveDoctorRun,
} from "./store.js";
import { type HostReport, row } from "./types.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "devrites-doctor-store-"));
  dirs.push(d);
  return d;
};

const report = (ok: boolean, repo?: string): HostReport => ({
  host: "codex",
  bin: "/x/codex",
  version: "0.169.0",
  wallMs: 1,
  rows: [
    row({ host: "codex", version: "0.169.0", probe: "host.runs", result: "pass", detail: "ok" }),
    ...(ok
      ? []
      : [
          row({
            host: "codex",
            version: "0.169.0",
            probe: "codex.repo-trust",
            result: "fail",
            detail: "untrusted",
            fix: "trust them",
            ...(repo ? { repo } : {}),
          }),
        ]),
  ],
});

describe("the doctor's per-user record", () => {
  it("lives at DEVRITES_DOCTOR_STATE, else XDG_STATE_HOME, else ~/.local/state", () => {
    expect(doctorStatePath({ DEVRITES_DOCTOR_STATE: "/s/d.json", HOME: "/h" })).toBe("/s/d.json");
    expect(doctorStatePath({ XDG_STATE_HOME: "/x", HOME: "/h" })).toBe("/x/devrites/doctor.json");
    expect(doctorStatePath({ HOME: "/h" })).toBe("/h/.local/state/devrites/doctor.json");
  });

  it("normalizes the versions the hosts print", () => {
    expect(normalizeVersion("2.1.328 (Claude Code)\n")).toBe("2.1.328");
    expect(normalizeVersion("codex-cli 0.169.0")).toBe("0.169.0");
    expect(normalizeVersion("codex-cli 0.170.0-alpha.2")).toBe("0.170.0-alpha.2");
    expect(normalizeVersion("weird")).toBe("weird");
    expect(recordKey("claude", "2.1.328 (Claude Code)")).toBe("claude@2.1.328");
  });

  it("saves per host version and reads back; a later run replaces that version's record only", () => {
    const env = { DEVRITES_DOCTOR_STATE: join(tmp(), "sub", "doctor.json") };
    saveDoctorRun([report(false, "/r")], new Date("2026-01-01T00:00:00Z"), env);
    const first = readDoctorState(env);
    expect(first.ok && first.state.runs["codex@0.169.0"]).toEqual({
      host: "codex",
      version: "0.169.0",
      bin: "/x/codex",
      at: "2026-01-01T00:00:00.000Z",
      ok: false,
      failed: [{ probe: "codex.repo-trust", detail: "untrusted", fix: "trust them", repo: "/r" }],
    });
    saveDoctorRun([{ ...report(true), version: "0.170.0" }], new Date(), env);
    saveDoctorRun([report(true)], new Date(), env);
    const after = readDoctorState(env);
    expect(after.ok && Object.keys(after.state.runs).sort()).toEqual(["codex@0.169.0", "codex@0.170.0"]);
    expect(after.ok && after.state.runs["codex@0.169.0"]?.ok).toBe(true);
  });

  it("a missing file is an empty record; a damaged one says why; a damaged one is overwritten by the next save", () => {
    const file = join(tmp(), "doctor.json");
    expect(readDoctorState({ DEVRITES_DOCTOR_STATE: file })).toEqual({
      ok: true,
      state: { doctor_state: 1, runs: {} },
    });
    writeFileSync(file, "{nope");
    const bad = readDoctorState({ DEVRITES_DOCTOR_STATE: file });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.why).toMatch(/^not JSON/);
    saveDoctorRun([report(true)], new Date(), { DEVRITES_DOCTOR_STATE: file });
    expect(JSON.parse(readFileSync(file, "utf8")).doctor_state).toBe(1);
  });

  it("parse: a foreign object is refused; malformed records are dropped alone", () => {
    expect(parseDoctorState('{"runs":{}}')).toMatchObject({ ok: false });
    expect(parseDoctorState('{"doctor_state":1,"runs":[]}')).toMatchObject({ ok: false });
    const p = parseDoctorState(
      JSON.stringify({
        doctor_state: 1,
        runs: {
          "claude@1.0.0": { host: "claude", version: "1.0.0", ok: true, at: "t", failed: [] },
          "x@1": { host: "x", version: "1", ok: true, at: "t", failed: [] },
          "codex@1.0.0": { host: "codex", version: "1.0.0", ok: false, at: "t", failed: [{ probe: 1 }] },
        },
      }),
    );
    expect(p.ok && Object.keys(p.state.runs)).toEqual(["claude@1.0.0", "codex@1.0.0"]);
    expect(p.ok && p.state.runs["codex@1.0.0"]?.failed).toEqual([]);
  });

  it("tells the running host and version from the variables the hosts set", () => {
    expect(runningHost({ CODEX_VERSION: "0.169.0" })).toEqual({ host: "codex", version: "0.169.0" });
    expect(runningHost({ AI_AGENT: "claude-code_2-1-328_agent", CLAUDECODE: "1" })).toEqual({
      host: "claude",
      version: "2.1.328",
    });
    expect(runningHost({ CLAUDECODE: "1" })).toEqual({ host: "claude", version: undefined });
    expect(runningHost({ AI_AGENT: "cursor_1-2-3" })).toBeUndefined();
    expect(runningHost({})).toBeUndefined();
  });
});
