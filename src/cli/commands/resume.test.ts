import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { error } from "../../core/diagnostics.js";
import { FakeDriver, type FakeScript } from "../../run/fake-driver.js";
import { gateThenDispatch } from "../../run/fixtures/gate-then-dispatch.js";
import { registerDriver, registerJourney, startJourney } from "../../run/journeys.js";
import { readState, workspacePaths, writeState } from "../../run/workspace.js";
import { runCapture } from "../test-io.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-resume-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

let script: FakeScript = () => undefined;
const sent: string[] = [];
registerDriver("cli-fake", () => {
  const d = new FakeDriver((req) => script(req));
  const dispatch = d.dispatch.bind(d);
  d.dispatch = async (req) => {
    sent.push(`${req.step_id}#${req.attempt}`);
    return dispatch(req);
  };
  return d;
});
registerJourney("cli-test", () => gateThenDispatch("cli-test"));

async function start(): Promise<void> {
  const gen = startJourney(root, { journey: "cli-test", driver: "cli-fake" });
  for (;;) if ((await gen.next()).done) return;
}

describe("devrites resume", () => {
  it("has nothing to resume in a fresh project: exit 0 with resume.nothing", async () => {
    const r = await runCapture(["resume", "--json"], root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).diagnostics[0]).toMatchObject({ code: "resume.nothing", severity: "info" });
  });

  it("pauses at the gate with exit 3, then continues after resolve and finishes", async () => {
    script = () => undefined;
    sent.length = 0;
    await start();
    const paused = await runCapture(["resume"], root);
    expect(paused.code).toBe(3);
    expect(paused.stdout).toMatch(/q-\d{8}-001 \[irreversible\] Push to main\? \(options: go \| stop\)/);
    const qid = /q-\d{8}-001/.exec(paused.stdout)?.[0] ?? "";
    expect((await runCapture(["resolve", qid, "go"], root)).code).toBe(0);
    const done = await runCapture(["resume"], root);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("dispatch rite-ship/devrites-proof-runner#1 attempt 1");
    expect(done.stdout).toContain("accepted rite-ship/devrites-proof-runner#1 attempt 1");
    expect(done.stdout).toMatch(/journey j-\S+ is done/);
    expect(sent).toEqual(["rite-ship/devrites-proof-runner#1#1"]);
    const again = await runCapture(["resume", "--json"], root);
    expect([again.code, JSON.parse(again.stdout).diagnostics[0].code]).toEqual([0, "resume.nothing"]);
  });

  it("stops at a technical blocker with exit 1 and journey.blocked, never a question", async () => {
    script = () => ({ verdict: "rejected", diagnostics: [error("result.stale", "baseline moved")] });
    await start();
    const qid = /q-\d{8}-001/.exec((await runCapture(["resume"], root)).stdout)?.[0] ?? "";
    await runCapture(["resolve", qid, "go"], root);
    const r = await runCapture(["resume", "--json"], root);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.diagnostics[0]).toMatchObject({ code: "journey.blocked" });
    expect(j.diagnostics[0].hint).toContain(
      "fingerprint devrites-proof-runner|rite-ship/devrites-proof-runner#1|result.stale",
    );
    expect(j.data.blockers[0]).toMatchObject({ reason: "fingerprint-exhausted", attempt: 3 });
  });

  it("waits (exit 0) while a leaf is out, naming the packet to run", async () => {
    script = () => ({ pending: true });
    await start();
    const qid = /q-\d{8}-001/.exec((await runCapture(["resume"], root)).stdout)?.[0] ?? "";
    await runCapture(["resolve", qid, "go"], root);
    const r = await runCapture(["resume"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /rite-ship\/devrites-proof-runner#1: run devrites-proof-runner with \.devrites\/runs\/run-\S+\/packet\.json/,
    );
    const st = readState(root, "x");
    expect(st.ok && st.state.journey?.status).toBe("paused-await");
  });

  it("refuses an unknown journey and a corrupt state (exit 1)", async () => {
    const t = new Date().toISOString();
    writeState(root, {
      schema: "devrites-state/v1",
      active_rite: null,
      phase: null,
      active_runs: [],
      journey: {
        id: "j-20261129T221500Z-00000000",
        name: "retired",
        driver: "cli-fake",
        status: "running",
        started_at: t,
      },
      updated_at: t,
    });
    const r = await runCapture(["resume", "--json"], root);
    expect([r.code, JSON.parse(r.stdout).diagnostics[0].code]).toEqual([1, "resume.unknown-journey"]);
    writeFileSync(join(root, workspacePaths.state), "[]");
    const c = await runCapture(["resume", "--json"], root);
    expect([c.code, JSON.parse(c.stdout).diagnostics[0].code]).toEqual([1, "workspace.state-invalid"]);
  });
});

describe("devrites resume without an engine journey (the host model drives)", () => {
  it("holds while a question is open (exit 3), then names the active rite to continue in", async () => {
    writeState(root, {
      schema: "devrites-state/v1",
      active_rite: "rite-plan",
      phase: "plan",
      active_runs: [],
      updated_at: new Date().toISOString(),
    });
    const asked = await runCapture(["ask", "--kind", "scope", "Split slice 3?", "--option", "yes"], root);
    const qid = asked.stdout.split("\n")[0] ?? "";
    const held = await runCapture(["resume"], root);
    expect(held.code).toBe(3);
    expect(held.stdout).toContain(`${qid} [scope] Split slice 3?`);
    await runCapture(["resolve", qid, "yes"], root);
    const go = await runCapture(["resume", "--json"], root);
    expect(go.code).toBe(0);
    expect(JSON.parse(go.stdout).data).toMatchObject({
      status: "continue",
      rite: "rite-plan",
      phase: "plan",
    });
  });
});
