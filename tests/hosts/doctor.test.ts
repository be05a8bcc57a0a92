/**
 * `devrites doctor` on the pinned real hosts (Claude Code 2.1.328, Codex CLI 0.169.0): green on a healthy
 * install, and red with the right row on each seeded failure:
 *
 * - hooks removed: the test-only fault `hooks-removed` takes the `hooks` key out of the scratch install's
 *   `.claude/settings.json` / `.codex/hooks.json` before the host runs (the host then really runs unhooked);
 * - Codex hooks not trusted: a user's repository with devrites installed for Codex and a CODEX_HOME whose
 *   config.toml trusts the project but not its hooks (the real situation after `devrites init`), and the
 *   fault `hooks-untrusted` (the scratch hooks' trust not persisted, no bypass flag);
 * - the sandbox cannot start: the fault `no-sandbox` installs no Landlock helper and, on Claude, runs the host
 *   under `bwrap --unshare-user --disable-userns`, where the hook's bubblewrap cannot create its namespaces
 *   (as in a container that forbids them); Codex's own workspace-write sandbox already forbids them.
 *
 * Faults are an option of `runDoctor` only; the command line cannot set them. Skips without hosts
 * (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";
import { commandCatalog } from "../../src/cli/commands/catalog.js";
import { repoTrustRow } from "../../src/doctor/codex.js";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { type DoctorOptions, runDoctor } from "../../src/doctor/run.js";
import type { DoctorFault, DoctorHost, ProbeId, ProbeRow } from "../../src/doctor/types.js";
import { runInstall } from "../../src/install/run.js";
import { ensureHosts, type Hosts } from "./harness/install.js";
import { runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import { cleanupAllSandboxes, killAllHostProcesses, makeSandbox, scratchRoot } from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const hosts = await ensureHosts();
afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
});

function bins(h: Hosts): DoctorOptions["bins"] {
  return { ...(h.claude ? { claude: h.claude.bin } : {}), ...(h.codex ? { codex: h.codex.bin } : {}) };
}

/** Doctor on `which` from a folder outside any repository, its record and scratch in the test's sandbox. */
async function doctor(
  which: DoctorHost[],
  faults: DoctorFault[] = [],
  cwd?: string,
  env: Record<string, string> = {},
) {
  const s = await makeSandbox();
  const out = await runDoctor({
    hosts: which,
    bins: bins(hosts),
    cwd: cwd ?? s.home,
    env: {
      PATH: process.env.PATH,
      HOME: s.home,
      DEVRITES_DOCTOR_STATE: s.path("doctor.json"),
      DEVRITES_DOCTOR_SCRATCH: s.path("scratch"),
      ...env,
    },
    now: () => new Date(),
    faults,
  });
  const rows = out.reports.flatMap((r) => r.rows);
  return { out, rows, failed: rows.filter((r) => r.result === "fail").map((r) => `${r.host}:${r.probe}`) };
}

const resultOf = (rows: ProbeRow[], host: DoctorHost, probe: ProbeId) =>
  rows.find((r) => r.host === host && r.probe === probe);

