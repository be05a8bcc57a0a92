import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCapture } from "../test-io.js";
import { parseDoctorHosts } from "./doctor.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "devrites-doctor-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({
  PATH: join(dir, "empty-path"),
  HOME: dir,
  DEVRITES_DOCTOR_STATE: join(dir, "state.json"),
});

describe("devrites doctor: the command line (no host needed)", () => {
  it("parses --host, comma-separated or repeated; an unknown host is a usage error with a hint", () => {
    expect(parseDoctorHosts([])).toBeUndefined();
    expect(parseDoctorHosts(["codex,claude", "codex"])).toEqual(["codex", "claude"]);
    expect(parseDoctorHosts(["cursor"])).toMatchObject({
      code: "cli.usage",
      hint: expect.stringContaining("--host claude"),
    });
  });

  it("--host cursor exits 2 naming the value", async () => {
    const r = await runCapture(["doctor", "--host", "cursor", "--json"], dir, env());
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] };
    expect(out.diagnostics[0]).toMatchObject({
      code: "cli.usage",
      message: expect.stringContaining('"cursor"'),
    });
  });

  it("--claude PATH with --host codex is a contradiction: exit 2", async () => {
    const r = await runCapture(["doctor", "--host", "codex", "--claude", "/x/claude"], dir, env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--host codex leaves claude out");
  });

  it("the test-only faults cannot be set from the command line", async () => {
    const r = await runCapture(["doctor", "--fault", "hooks-removed", "--json"], dir, env());
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).diagnostics[0].message).toContain("--fault");
  });

  it("an empty --codex is a usage error", async () => {
    const r = await runCapture(["doctor", "--codex", ""], dir, env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--codex needs a path");
  });

  it("no host on PATH: exit 5, doctor.host-not-found with a hint; nothing recorded", async () => {
    const r = await runCapture(["doctor", "--json"], dir, env());
    expect(r.code).toBe(5);
    const out = JSON.parse(r.stdout) as {
      diagnostics: { code: string; hint: string }[];
      data: { reports: [] };
    };
    expect(out.diagnostics).toEqual([
      expect.objectContaining({
        code: "doctor.host-not-found",
        hint: expect.stringContaining("--claude PATH"),
      }),
    ]);
    expect(out.data.reports).toEqual([]);
  });

  it("--claude naming a file that is not executable: doctor.host-not-found with the path", async () => {
    const f = join(dir, "claude");
    writeFileSync(f, "");
    const r = await runCapture(["doctor", "--claude", f, "--json"], dir, env());
    const out = JSON.parse(r.stdout) as { diagnostics: { code: string; path: string; severity: string }[] };
    expect(r.code).toBe(5);
    // the host asked for by path is an error; the other, not asked for and not on PATH, is only said
    expect(out.diagnostics).toEqual([
      expect.objectContaining({ code: "doctor.host-absent", severity: "info" }),
      expect.objectContaining({ code: "doctor.host-not-found", severity: "error", path: f }),
    ]);
  });

  it("a host asked for whose --version fails: doctor.host-unusable, naming what it printed", async () => {
    const f = join(dir, "codex");
    writeFileSync(f, "#!/bin/sh\necho broken >&2\nexit 3\n");
    chmodSync(f, 0o755);
    const r = await runCapture(["doctor", "--host", "codex", "--codex", f, "--json"], dir, env());
    const out = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] };
    expect(r.code).toBe(5);
    expect(out.diagnostics[0]).toMatchObject({ code: "doctor.host-unusable" });
    expect(out.diagnostics[0]?.message).toContain("exited 3: broken");
  });
});
