import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { error } from "../../core/diagnostics.js";
import { newJourneyId } from "../../envelope/ids.js";
import { driveJourney } from "../../run/engine.js";
import type { Journey } from "../../run/engine-types.js";
import { FakeDriver } from "../../run/fake-driver.js";
import { listRunDirs, workspacePaths } from "../../run/workspace.js";
import { runCapture } from "../test-io.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-status-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const journey: Journey = {
  name: "status-test",
  steps: [
    {
      kind: "dispatch",
      rite: "rite-spec",
      phase: "spec",
      packets: [{ role: "devrites-evidence-scout", objective: "survey" }],
    },
    {
      kind: "gate",
      rite: "rite-spec",
      phase: "spec",
      gate: { kind: "product", question: "Export CSV too?", options: ["yes", "no"] },
    },
  ],
};

async function pausedAtGate(): Promise<void> {
  const t = new Date().toISOString();
  const ref = {
    id: newJourneyId(t),
    name: "status-test",
    driver: "fake",
    status: "running" as const,
    started_at: t,
  };
  const out = await driveJourney({
    root,
    journey,
    ref,
    driver: new FakeDriver(() => ({ guard_strength: "observed" })),
  });
  expect(out.status).toBe("gate");
}

describe("devrites status", () => {
  it("says nothing is in progress in an empty project", async () => {
    const r = await runCapture(["status"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("rite: none");
    expect(r.stdout).toContain("next: nothing in progress");
  });

  it("shows phase, recent runs with verdict and guard strength, pending questions and the next action", async () => {
    await pausedAtGate();
    const r = await runCapture(["status"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("rite: rite-spec, phase spec");
    expect(r.stdout).toContain("journey: status-test");
    expect(r.stdout).toMatch(
      /devrites-evidence-scout rite-spec\/devrites-evidence-scout#1 attempt 1: accepted, verdict accepted, guard observed/,
    );
    expect(r.stdout).toMatch(
      /q-\d{8}-001 \[product\] Export CSV too\? \(options: yes \| no\) — step rite-spec\/human#1/,
    );
    expect(r.stdout).toMatch(
      /next: answer q-\d{8}-001 .* → \.devrites\/bin\/devrites resolve q-\d{8}-001 "<answer>"/,
    );
    const j = JSON.parse((await runCapture(["status", "--json"], root)).stdout);
    expect(j.data).toMatchObject({
      active_rite: "rite-spec",
      phase: "spec",
      journey: { status: "paused-gate" },
      next: { kind: "answer" },
      recent_runs: [{ verdict: "accepted", guard_strength: "observed", state: "accepted" }],
    });
  });

  it("lists blocked runs and points at the blocker, not at a human", async () => {
    const t = new Date().toISOString();
    const ref = {
      id: newJourneyId(t),
      name: "status-test",
      driver: "fake",
      status: "running" as const,
      started_at: t,
    };
    const driver = new FakeDriver(() => ({
      verdict: "rejected",
      malformed: true,
      diagnostics: [error("envelope.schema", "bad")],
    }));
    await driveJourney({ root, journey, ref, driver });
    const j = JSON.parse((await runCapture(["status", "--json"], root)).stdout);
    expect(j.data.next.kind).toBe("blocked");
    expect(j.data.blocked_runs[0]).toMatchObject({
      state: "blocked",
      step_id: "rite-spec/devrites-evidence-scout#1",
    });
    expect(j.data.pending_questions).toEqual([]);
  });

  it("reports a corrupt ledger line as a warning, skips it, and never rewrites the file", async () => {
    await pausedAtGate();
    const run = listRunDirs(root)[0] ?? "";
    const abs = join(root, workspacePaths.events(run));
    appendFileSync(abs, "not json\n");
    const before = readFileSync(abs, "utf8");
    const r = await runCapture(["status", "--json"], root);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.diagnostics).toMatchObject([{ code: "ledger.corrupt-line", severity: "warning", line: 6 }]);
    expect(j.data.recent_runs[0].verdict).toBe("accepted");
    expect(readFileSync(abs, "utf8")).toBe(before);
  });

  it("warns about a result for an unknown run", async () => {
    const dir = join(root, workspacePaths.runDir("run-20261129T221500Z-0a1b2c3d"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "result.json"), JSON.stringify({ run_id: "run-20261129T221500Z-0a1b2c3d" }));
    const j = JSON.parse((await runCapture(["status", "--json"], root)).stdout);
    expect(j.exitCode).toBe(0);
    expect(j.diagnostics.map((d: { code: string }) => d.code)).toContain("run.unknown");
  });

  it("fails with exit 1 on a corrupt state.json, leaving it as it is", async () => {
    mkdirSync(join(root, ".devrites"), { recursive: true });
    writeFileSync(join(root, workspacePaths.state), "{");
    const r = await runCapture(["status", "--json"], root);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics[0].code).toBe("workspace.state-invalid");
    expect(readFileSync(join(root, workspacePaths.state), "utf8")).toBe("{");
  });
});