describeHosts("devrites doctor on the pinned hosts", hosts, ["claude", "codex"], () => {
  it("passes on a healthy install of both hosts, in under 60 s together (wall time per host printed)", async () => {
    const started = Date.now();
    const { out, rows, failed } = await doctor(["claude", "codex"]);
    const total = Date.now() - started;
    process.stderr.write(
      `[doctor] wall time: ${out.reports.map((r) => `${r.host} ${(r.wallMs / 1000).toFixed(1)} s`).join(", ")}; both ${(total / 1000).toFixed(1)} s\n`,
    );
    expect(failed).toEqual([]);
    expect(out.exitCode).toBe(0);
    expect(rows.filter((r) => r.result === "pass").map((r) => `${r.host}:${r.probe}`)).toEqual([
      "claude:host.runs",
      "claude:hooks.subagent",
      "claude:hooks.background",
      "claude:guard.deny",
      "claude:sandbox.rewrite",
      "claude:guard.spawn",
      "claude:subagent-stop.block",
      "claude:claude.hooks-enabled",
      "codex:host.runs",
      "codex:codex.hooks-trust",
      "codex:hooks.subagent",
      "codex:guard.deny",
      "codex:sandbox.rewrite",
      "codex:guard.spawn",
      "codex:subagent-stop.block",
    ]);
    // outside a repository the repository's trust is not judged
    expect(resultOf(rows, "codex", "codex.repo-trust")).toMatchObject({ result: "skip", gating: false });
    expect(total).toBeLessThan(60_000);
  });

  it.each(["claude", "codex"] as const)(
    "%s: hooks removed from the settings fail every hook-borne row; the host itself runs",
    async (host) => {
      const { out, rows, failed } = await doctor([host], ["hooks-removed"]);
      expect(out.exitCode).toBe(1);
      expect(resultOf(rows, host, "host.runs")?.result).toBe("pass");
      expect(resultOf(rows, host, "hooks.subagent")).toMatchObject({
        result: "fail",
        detail: "no PreToolUse hook ran at all",
      });
      expect(failed).toEqual(
        expect.arrayContaining([
          `${host}:guard.deny`,
          `${host}:sandbox.rewrite`,
          `${host}:guard.spawn`,
          `${host}:subagent-stop.block`,
        ]),
      );
      expect(resultOf(rows, host, "guard.deny")?.detail).toContain("was written");
      expect(out.diagnostics.map((d) => d.code)).toContain("doctor.probe-failed");
    },
  );

  it.each(["claude", "codex"] as const)(
    "%s: the sandbox cannot start: only sandbox.rewrite fails, saying so",
    async (host) => {
      const { out, rows, failed } = await doctor([host], ["no-sandbox"]);
      expect(failed).toEqual([`${host}:sandbox.rewrite`]);
      expect(resultOf(rows, host, "sandbox.rewrite")?.detail).toBe(
        "the sandbox could not start here: every leaf shell call fails (exit 126)",
      );
      expect(resultOf(rows, host, "sandbox.rewrite")?.fix).toContain("bubblewrap");
      expect(out.exitCode).toBe(1);
    },
  );

  it("codex: the scratch hooks' trust not persisted: Codex skips them, codex.hooks-trust and the hook rows fail", async () => {
    const { out, rows, failed } = await doctor(["codex"], ["hooks-untrusted"]);
    expect(out.exitCode).toBe(1);
    expect(resultOf(rows, "codex", "codex.hooks-trust")?.detail).toMatch(/devrites hooks are untrusted/);
    expect(failed).toEqual(expect.arrayContaining(["codex:hooks.subagent", "codex:guard.deny"]));
    expect(resultOf(rows, "codex", "host.runs")?.result).toBe("pass");
  });

  it("codex: the user's repository with untrusted devrites hooks fails codex.repo-trust with the exact lines; with them, it passes", async () => {
    const s = await makeSandbox();
    const repo = s.project;
    writeFileSync(join(repo, "README.md"), "x\n");
    await execa(
      "git",
      ["-c", "user.email=t@t.invalid", "-c", "user.name=t", "commit", "-qm", "x", "--allow-empty"],
      { cwd: repo },
    );
    const installed = await runInstall({
      mode: "init",
      cwd: repo,
      hosts: ["codex"],
      dryRun: false,
      force: false,
      now: new Date(),
      knownCommands: commandCatalog.map((c) => c.name),
      version: "0.0.0",
    });
    expect(installed.exitCode, JSON.stringify(installed.diagnostics)).toBe(0);
    const codexHome = join(s.home, ".codex");
    mkdirSync(codexHome, { recursive: true });
    const config = join(codexHome, "config.toml");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: s.home,
      CODEX_HOME: codexHome,
      DEVRITES_DOCTOR_SCRATCH: s.path("scratch"),
    };
    const bin = hosts.codex!.bin;
    const version = "0.169.0";

    // the project itself untrusted: Codex ignores its .codex/ altogether
    writeFileSync(config, "");
    const untrustedProject = await repoTrustRow({ bin, version, cwd: repo, env });
    expect(untrustedProject).toMatchObject({ result: "fail", gating: true, repo });
    expect(untrustedProject.detail).toContain("the project is not trusted");
    expect(untrustedProject.fix).toContain(`[projects.${JSON.stringify(repo)}]`);

    // trusted project, hooks never trusted: what a user has right after `devrites init`
    writeFileSync(config, `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`);
    const { out, rows } = await doctor(["codex"], [], repo, { CODEX_HOME: codexHome, HOME: s.home });
    const r = resultOf(rows, "codex", "codex.repo-trust")!;
    expect(out.exitCode).toBe(1);
    expect(r.result).toBe("fail");
    expect(r.detail).toMatch(/^\d+ of \d+ devrites hooks in .* are not trusted \(untrusted\)/);
    const lines = r.fix.split("\n").slice(1).join("\n");
    expect(lines).toMatch(
      /^\[hooks\.state\."[^"]+\.codex\/hooks\.json:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/,
    );
    // the probes themselves ran in the scratch install and passed
    expect(rows.filter((x) => x.result === "fail").map((x) => x.probe)).toEqual(["codex.repo-trust"]);

    // doing exactly what the fix says makes the row pass
    appendFileSync(config, `\n${lines}\n`);
    expect(await repoTrustRow({ bin, version, cwd: repo, env })).toMatchObject({ result: "pass" });

    // a hook changed afterwards (as `devrites update` may) has a new hash: untrusted again, and said so
    const hooksFile = join(repo, ".codex", "hooks.json");
    const wired = JSON.parse(readFileSync(hooksFile, "utf8")) as {
      hooks: Record<string, { hooks: { timeout?: number }[] }[]>;
    };
    wired.hooks.PreToolUse![0]!.hooks[0]!.timeout = 29;
    writeFileSync(hooksFile, JSON.stringify(wired, null, 2));
    const changed = await repoTrustRow({ bin, version, cwd: repo, env });
    expect(changed.result).toBe("fail");
    expect(changed.detail).toMatch(/^1 of \d+ devrites hooks in .* are not trusted \(modified\)/);
  });
});

