/**
 * `devrites demo`: a full scripted cycle in a throwaway git repository, with no model.
 *
 * The demo plays the host. It makes a tiny sample project, installs the pack, and starts the demo journey on
 * the real driver (`packet new`, the validator). Whenever the engine pauses for leaf results it runs the
 * scripted leaf for each packet (the leaf reads its packet, writes files and returns its final message),
 * stores the message with `devrites result record`, and continues with `devrites resume`; at the human gate
 * it answers with `devrites resolve`. Every CLI step runs in-process through the CLI shell, so the exit codes
 * are the CLI's. After each verdict the ledger is compared with the script: the demo is a check, and the
 * first expectation that does not hold stops it (exit 1, naming the stage).
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Diagnostic } from "../core/diagnostics.js";
import { parseJsonText, parsePacket } from "../envelope/parse.js";
import type { AgentPacket } from "../envelope/types.js";
import type { DelegationGraph } from "../pack/index.js";
import { CLI_DRIVER } from "../run/cli-driver.js";
import type { AwaitingRun, EngineOutcome } from "../run/engine-types.js";
import { startJourney } from "../run/journeys.js";
import { quoteDefect } from "../run/retry.js";
import type { StatusView } from "../run/status.js";
import { readRunEvents } from "../run/workspace.js";
import type { Question, RunEvent } from "../run/workspace-types.js";
import { cli } from "./cli.js";
import { installPack } from "./install.js";
import { DEMO_JOURNEY, demoJourney } from "./journey.js";
import { SAMPLE_FILES, USER_FILE, USER_WORK_IN_PROGRESS } from "./sample.js";
import { type DemoScript, demoScript, type FileWrite, type LeafScript, type Stage } from "./script.js";

export interface DemoOptions {
  /** Keep the temporary repository (its path is in the report). */
  keep?: boolean;
  /** Where the temporary repository is made (default: the system temp folder). */
  tmpParent?: string;
  /** The script to perform (default: {@link demoScript}). Tests change it to prove each stage can fail. */
  script?: DemoScript;
  /** Called once per step as soon as it is done (passed or failed), so a caller can print it as it happens. */
  onStep?: (step: DemoStep) => void;
}

/** One CLI invocation the demo made, with the exit code it expected. */
export interface CliStep {
  argv: string[];
  exitCode: number;
  expected: number;
}

export interface DemoStep {
  stage: Stage;
  /** The journey step, when the stage is one. */
  step_id?: string;
  attempt?: number;
  run_id?: string;
  role?: string;
  /** What this step shows. */
  shows: string;
  /** What the script expected, in words. */
  expected: string;
  verdict?: string;
  /** The distinct diagnostic codes of the check, sorted. */
  codes: string[];
  diagnostics: { code: string; message: string; path?: string }[];
  guard_strength?: string;
  malformed?: boolean;
  /** The gate's CLI invocations. */
  commands?: CliStep[];
  question?: Pick<Question, "qid" | "kind" | "question" | "options">;
  notes: string[];
  ok: boolean;
}

export interface DemoReport {
  ok: boolean;
  /** The first expectation that did not hold. */
  failure?: { stage: Stage; message: string };
  /** The temporary repository (removed unless kept). */
  root: string;
  kept: boolean;
  steps: DemoStep[];
  /** The distinct guard strengths the checks recorded. */
  guard_strength: string[];
  status?: StatusView;
  /** `git status --short` of the sample project at the end. */
  tree: string[];
  graph: DelegationGraph;
  duration_ms: number;
}

/** A failed expectation: stops the demo and names its stage. */
export class DemoFailure extends Error {
  constructor(
    readonly stage: Stage,
    message: string,
  ) {
    super(message);
    this.name = "DemoFailure";
  }
}

/** git in the sample project, isolated from the caller's repository variables, hooks and signing. */
function git(root: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GIT_")));
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...env, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" },
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === "ENOENT")
      fail("install", "git is not installed: the demo needs it for its sample repository");
    throw new Error(`git ${args.join(" ")} failed: ${err.stderr?.trim() || err.message}`);
  }
}

function writeFiles(root: string, files: readonly FileWrite[]): void {
  for (const f of files) {
    const abs = join(root, f.path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, f.content);
  }
}

