/**
 * Crash and resume: the engine runs in a child process that is SIGKILLed right after a known event (or
 * inside a driver effect); a fresh process resumes from the ledger. Nothing may be dispatched twice and
 * nothing may be lost.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newJourneyId } from "../envelope/ids.js";
import type { EngineOutcome } from "./engine-types.js";
import { answerQuestion, readQuestions } from "./questions.js";
import { listRunDirs, readRunEvents, readState } from "./workspace.js";
import type { JourneyRef, StepIntentData } from "./workspace-types.js";

const source = fileURLToPath(new URL("./fixtures/crash-child.ts", import.meta.url));
let bundleDir: string;
let child: string;

// Bundle the child once so each process starts in plain node (no TypeScript loader per spawn).
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), "devrites-crash-bundle-"));
  child = join(bundleDir, "crash-child.mjs");
  await build({
    entryPoints: [source],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: child,
    logLevel: "silent",
  });
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let dir: string;
let root: string;
let refPath: string;
let logPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "devrites-crash-"));
  root = join(dir, "repo");
  refPath = join(dir, "ref.json");
  logPath = join(dir, "dispatch-log.jsonl");
  const t = new Date().toISOString();
  const ref: JourneyRef = {
    id: newJourneyId(t),
    name: "crash",
    driver: "fake",
    status: "running",
    started_at: t,
  };
  writeFileSync(refPath, JSON.stringify(ref));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]): { proc: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [child, root, refPath, logPath, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let buf = "";
  proc.stdout?.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    lines.push(...parts);
    proc.emit("lines");
  });
  let stderr = "";
  proc.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) =>
    proc.on("close", (code) => {
      if (code !== 0 && code !== null && stderr) lines.push(`STDERR ${stderr}`);
      resolve(code);
    }),
  );
  return { proc, lines, exited };
}

/** Run the child until it reports the hang point, then SIGKILL it. */
async function runAndKill(hang: string): Promise<string[]> {
  const c = start(["--hang", hang]);
  const hung = new Promise<boolean>((resolve) => {
    c.proc.on("lines", () => {
      if (c.lines.includes("HANG")) resolve(true);
    });
    void c.exited.then(() => resolve(false));
  });
  const reached = await hung;
  c.proc.kill("SIGKILL");
  await c.exited;
  if (!reached) throw new Error(`the child never reached ${hang}:\n${c.lines.join("\n")}`);
  return c.lines;
}

async function resume(): Promise<EngineOutcome> {
  const c = start([]);
  await c.exited;
  const last = c.lines.find((l) => l.startsWith("OUTCOME "));
  if (!last) throw new Error(`no outcome:\n${c.lines.join("\n")}`);
  return JSON.parse(last.slice("OUTCOME ".length)) as EngineOutcome;
}

/** Resume until done, answering the gate when it pauses there. */
async function resumeToEnd(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const out = await resume();
    if (out.status === "done") return;
    if (out.status !== "gate") throw new Error(`unexpected outcome ${JSON.stringify(out)}`);
    for (const q of out.questions) answerQuestion(root, q.qid, "yes", new Date().toISOString());
  }
  throw new Error("the journey did not finish");
}

const EXPECTED = [
  "rite-spec/devrites-evidence-scout#1 1",
  "rite-spec/devrites-evidence-scout#2 1",
  "rite-build/devrites-slice-wright#1 1",
  "rite-build/devrites-slice-wright#1 2",
  "rite-review/devrites-code-reviewer#1 1",
].sort();

function assertExactlyOnce(): void {
  // The world's view: every (step, attempt) was sent exactly once.
  const sent = readFileSync(logPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { run_id: string; step_id: string; attempt: number; objective: string });
  expect(sent.map((s) => `${s.step_id} ${s.attempt}`).sort()).toEqual(EXPECTED);
  // The retry carried the defect of the first attempt.
  expect(
    sent.find((s) => s.step_id === "rite-build/devrites-slice-wright#1" && s.attempt === 2)?.objective,
  ).toContain('"envelope.schema: status: expected one of complete|partial"');
  // The ledger's view: one intent per (step, attempt), each in its own run, the one the world saw.
  const intents = listRunDirs(root).flatMap((id) =>
    readRunEvents(root, id)
      .values.filter((e) => e.type === "step.intent")
      .map((e) => ({ run: id, ...(e.data as unknown as StepIntentData) })),
  );
  expect(intents.map((i) => `${i.step_id} ${i.attempt}`).sort()).toEqual(EXPECTED);
  for (const s of sent) expect(intents.find((i) => i.run === s.run_id)?.step_id).toBe(s.step_id);
  // Nothing lost: every step accepted exactly once; one question, answered.
  const accepted = listRunDirs(root).flatMap((id) =>
    readRunEvents(root, id).values.filter((e) => e.type === "step.accepted"),
  );
  expect(accepted.map((e) => e.data.step_id).sort()).toEqual(
    [
      "rite-build/devrites-slice-wright#1",
      "rite-review/devrites-code-reviewer#1",
      "rite-spec/devrites-evidence-scout#1",
      "rite-spec/devrites-evidence-scout#2",
    ].sort(),
  );
  const qs = readQuestions(root).questions;
  expect(qs).toHaveLength(1);
  expect(qs[0]?.answer).toBe("yes");
  const st = readState(root, "x");
  expect(st.ok && st.state.journey?.status).toBe("done");
  expect(st.ok && st.state.active_runs).toEqual([]);
  for (const id of listRunDirs(root)) expect(readRunEvents(root, id).diagnostics).toEqual([]);
}

describe("crash and resume", () => {
  it("runs to the end without a crash (the baseline the other cases compare with)", async () => {
    await resumeToEnd();
    assertExactlyOnce();
  });

  for (const hang of [
    "run:step.intent@rite-spec/devrites-evidence-scout#2",
    "effect:dispatch@rite-spec/devrites-evidence-scout#1",
    "run:step.dispatched@rite-spec/devrites-evidence-scout#1",
    "question@rite-spec/human#1",
    "run:result.checked@rite-build/devrites-slice-wright#1",
    "run:step.retry@rite-build/devrites-slice-wright#1",
    "effect:dispatch@rite-build/devrites-slice-wright#1",
    "run:result.returned@rite-review/devrites-code-reviewer#1",
    "run:result.checked@rite-review/devrites-code-reviewer#1",
  ]) {
    it(`SIGKILL after ${hang}: resume dispatches nothing twice and loses nothing`, async () => {
      if (hang.includes("rite-build") || hang.includes("rite-review")) {
        // Get past the gate first, then crash further on.
        const out = await resume();
        expect(out.status).toBe("gate");
        if (out.status === "gate")
          answerQuestion(root, out.questions[0]?.qid ?? "", "yes", new Date().toISOString());
      }
      const lines = await runAndKill(hang);
      expect(lines).toContain("HANG");
      await resumeToEnd();
      assertExactlyOnce();
    });
  }
});
