import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../core/hash.js";
import { newJourneyId } from "../envelope/ids.js";
import { parsePacket } from "../envelope/parse.js";
import type { AgentPacket, AgentResult, Payload, RepoWrite } from "../envelope/types.js";
import { runPacketNew } from "../packet/create.js";
import { runResultCheck } from "../result/check.js";
import { recordResult } from "../result/record.js";
import { CLI_DRIVER, CliDriver, DriverError, isMalformed, leafInstruction } from "./cli-driver.js";
import { driveJourney } from "./engine.js";
import type { DispatchRequest, EngineOutcome, Journey } from "./engine-types.js";
import { registerJourney, resumeJourney, startJourney } from "./journeys.js";
import { appendEvent, readRunEvents, readState, workspacePaths } from "./workspace.js";
import type { JourneyRef } from "./workspace-types.js";

let top: string;
let root: string;

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeEach(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-cli-driver-")));
  root = join(top, "repo");
  mkdirSync(root);
  git("init", "-q", "--template=", "-b", "main");
  git("config", "user.email", "test@example.invalid");
  git("config", "user.name", "test");
  git("config", "commit.gpgsign", "false");
  write("src/app.js", "export const app = 1;\n");
  write("docs/spec.md", "# spec\n");
  git("add", "-A");
  git("commit", "-q", "--no-verify", "-m", "initial");
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

const RUN = "run-20261129T221500Z-0a0b0c0d";
const RUN2 = "run-20261129T221501Z-0e0f0a0b";

function request(over: Partial<DispatchRequest> = {}): DispatchRequest {
  return {
    journey_id: "j-20261129T221500Z-01020304",
    run_id: RUN,
    step_id: "rite-spec/devrites-evidence-scout#3",
    attempt: 2,
    rite: "rite-spec",
    phase: "spec",
    role: "devrites-evidence-scout",
    objective: "Map the app.",
    inputs: [{ path: "docs/spec.md", purpose: "what the app should do" }],
    scope: { in: ["src"], out: ["docs"], allowed_repo_writes: [] },
    budgets: { max_result_lines: 60 },
    ...over,
  };
}

function wrightRequest(over: Partial<DispatchRequest> = {}): DispatchRequest {
  return request({
    step_id: "rite-build/devrites-slice-wright#1",
    attempt: 1,
    rite: "rite-build",
    phase: "build",
    role: "devrites-slice-wright",
    objective: "Change the app.",
    inputs: [],
    scope: { in: [], out: [], allowed_repo_writes: ["src/app.js"] },
    budgets: {},
    ...over,
  });
}

function packetOf(runId: string): AgentPacket {
  const parsed = parsePacket(JSON.parse(readFileSync(join(root, workspacePaths.packet(runId)), "utf8")));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.value;
}

const dossier: Payload = { type: "evidence-dossier", content: { findings: [], open_questions: [] } };
const report: Payload = {
  type: "wright-report",
  content: { slice_id: "s1", summary: "changed the app", tests_added: [], commands_run: [] },
};

function resultFor(p: AgentPacket, payload: Payload, writes: RepoWrite[] = []): AgentResult {
  return {
    result_version: "agent-result/v1",
    run_id: p.run_id,
    role: p.role,
    status: "complete",
    baseline_id: p.baseline.id,
    budget: { files_used: 1, loaded_lines_used: 5, ...p.budgets },
    side_effects: { repo_writes: writes, scratch_writes: [] },
    payload,
    gates: [],
    decisions_stood: [],
    escalation: null,
  };
}

function record(runId: string, value: unknown): void {
  const out = recordResult({ root, runId, text: JSON.stringify(value), source: "test", now: new Date() });
  expect(out.diagnostics).toEqual([]);
}

function eventTypes(runId: string): string[] {
  return readRunEvents(root, runId).values.map((e) => e.type);
}

describe("CliDriver.dispatch", () => {
  it("writes the packet with the engine's run id, step id, attempt, budgets, purposes and scope", async () => {
    const driver = new CliDriver({ root });
    const receipt = await driver.dispatch(request());
    expect(receipt).toEqual({ packet_path: workspacePaths.packet(RUN) });
    const p = packetOf(RUN);
    expect(p).toMatchObject({
      run_id: RUN,
      role: "devrites-evidence-scout",
      rite: "rite-spec",
      phase: "spec",
      attempt: 2,
      step_id: "rite-spec/devrites-evidence-scout#3",
      objective: "Map the app.",
      budgets: { max_files: 20, max_loaded_lines: 1000, max_result_lines: 60 },
      scope: { in: ["docs/spec.md", "src"], out: ["docs"], allowed_repo_writes: [] },
    });
    expect(p.inputs).toEqual([
      { path: "docs/spec.md", purpose: "what the app should do", sha256: sha256Hex("# spec\n") },
    ]);
    expect(existsSync(join(root, workspacePaths.baseline(RUN)))).toBe(true);
    expect(eventTypes(RUN)).toEqual(["packet.created"]);
    const state = readState(root, new Date().toISOString());
    expect(state.ok && state.state.active_runs.map((r) => [r.run_id, r.step_id])).toEqual([
      [RUN, "rite-spec/devrites-evidence-scout#3"],
    ]);
  });

  it("is idempotent per run id: a second dispatch returns the existing packet and writes nothing", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    const before = readFileSync(join(root, workspacePaths.packet(RUN)), "utf8");
    write("src/app.js", "changed after the first dispatch\n");
    // A fresh driver (a resumed process) must not send the run again either.
    const again = await new CliDriver({ root }).dispatch(request());
    expect(again).toEqual({ packet_path: workspacePaths.packet(RUN) });
    expect(readFileSync(join(root, workspacePaths.packet(RUN)), "utf8")).toBe(before);
    expect(eventTypes(RUN)).toEqual(["packet.created"]);
  });

  it("fails closed when the run's packet belongs to another step, attempt or role", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    for (const over of [
      { step_id: "rite-spec/devrites-evidence-scout#4" },
      { attempt: 3 },
      { role: "devrites-plan-drafter" as const, step_id: "rite-spec/devrites-plan-drafter#3" },
    ]) {
      await expect(driver.dispatch(request(over))).rejects.toThrow(/is for/);
    }
  });

  it("packet new writes a run's packet once: a second engine write is packet.exists", async () => {
    await new CliDriver({ root }).dispatch(request());
    const again = await runPacketNew({
      cwd: root,
      role: "devrites-evidence-scout",
      rite: "rite-spec",
      objective: "Map the app again.",
      allow: [],
      inputs: [],
      now: new Date(),
      engine: { runId: RUN, stepId: "rite-spec/devrites-evidence-scout#3", attempt: 2 },
    });
    expect([again.exitCode, again.diagnostics.map((d) => d.code)]).toEqual([1, ["packet.exists"]]);
    expect(packetOf(RUN).objective).toBe("Map the app.");
  });

  it("fails closed on a packet that is not valid JSON", async () => {
    write(workspacePaths.packet(RUN), "{ not json");
    await expect(new CliDriver({ root }).dispatch(request())).rejects.toBeInstanceOf(DriverError);
  });

  it("refuses what packet new refuses, with its diagnostics, and writes no packet", async () => {
    const driver = new CliDriver({ root });
    const cases: [Partial<DispatchRequest>, string][] = [
      [{ inputs: [{ path: "docs/missing.md", purpose: "x" }] }, "input.missing"],
      [{ budgets: { max_files: 0 } }, "envelope.schema"],
      [{ step_id: "rite-build/devrites-evidence-scout#3" }, "input.invalid"],
      [{ attempt: 4 }, "input.invalid"],
      [{ run_id: "run-bad" }, "input.invalid"],
    ];
    for (const [over, code] of cases) {
      const err = await driver.dispatch(request(over)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DriverError);
      expect((err as DriverError).diagnostics.map((d) => d.code)).toContain(code);
    }
    expect(existsSync(join(root, workspacePaths.packet(RUN)))).toBe(false);
  });
});