function readOrNull(root: string, path: string): string | null {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return null;
  }
}

/** The engine's verdict on a run: its `result.checked` event (the one carrying the step id). */
function checkedOf(root: string, runId: string): RunEvent | undefined {
  return readRunEvents(root, runId)
    .values.filter((e) => e.type === "result.checked" && typeof e.data?.step_id === "string")
    .at(-1);
}

function sortedCodes(ds: readonly { code: string }[]): string[] {
  return [...new Set(ds.map((d) => d.code))].sort();
}

function expectationText(l: LeafScript): string {
  const codes = l.expect.codes.length ? ` [${l.expect.codes.join(", ")}]` : "";
  return `${l.expect.verdict}${codes}`;
}

/** How the engine stopped, as `devrites resume --json` reports it in `data`. */
type Stop = Pick<EngineOutcome, "status"> & {
  runs?: AwaitingRun[];
  questions?: Question[];
  diagnostics?: Diagnostic[];
  blockers?: { step_id: string; detail: string }[];
};

interface Served {
  script: LeafScript;
  step: DemoStep;
  /** What must be on disk after the verdict: the leaf's writes as it left them, `intact` paths as before. */
  expectOnDisk: Map<string, string | null>;
  verified: boolean;
}

function fail(stage: Stage, message: string): never {
  throw new DemoFailure(stage, message);
}