describeHosts("devrites doctor: nothing of the user's is touched", hosts, ["claude"], () => {
  it("the user's disableAllHooks is read (claude.hooks-enabled fails) but neither it nor anything else is written", async () => {
    const s = await makeSandbox();
    const settings = join(s.home, ".claude", "settings.json");
    mkdirSync(join(s.home, ".claude"), { recursive: true });
    writeFileSync(settings, '{"disableAllHooks":true}\n');
    const scratch = mkdtempSync(join(scratchRoot(), "doctor-scratch-"));
    const list = `find ${s.root} -path ${scratch} -prune -o -print | sort | xargs -d '\\n' sha256sum 2>/dev/null`;
    const before = await execa("sh", ["-c", list], { reject: false });
    const out = await runDoctor({
      hosts: ["claude"],
      bins: bins(hosts),
      cwd: s.project,
      env: {
        PATH: process.env.PATH,
        HOME: s.home,
        DEVRITES_DOCTOR_STATE: join(scratch, "doctor.json"),
        DEVRITES_DOCTOR_SCRATCH: scratch,
      },
      now: () => new Date(),
    });
    const rows = out.reports.flatMap((r) => r.rows);
    // the probes ran in doctor's own HOME, where hooks are on; the user's setting is reported, not applied
    expect(rows.filter((r) => r.result === "fail").map((r) => r.probe)).toEqual(["claude.hooks-enabled"]);
    expect(resultOf(rows, "claude", "claude.hooks-enabled")?.fix).toBe(
      `remove "disableAllHooks" from ${settings}`,
    );
    expect(out.exitCode).toBe(1);
    const after = await execa("sh", ["-c", list], { reject: false });
    expect(after.stdout).toBe(before.stdout);
    expect((await execa("ls", ["-A", scratch])).stdout.trim()).toBe("doctor.json");
  });
});

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "bin", "devrites.js");