describe("CliDriver.collect", () => {
  it("is pending, with an instruction naming the packet and the record command, until result.json exists", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    expect(await driver.collect(request())).toEqual({
      state: "pending",
      instruction: leafInstruction(request()),
    });
    expect(leafInstruction(request())).toContain(`devrites result record ${RUN}`);
    expect(leafInstruction(request())).toContain(workspacePaths.packet(RUN));
    record(RUN, resultFor(packetOf(RUN), dossier));
    expect(await driver.collect(request())).toEqual({ state: "returned" });
  });
});

describe("CliDriver.check", () => {
  it("accepts a valid result, returns it, and records nothing itself", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    const result = resultFor(packetOf(RUN), dossier);
    record(RUN, result);
    const before = eventTypes(RUN);
    const out = await driver.check(request());
    expect(out).toEqual({
      verdict: "accepted",
      diagnostics: [],
      malformed: false,
      guard_strength: "unavailable",
      result,
    });
    expect(eventTypes(RUN)).toEqual(before);
    expect(before).not.toContain("result.checked");
  });

  it("rejects a stale read-only result and names the path; no result is handed back", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    record(RUN, resultFor(packetOf(RUN), dossier));
    write("src/app.js", "edited while the scout was out\n");
    const out = await driver.check(request());
    expect(out.verdict).toBe("rejected");
    expect(out.malformed).toBe(false);
    expect(out.diagnostics.map((d) => [d.code, d.path])).toEqual([["result.stale", "src/app.js"]]);
    expect(out.result).toBeUndefined();
  });

  it("flags a schema-invalid envelope as malformed, and only that", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    record(RUN, { ...resultFor(packetOf(RUN), dossier), status: "done" });
    const out = await driver.check(request());
    expect(out.verdict).toBe("rejected");
    expect(out.malformed).toBe(true);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["envelope.schema"]);
    expect(isMalformed([{ code: "result.stale", severity: "error", message: "x" }])).toBe(false);
    expect(isMalformed([{ code: "envelope.schema", severity: "warning", message: "x" }])).toBe(false);
    expect(isMalformed([{ code: "envelope.version", severity: "error", message: "x" }])).toBe(true);
  });

  it("rejects a wright's out-of-scope write, naming the path", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(wrightRequest());
    write("src/app.js", "export const app = 2;\n");
    write("src/extra.js", "stray\n");
    const w: RepoWrite = {
      path: "src/app.js",
      op: "modify",
      sha256_after: sha256Hex("export const app = 2;\n"),
    };
    record(RUN, resultFor(packetOf(RUN), report, [w]));
    const out = await driver.check(wrightRequest());
    expect(out.verdict).toBe("rejected");
    expect(out.diagnostics.filter((d) => d.code === "result.out-of-scope").map((d) => d.path)).toEqual([
      "src/extra.js",
    ]);
  });

  it("reads the guard strength from the run's events", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    record(RUN, resultFor(packetOf(RUN), dossier));
    const ts = new Date().toISOString();
    appendEvent(root, { ts, run_id: RUN, type: "hook.subagent-stop", data: {} });
    expect((await driver.check(request())).guard_strength).toBe("observed");
    appendEvent(root, { ts, run_id: RUN, type: "guard.decision", data: { decision: "allow" } });
    // decided calls, but no transcript to match them against: not verified
    expect((await driver.check(request())).guard_strength).toBe("unverified");
    const transcript = join(root, "..", "agent-transcript.jsonl");
    writeFileSync(transcript, `${JSON.stringify({ type: "user", message: { content: "go" } })}\n`);
    appendEvent(root, { ts, run_id: RUN, type: "hook.transcript", data: { path: transcript } });
    expect((await driver.check(request())).guard_strength).toBe("enforced");
  });

  it("is a driver error when there is nothing to judge", async () => {
    const driver = new CliDriver({ root });
    await driver.dispatch(request());
    const err = await driver.check(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).diagnostics.map((d) => d.code)).toEqual(["input.missing"]);
  });
});

