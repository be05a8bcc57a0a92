import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newJourneyId } from "../envelope/ids.js";
import { driveJourney } from "./engine.js";
import { FakeDriver } from "./fake-driver.js";
import { answerQuestion, readQuestions } from "./questions.js";
import { listRunDirs, workspacePaths } from "./workspace.js";
import { checkWorkspace } from "./workspace-check.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-vw-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const T = "2026-11-29T22:15:00.000Z";
const RUN = "run-20261129T221500Z-0a1b2c3d";
const codes = () =>
  checkWorkspace(root)
    .map((d) => d.code)
    .sort();
const put = (rel: string, text: string) => {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
};

/** A real workspace: a journey with a gate, answered, run to the end. */
async function realWorkspace(): Promise<void> {
  const ref = { id: newJourneyId(T), name: "t", driver: "f", status: "running" as const, started_at: T };
  const journey = {
    name: "t",
    steps: [
      {
        kind: "gate" as const,
        rite: "rite-spec",
        phase: "spec" as const,
        gate: { kind: "scope" as const, question: "b?" },
      },
      {
        kind: "dispatch" as const,
        rite: "rite-spec",
        phase: "spec" as const,
        packets: [{ role: "devrites-evidence-scout" as const, objective: "o" }],
      },
    ],
  };
  await driveJourney({ root, journey, ref, driver: new FakeDriver() });
  const qid = readQuestions(root).questions[0]?.qid ?? "";
  expect(answerQuestion(root, qid, "yes", new Date().toISOString()).ok).toBe(true);
  expect((await driveJourney({ root, journey, ref, driver: new FakeDriver() })).status).toBe("done");
}

describe("checkWorkspace", () => {
  it("accepts no workspace and a real one", async () => {
    expect(checkWorkspace(root)).toEqual([]);
    await realWorkspace();
    expect(checkWorkspace(root)).toEqual([]);
  });

  it("reports a corrupt ledger line with its line number, without touching the file", async () => {
    await realWorkspace();
    const run = listRunDirs(root)[0] ?? "";
    appendFileSync(join(root, workspacePaths.events(run)), "{oops\n");
    const d = checkWorkspace(root);
    expect(d.map((x) => [x.code, x.path, x.line])).toEqual([
      ["ledger.corrupt-line", workspacePaths.events(run), 6],
    ]);
  });

  it("reports ill-typed events, foreign run ids and bad known data", () => {
    put(
      workspacePaths.events(RUN),
      [
        JSON.stringify({ ts: "yesterday", run_id: RUN, type: "packet.created", data: {} }),
        JSON.stringify({ ts: T, run_id: "run-20261129T221500Z-ffffffff", type: "packet.created", data: {} }),
        JSON.stringify({ ts: T, run_id: RUN, type: "result.checked", data: { verdict: "maybe" } }),
        JSON.stringify({
          ts: T,
          run_id: RUN,
          type: "result.checked",
          data: { verdict: "accepted", guard_strength: "enforced" },
        }),
      ].join("\n"),
    );
    expect(codes()).toEqual(["event.data-invalid", "event.invalid", "event.run-mismatch"]);
  });

  it("reports a result for an unknown run and a result naming another run", () => {
    put(workspacePaths.result(RUN), JSON.stringify({ run_id: RUN }));
    expect(codes()).toEqual(["run.unknown"]);
    put(workspacePaths.packet(RUN), "{}");
    put(workspacePaths.result(RUN), JSON.stringify({ run_id: "run-20261129T221500Z-ffffffff" }));
    expect(codes()).toEqual(["run.result-mismatch"]);
  });

  it("reports a malformed state, an active run without a folder, and stray entries", () => {
    put(workspacePaths.state, "{");
    put(`${workspacePaths.runs}/notes.txt`, "x");
    mkdirSync(join(root, workspacePaths.runDir(RUN)), { recursive: true });
    expect(codes()).toEqual(["run.empty", "workspace.state-invalid", "workspace.stray-entry"]);
    put(
      workspacePaths.state,
      JSON.stringify({
        schema: "devrites-state/v1",
        active_rite: "rite-build",
        phase: "build",
        active_runs: [
          {
            run_id: "run-20261129T221500Z-99999999",
            role: "devrites-slice-wright",
            step_id: "rite-build/devrites-slice-wright#1",
            packet_path: "p",
            created_at: T,
          },
        ],
        updated_at: T,
      }),
    );
    expect(codes()).toEqual(["run.empty", "workspace.active-run-missing", "workspace.stray-entry"]);
    put(
      workspacePaths.state,
      JSON.stringify({
        schema: "devrites-state/v1",
        active_rite: null,
        phase: "later",
        active_runs: [],
        updated_at: T,
      }),
    );
    expect(codes()).toContain("workspace.state-invalid");
  });

  it("reports answers and decisions that cite unknown questions or runs", () => {
    put(
      workspacePaths.questions,
      `${JSON.stringify({ type: "answered", qid: "q-20261129-001", answer: "yes", answered_at: T })}\n`,
    );
    put(
      workspacePaths.decisions,
      [
        JSON.stringify({
          id: "d-20261129-001",
          decided_at: T,
          source: "human",
          decision: "yes",
          rationale: "",
          qid: "q-20261129-001",
        }),
        JSON.stringify({
          id: "d-20261129-002",
          decided_at: T,
          source: "leaf",
          decision: "x",
          rationale: "",
          run_id: RUN,
        }),
        JSON.stringify({ id: "bad", decided_at: T, source: "leaf", decision: "x", rationale: "" }),
      ].join("\n"),
    );
    expect(codes()).toEqual([
      "decision.invalid",
      "decision.unknown-qid",
      "decision.unknown-run",
      "question.unknown-qid",
    ]);
  });
});