/** A committed project with a failed doctor record for `host` at `state` (what a failed doctor run leaves). */
async function failedRecordProject(host: DoctorHost, version: string) {
  const s = await makeSandbox();
  mkdirSync(join(s.project, "src"));
  writeFileSync(join(s.project, "src", "a.ts"), "export const a = 1;\n");
  await execa("git", ["add", "."], { cwd: s.project });
  await execa("git", ["-c", "user.email=t@t.invalid", "-c", "user.name=t", "commit", "-qm", "init"], {
    cwd: s.project,
  });
  const state = s.path("doctor.json");
  writeFileSync(
    state,
    JSON.stringify({
      doctor_state: 1,
      runs: {
        [`${host}@${version}`]: {
          host,
          version,
          bin: "/x",
          at: "2026-01-01T00:00:00.000Z",
          ok: false,
          failed: [{ probe: "guard.deny", detail: "the write ran", fix: "wire the hooks" }],
        },
      },
    }),
  );
  const cmd = (role: string, allow: string) =>
    `node ${CLI} packet new --role ${role} --rite rite-build --objective x ${allow} --json; echo "exit=$?"`;
  return { s, state, cmd };
}

describeHosts("the writer's refusal, from inside the real hosts", hosts, ["claude", "codex"], () => {
  it("claude: packet new in the root's Bash refuses the wright (dispatch.doctor-failed) and dispatches a scout", async () => {
    const { s, state, cmd } = await failedRecordProject("claude", "2.1.328");
    const wright = cmd("devrites-slice-wright", "--allow src/a.ts");
    const scout = cmd("devrites-evidence-scout", "");
    const fake = await A.startFakeAnthropic((_r, ctx) => {
      if (!ctx.hasToolResult("toolu_w")) return A.toolUse("toolu_w", "Bash", { command: wright });
      if (!ctx.hasToolResult("toolu_s")) return A.toolUse("toolu_s", "Bash", { command: scout });
      return A.text("done");
    });
    try {
      const run = await runClaude({ prompt: "go", fake, sandbox: s, env: { DEVRITES_DOCTOR_STATE: state } });
      expect(run.exitCode, run.stderr).toBe(0);
      const last = A.anthropicContextOf(fake.modelRequests().at(-1)!);
      expect(last.toolResult("toolu_w")).toContain('"code": "dispatch.doctor-failed"');
      expect(last.toolResult("toolu_w")).toContain("claude 2.1.328");
      expect(last.toolResult("toolu_w")).toContain("exit=1");
      expect(last.toolResult("toolu_s")).toContain("exit=0");
    } finally {
      await fake.close();
    }
  });

  it("codex: the same from exec_command (Codex sets CODEX_VERSION for its shell calls)", async () => {
    const { s, state, cmd } = await failedRecordProject("codex", "0.169.0");
    const wright = cmd("devrites-slice-wright", "--allow src/a.ts");
    const fake = await R.startFakeResponses((_r, ctx) =>
      ctx.hasToolResult("call_w")
        ? R.text("done")
        : R.functionCall("call_w", "exec_command", { cmd: wright }),
    );
    try {
      const run = await runCodex({
        prompt: "go",
        fake,
        sandbox: s,
        sandboxMode: "danger-full-access",
        env: { DEVRITES_DOCTOR_STATE: state },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const out = R.responsesContextOf(fake.modelRequests().at(-1)!).toolResult("call_w") ?? "";
      expect(out).toContain('"code": "dispatch.doctor-failed"');
      expect(out).toContain("codex 0.169.0");
      expect(out).toContain("exit=1");
    } finally {
      await fake.close();
    }
  });
});

describeHosts("devrites doctor: the command line against a real host", hosts, ["claude"], () => {
  it("`devrites doctor --host claude --claude PATH --json` exits 0 with the rows and the record's path", async () => {
    const s = await makeSandbox();
    const r = await execa(
      "node",
      [CLI, "doctor", "--host", "claude", "--claude", hosts.claude!.bin, "--json"],
      {
        cwd: s.home,
        reject: false,
        env: {
          HOME: s.home,
          DEVRITES_DOCTOR_STATE: s.path("doctor.json"),
          DEVRITES_DOCTOR_SCRATCH: s.path("scratch"),
        },
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      ok: boolean;
      data: { reports: { host: string; version: string; rows: { result: string }[] }[]; state_path: string };
    };
    expect(out.ok).toBe(true);
    expect(out.data.reports.map((x) => [x.host, x.version])).toEqual([["claude", "2.1.328"]]);
    expect(out.data.reports[0]!.rows.every((x) => x.result === "pass")).toBe(true);
    expect(out.data.state_path).toBe(s.path("doctor.json"));
  });
});
