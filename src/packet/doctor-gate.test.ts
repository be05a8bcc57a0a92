import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeRepo } from "../../tests/helpers/sandbox.js";
import { saveDoctorRun } from "../doctor/store.js";
import { type HostReport, row } from "../doctor/types.js";
import { runPacketNew } from "./create.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(): string {
  const r = makeRepo({ "src/a.ts": "export const a = 1;\n" });
  dirs.push(r);
  return r;
}

function stateFile(): string {
  const d = mkdtempSync(join(tmpdir(), "devrites-gate-"));
  dirs.push(d);
  return join(d, "doctor.json");
}

const CLAUDE = { AI_AGENT: "claude-code_2-1-328_agent", CLAUDECODE: "1" };

function claudeReport(probe: "guard.deny" | "codex.repo-trust" | undefined, repoPath?: string): HostReport {
  return {
    host: "claude",
    bin: "/x/claude",
    version: "2.1.328",
    wallMs: 1,
    rows: [
      row({ host: "claude", version: "2.1.328", probe: "host.runs", result: "pass", detail: "ok" }),
      ...(probe
        ? [
            row({
              host: "claude",
              version: "2.1.328",
              probe,
              result: "fail",
              detail: "the write ran",
              fix: "wire the hooks",
              ...(repoPath ? { repo: repoPath } : {}),
            }),
          ]
        : []),
    ],
  };
}

const wright = (cwd: string, env: Record<string, string>) =>
  runPacketNew({
    cwd,
    role: "devrites-slice-wright",
    rite: "rite-build",
    objective: "change a",
    allow: ["src/a.ts"],
    inputs: [],
    now: new Date(),
    env,
  });

describe("packet new refuses the writer while doctor failed on the running host's version", () => {
  it("refuses the wright with dispatch.doctor-failed, naming the failed probe and the fix; writes nothing", async () => {
    const r = repo();
    const file = stateFile();
    saveDoctorRun([claudeReport("guard.deny")], new Date("2026-01-01T00:00:00Z"), {
      DEVRITES_DOCTOR_STATE: file,
    });
    const out = await wright(r, { ...CLAUDE, DEVRITES_DOCTOR_STATE: file });
    expect(out.exitCode).toBe(1);
    expect(out.diagnostics).toHaveLength(1);
    expect(out.diagnostics[0]).toMatchObject({ code: "dispatch.doctor-failed", path: file });
    expect(out.diagnostics[0]?.message).toContain("claude 2.1.328");
    expect(out.diagnostics[0]?.message).toContain("guard.deny (the write ran)");
    expect(out.diagnostics[0]?.hint).toContain("wire the hooks");
    expect(out.diagnostics[0]?.hint).toContain("devrites doctor --host claude");
    expect(out.data).toBeUndefined();
  });

  it("near misses: a read-only role, a passing record, another version, no record, outside a host: dispatched", async () => {
    const r = repo();
    const file = stateFile();
    saveDoctorRun([claudeReport("guard.deny")], new Date(), { DEVRITES_DOCTOR_STATE: file });
    const scout = await runPacketNew({
      cwd: r,
      role: "devrites-evidence-scout",
      rite: "rite-build",
      objective: "look",
      allow: [],
      inputs: [],
      now: new Date(),
      env: { ...CLAUDE, DEVRITES_DOCTOR_STATE: file },
    });
    expect(scout.exitCode).toBe(0);
    expect(
      (await wright(r, { AI_AGENT: "claude-code_2-1-329_agent", DEVRITES_DOCTOR_STATE: file })).exitCode,
    ).toBe(0);
    expect((await wright(r, { CODEX_VERSION: "0.169.0", DEVRITES_DOCTOR_STATE: file })).exitCode).toBe(0);
    expect((await wright(r, { DEVRITES_DOCTOR_STATE: file })).exitCode).toBe(0);
    const passing = stateFile();
    saveDoctorRun([claudeReport(undefined)], new Date(), { DEVRITES_DOCTOR_STATE: passing });
    expect((await wright(r, { ...CLAUDE, DEVRITES_DOCTOR_STATE: passing })).exitCode).toBe(0);
  });

  it("a failure about another repository does not refuse here; about this one it does", async () => {
    const r = repo();
    const other = stateFile();
    saveDoctorRun([claudeReport("codex.repo-trust", "/somewhere/else")], new Date(), {
      DEVRITES_DOCTOR_STATE: other,
    });
    expect((await wright(r, { ...CLAUDE, DEVRITES_DOCTOR_STATE: other })).exitCode).toBe(0);
    const here = stateFile();
    saveDoctorRun([claudeReport("codex.repo-trust", r)], new Date(), { DEVRITES_DOCTOR_STATE: here });
    expect((await wright(r, { ...CLAUDE, DEVRITES_DOCTOR_STATE: here })).diagnostics[0]?.code).toBe(
      "dispatch.doctor-failed",
    );
  });

  it("an unreadable record refuses (fail closed) with dispatch.doctor-state-invalid", async () => {
    const r = repo();
    const file = stateFile();
    writeFileSync(file, "[]");
    const out = await wright(r, { ...CLAUDE, DEVRITES_DOCTOR_STATE: file });
    expect(out.exitCode).toBe(1);
    expect(out.diagnostics[0]).toMatchObject({ code: "dispatch.doctor-state-invalid", path: file });
    expect(out.diagnostics[0]?.hint).toContain("devrites doctor --host claude");
  });
});