describe("CliDriver under the engine", () => {
  const journey: Journey = {
    name: "cli-driver-test",
    steps: [
      {
        kind: "dispatch",
        rite: "rite-spec",
        phase: "spec",
        packets: [
          {
            role: "devrites-evidence-scout",
            objective: "Map the app.",
            inputs: [{ path: "docs/spec.md", purpose: "the spec" }],
          },
        ],
      },
    ],
  };
  registerJourney("cli-driver-test", () => journey);

  async function drain(gen: AsyncGenerator<unknown, EngineOutcome>): Promise<EngineOutcome> {
    for (;;) {
      const s = await gen.next();
      if (s.done) return s.value;
    }
  }

  it("pauses for the leaf, then a stale result is retried and the retry accepted; one result.checked per check", async () => {
    const ids = [RUN, RUN2];
    const mintRunId = () => ids.shift() ?? "run-20261129T221502Z-00000000";
    const first = await drain(
      startJourney(root, { journey: "cli-driver-test", driver: CLI_DRIVER, mintRunId }),
    );
    expect(first).toMatchObject({
      status: "await",
      runs: [{ run_id: RUN, packet_path: workspacePaths.packet(RUN) }],
    });
    if (first.status !== "await") return;
    expect(first.runs[0]?.instruction).toContain(`devrites result record ${RUN}`);

    // Resuming before the leaf returns sends nothing again.
    expect(await drain(resumeJourney(root, { mintRunId }))).toMatchObject({ status: "await" });
    expect(eventTypes(RUN).filter((t) => t === "packet.created")).toHaveLength(1);

    record(RUN, resultFor(packetOf(RUN), dossier));
    write("src/app.js", "the user edits while the scout is out\n");
    const second = await drain(resumeJourney(root, { mintRunId }));
    expect(second).toMatchObject({ status: "await", runs: [{ run_id: RUN2 }] });
    const checked = readRunEvents(root, RUN).values.filter((e) => e.type === "result.checked");
    expect(checked).toHaveLength(1);
    expect(checked[0]?.data).toMatchObject({
      verdict: "rejected",
      guard_strength: "unavailable",
      malformed: false,
      diagnostics: [{ code: "result.stale", path: "src/app.js" }],
    });
    const retry = packetOf(RUN2);
    expect(retry).toMatchObject({ attempt: 2, step_id: "rite-spec/devrites-evidence-scout#1" });
    expect(retry.objective).toContain(
      '"result.stale (src/app.js): src/app.js changed after the packet was frozen"',
    );

    record(RUN2, resultFor(retry, dossier));
    expect(await drain(resumeJourney(root, { mintRunId }))).toMatchObject({ status: "done" });
    expect(readRunEvents(root, RUN2).values.filter((e) => e.type === "result.checked")).toHaveLength(1);
    expect(eventTypes(RUN2)).toContain("step.accepted");
    const state = readState(root, new Date().toISOString());
    expect(state.ok && state.state.active_runs).toEqual([]);
  });

  it("a check the SubagentStop hook made (result check) does not stand in for the engine's own", async () => {
    const ids = [RUN, RUN2];
    const mintRunId = () => ids.shift() ?? "run-20261129T221502Z-00000000";
    await drain(startJourney(root, { journey: "cli-driver-test", driver: CLI_DRIVER, mintRunId }));
    record(RUN, resultFor(packetOf(RUN), dossier));
    write("src/app.js", "the user edits while the scout is out\n");
    // What the hook does when the leaf stops: judge the stored result with `result check`.
    const hook = await runResultCheck({ cwd: root, result: workspacePaths.result(RUN), now: new Date() });
    expect(hook.data?.verdict).toBe("rejected");
    expect(await drain(resumeJourney(root, { mintRunId }))).toMatchObject({
      status: "await",
      runs: [{ run_id: RUN2 }],
    });
    const engineChecks = readRunEvents(root, RUN).values.filter(
      (e) => e.type === "result.checked" && e.data.step_id !== undefined,
    );
    expect(engineChecks.map((e) => e.data.diagnostics)).toEqual([
      [
        {
          code: "result.stale",
          path: "src/app.js",
          message: "src/app.js changed after the packet was frozen",
        },
      ],
    ]);
    expect(packetOf(RUN2).objective).toContain(
      '"result.stale (src/app.js): src/app.js changed after the packet was frozen"',
    );
  });

  it("runs with driveJourney directly (the driver is an ordinary Driver)", async () => {
    const t = new Date().toISOString();
    const ref: JourneyRef = {
      id: newJourneyId(t),
      name: "cli-driver-test",
      driver: CLI_DRIVER,
      status: "running",
      started_at: t,
    };
    const out = await driveJourney({
      root,
      journey,
      ref,
      driver: new CliDriver({ root }),
      mintRunId: () => RUN,
    });
    expect(out).toMatchObject({ status: "await" });
    expect(packetOf(RUN).step_id).toBe("rite-spec/devrites-evidence-scout#1");
  });
});