/** Perform the demo. Never throws: a failure is in the report. */
export async function runDemo(opts: DemoOptions = {}): Promise<DemoReport> {
  const t0 = performance.now();
  const script = opts.script ?? demoScript();
  const parent = opts.tmpParent ?? tmpdir();
  const report: DemoReport = {
    ok: false,
    root: "",
    kept: opts.keep === true,
    steps: [],
    guard_strength: [],
    tree: [],
    graph: { nodes: [], edges: [] },
    duration_ms: 0,
  };
  let root: string;
  try {
    root = realpathSync(mkdtempSync(join(parent, "devrites-demo-")));
  } catch (e) {
    report.failure = {
      stage: "install",
      message: `cannot make a temporary folder in ${parent}: ${(e as Error).message}`,
    };
    report.kept = false;
    return report;
  }
  report.root = root;
  const announced = new Set<DemoStep>();
  const announce = (step: DemoStep) => {
    if (announced.has(step)) return;
    announced.add(step);
    opts.onStep?.(step);
  };
  const served = new Map<string, Served>();
  let stage: Stage = "install";

  /** The scripted leaf for one awaiting run: the user's edit, the leaf's writes, `result record`. */
  async function serve(run: AwaitingRun): Promise<void> {
    const text = readOrNull(root, run.packet_path);
    const json = text === null ? undefined : parseJsonText(text, run.packet_path);
    const parsed = json?.ok ? parsePacket(json.value, run.packet_path) : undefined;
    if (!parsed?.ok) fail(stage, `no valid packet at ${run.packet_path}`);
    const packet: AgentPacket = parsed.value;
    const key = `${packet.step_id}#${packet.attempt}`;
    const leaf = script.leaves.find((l) => l.step_id === packet.step_id && l.attempt === packet.attempt);
    if (!leaf) fail(stage, `unexpected dispatch: ${packet.step_id} attempt ${packet.attempt}`);
    stage = leaf.stage;
    if (served.has(key)) fail(stage, `${packet.step_id} attempt ${packet.attempt} was dispatched twice`);
    const step: DemoStep = {
      stage,
      step_id: packet.step_id,
      attempt: packet.attempt,
      run_id: packet.run_id,
      role: packet.role,
      shows: leaf.shows,
      expected: expectationText(leaf),
      codes: [],
      diagnostics: [],
      notes: [`packet ${run.packet_path}`],
      ok: false,
    };
    report.steps.push(step);

    if (leaf.expect.quotesDefect) {
      const prev = served.get(`${packet.step_id}#${packet.attempt - 1}`);
      if (!prev) fail(stage, `${key}: no earlier attempt to quote`);
      const defect = quoteDefect({ diagnostics: prev.step.diagnostics });
      if (!packet.objective.includes(`"${defect}"`))
        fail(stage, `${key}: the objective does not quote the defect of attempt ${packet.attempt - 1}`);
      step.notes.push(`its objective quotes attempt ${packet.attempt - 1}'s defect: "${defect}"`);
    }
    if (leaf.meanwhile) {
      writeFiles(root, [leaf.meanwhile]);
      step.notes.push(`meanwhile you edited ${leaf.meanwhile.path}`);
    }
    const intact = new Map((leaf.expect.intact ?? []).map((p) => [p, readOrNull(root, p)] as const));
    const act = leaf.leaf(packet);
    writeFiles(root, act.writes);
    // After the verdict the leaf's files must be as it left them (nothing reverted) and the user's as they
    // were before it ran (nothing of theirs touched, by the leaf or by devrites).
    const expectOnDisk = new Map<string, string | null>(act.writes.map((w) => [w.path, w.content]));
    for (const [p, c] of intact) expectOnDisk.set(p, c);
    if (act.writes.length) step.notes.push(`the leaf wrote ${act.writes.map((w) => w.path).join(", ")}`);

    const recorded = await cli(root, ["result", "record", packet.run_id, "--json"], act.message);
    if (recorded.code !== 0)
      fail(
        stage,
        `devrites result record ${packet.run_id} exited ${recorded.code}: ${recorded.json?.diagnostics.map((d) => d.code).join(", ")}`,
      );
    served.set(key, { script: leaf, step, expectOnDisk, verified: false });
  }

  /** Compare every served attempt's verdict (from the ledger) with the script. */
  function verify(): void {
    for (const s of served.values()) {
      if (s.verified) continue;
      const { step, script: leaf } = s;
      const key = `${step.step_id} attempt ${step.attempt}`;
      const ev = checkedOf(root, step.run_id ?? "");
      if (!ev) fail(leaf.stage, `${key}: no verdict was recorded`);
      const d = ev.data as {
        verdict?: string;
        diagnostics?: DemoStep["diagnostics"];
        guard_strength?: string;
        malformed?: boolean;
      };
      step.verdict = d.verdict;
      step.diagnostics = d.diagnostics ?? [];
      step.codes = sortedCodes(step.diagnostics);
      if (d.guard_strength) step.guard_strength = d.guard_strength;
      step.malformed = d.malformed === true;
      s.verified = true;
      const got = `${step.verdict}${step.codes.length ? ` [${step.codes.join(", ")}]` : ""}`;
      if (step.verdict !== leaf.expect.verdict || step.codes.join() !== [...leaf.expect.codes].sort().join())
        fail(leaf.stage, `${key}: expected ${step.expected}, got ${got}`);
      for (const n of leaf.expect.names ?? [])
        if (!step.diagnostics.some((x) => x.code === n.code && x.path === n.path))
          fail(leaf.stage, `${key}: no ${n.code} naming ${n.path}`);
      if (leaf.expect.malformed !== undefined && step.malformed !== leaf.expect.malformed)
        fail(leaf.stage, `${key}: expected malformed ${leaf.expect.malformed}, got ${step.malformed}`);
      for (const [path, content] of s.expectOnDisk)
        if (readOrNull(root, path) !== content)
          fail(
            leaf.stage,
            leaf.expect.intact?.includes(path)
              ? `${key}: ${path} (your uncommitted work) is not as it was before the leaf ran`
              : `${key}: ${path} is not as the leaf left it`,
          );
      if (leaf.expect.intact?.length)
        step.notes.push(
          `${leaf.expect.intact.join(", ")} (your uncommitted work) is byte-identical; nothing was reverted or reset`,
        );
      step.ok = true;
      announce(step);
    }
  }

  /** `devrites resume --json`: how the engine stopped, and the exit code that goes with it. */
  async function resume(): Promise<{ stop: Stop; exit: number }> {
    const r = await cli(root, ["resume", "--json"]);
    const stop = r.json?.data as Stop | undefined;
    if (!stop || typeof stop.status !== "string")
      fail(
        stage,
        `devrites resume exited ${r.code}: ${r.json?.diagnostics.map((d) => d.message).join("; ")}`,
      );
    const expected = stop.status === "gate" ? 3 : stop.status === "await" || stop.status === "done" ? 0 : 1;
    if (r.code !== expected)
      fail(stage, `devrites resume exited ${r.code} when the journey stopped at ${stop.status}`);
    return { stop, exit: r.code };
  }

  /** The human gate: the pause (exit 3), `devrites resolve` (exit 0), `devrites resume` (exit 0). */
  async function gate(stop: Stop, pauseExit: number | undefined): Promise<{ stop: Stop; exit: number }> {
    stage = script.gate.stage;
    const step: DemoStep = {
      stage,
      step_id: script.gate.step_id,
      shows: script.gate.shows,
      expected: "resume exits 3 with the question; resolve exits 0; resume exits 0 and goes on",
      codes: [],
      diagnostics: [],
      commands: [],
      notes: [],
      ok: false,
    };
    report.steps.push(step);
    const commands = step.commands ?? [];
    const q = stop.questions?.find((x) => x.step_id === script.gate.step_id);
    if (!q) fail(stage, `paused on an unexpected question: ${JSON.stringify(stop.questions)}`);
    step.question = { qid: q.qid, kind: q.kind, question: q.question, options: q.options };
    let paused = pauseExit;
    if (paused === undefined) paused = (await resume()).exit;
    commands.push({ argv: ["resume"], exitCode: paused, expected: 3 });
    if (paused !== 3) fail(stage, `devrites resume exited ${paused} at the gate, expected 3`);
    const resolved = await cli(root, ["resolve", q.qid, script.gate.answer, "--json"]);
    commands.push({ argv: ["resolve", q.qid, script.gate.answer], exitCode: resolved.code, expected: 0 });
    if (resolved.code !== 0)
      fail(
        stage,
        `devrites resolve ${q.qid} exited ${resolved.code}: ${resolved.json?.diagnostics.map((d) => d.code).join(", ")}`,
      );
    const resumed = await cli(root, ["resume", "--json"]);
    commands.push({ argv: ["resume"], exitCode: resumed.code, expected: 0 });
    const next = resumed.json?.data as Stop | undefined;
    if (resumed.code !== 0 || !next) fail(stage, `devrites resume exited ${resumed.code} after the answer`);
    step.notes.push(
      next.status === "await"
        ? `the journey went on: ${(next.runs ?? []).map((r) => r.step_id).join(", ")} dispatched`
        : `the journey went on: ${next.status}`,
    );
    step.ok = true;
    announce(step);
    return { stop: next, exit: resumed.code };
  }

  try {
    // install: the sample project, committed; the pack, committed; then the user's uncommitted work.
    git(root, "init", "-q", "--template=");
    git(root, "symbolic-ref", "HEAD", "refs/heads/main");
    git(root, "config", "user.name", "devrites demo");
    git(root, "config", "user.email", "demo@devrites.invalid");
    git(root, "config", "commit.gpgsign", "false");
    writeFiles(
      root,
      Object.entries(SAMPLE_FILES).map(([path, content]) => ({ path, content })),
    );
    git(root, "add", "-A");
    git(root, "commit", "-q", "--no-verify", "-m", "sample project");
    const installed = await installPack(root);
    report.graph = installed.graph;
    const installStep: DemoStep = {
      stage: "install",
      shows: `devrites init installs the pack for ${installed.hosts.join(" and ") || "no host"}; committed`,
      expected: "init exits 0",
      codes: sortedCodes(installed.diagnostics),
      diagnostics: installed.diagnostics.map((d) => ({
        code: d.code,
        message: d.message,
        ...(d.path ? { path: d.path } : {}),
      })),
      commands: [{ argv: ["init"], exitCode: installed.exitCode, expected: 0 }],
      notes: [`${installed.changed} files installed`],
      ok: false,
    };
    report.steps.push(installStep);
    if (installed.exitCode !== 0)
      fail(
        "install",
        `devrites init exited ${installed.exitCode}: ${installed.diagnostics.map((d) => `${d.code}: ${d.message}`).join("; ")}`,
      );
    const edges = new Set(installed.graph.edges.map((e) => `${e.from}>${e.to}`));
    for (const s of demoJourney().steps)
      if (s.kind === "dispatch")
        for (const p of s.packets)
          if (!edges.has(`${s.rite}>${p.role}`))
            fail("install", `the org chart does not let ${s.rite} dispatch ${p.role}`);
    installStep.notes.push("every dispatch of the demo journey is an edge of the org chart");
    // Commit what init installed, not the workspace's state (the journey's to write).
    git(root, "add", "-A", "--", ".", ":(exclude).devrites/state.json");
    git(root, "commit", "-q", "--no-verify", "-m", "install devrites");
    writeFiles(root, [{ path: USER_FILE, content: USER_WORK_IN_PROGRESS }]);
    installStep.notes.push(`your uncommitted work in progress: ${USER_FILE}`);
    installStep.ok = true;
    announce(installStep);

    // The journey: started in-process (there is no start command), then driven through the CLI.
    stage = script.leaves[0]?.stage ?? "final";
    const gen = startJourney(root, { journey: DEMO_JOURNEY, driver: CLI_DRIVER });
    let next = await gen.next();
    while (!next.done) next = await gen.next();
    let stop: Stop = next.value;
    /** The exit code of the `devrites resume` that stopped here (none for the in-process start). */
    let exit: number | undefined;
    for (let rounds = 0; ; rounds++) {
      if (rounds > 4 * script.leaves.length + 4) fail(stage, "the journey did not finish");
      verify();
      if (stop.status === "done") break;
      if (stop.status === "await") {
        for (const run of stop.runs ?? []) await serve(run);
        ({ stop, exit } = await resume());
        continue;
      }
      if (stop.status === "gate") {
        ({ stop, exit } = await gate(stop, exit));
        continue;
      }
      const why = [
        ...(stop.diagnostics ?? []).map((d) => `${d.code}: ${d.message}`),
        ...(stop.blockers ?? []).map((b) => `${b.step_id}: ${b.detail}`),
      ];
      fail(stage, `the journey stopped (${stop.status}): ${why.join("; ")}`);
    }

    stage = "final";
    for (const l of script.leaves)
      if (!served.has(`${l.step_id}#${l.attempt}`))
        fail(l.stage, `${l.step_id} attempt ${l.attempt} was never dispatched`);
    if (!report.steps.some((s) => s.stage === script.gate.stage && s.ok))
      fail(script.gate.stage, "the journey never paused for the human gate");
    const status = await cli(root, ["status", "--json"]);
    const view = status.json?.data as StatusView | undefined;
    if (status.code !== 0 || !view) fail("final", `devrites status exited ${status.code}`);
    report.status = view;
    const finalStep: DemoStep = {
      stage: "final",
      shows: "the journey is done: no run is out, no question is open",
      expected: "done, no active runs, no pending questions",
      codes: [],
      diagnostics: [],
      commands: [{ argv: ["status"], exitCode: status.code, expected: 0 }],
      notes: [],
      ok: false,
    };
    report.steps.push(finalStep);
    if (view.journey?.status !== "done") fail("final", `the journey is ${view.journey?.status}`);
    if (view.active_runs.length > 0)
      fail("final", `runs still active: ${view.active_runs.map((r) => r.run_id).join(", ")}`);
    if (view.pending_questions.length > 0) fail("final", "a question is still open");
    finalStep.ok = true;
    announce(finalStep);
    report.ok = true;
  } catch (e) {
    if (e instanceof DemoFailure) report.failure = { stage: e.stage, message: e.message };
    else report.failure = { stage, message: `internal error: ${(e as Error)?.stack ?? String(e)}` };
    report.ok = false;
    for (const step of report.steps) announce(step); // the step that failed, as it stands
  } finally {
    try {
      report.tree = git(root, "status", "--short", "--untracked-files=all")
        .split("\n")
        .filter((l) => l.trim() !== "" && !l.includes(".devrites/"));
    } catch {
      // the tree listing is for the report only
    }
    report.guard_strength = [
      ...new Set(report.steps.flatMap((s) => (s.guard_strength ? [s.guard_strength] : []))),
    ];
    if (!report.kept) rmSync(root, { recursive: true, force: true });
    report.duration_ms = Math.round(performance.now() - t0);
  }
  return report;
}
