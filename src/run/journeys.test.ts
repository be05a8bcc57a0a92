import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EngineEvent, EngineOutcome } from "./engine-types.js";
import { FakeDriver } from "./fake-driver.js";
import { registerDriver, registerJourney, resumeJourney, startJourney } from "./journeys.js";
import { answerQuestion, readQuestions } from "./questions.js";
import { readState, writeState } from "./workspace.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-j-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

registerDriver("fake-test", () => new FakeDriver());
registerJourney("gate-then-scout", () => ({
  name: "gate-then-scout",
  steps: [
    { kind: "gate", rite: "rite-spec", phase: "spec", gate: { kind: "product", question: "Go?" } },
    {
      kind: "dispatch",
      rite: "rite-spec",
      phase: "spec",
      packets: [{ role: "devrites-evidence-scout", objective: "o" }],
    },
  ],
}));

async function finish(gen: AsyncGenerator<EngineEvent, EngineOutcome>): Promise<EngineOutcome> {
  for (;;) {
    const s = await gen.next();
    if (s.done) return s.value;
  }
}

describe("startJourney / resumeJourney", () => {
  it("starts, refuses a second start, resumes to the end, then has nothing to resume", async () => {
    expect(
      (await finish(startJourney(root, { journey: "gate-then-scout", driver: "fake-test" }))).status,
    ).toBe("gate");
    const st = readState(root, "x");
    expect(st.ok && st.state.journey).toMatchObject({
      name: "gate-then-scout",
      driver: "fake-test",
      status: "paused-gate",
    });
    const again = await finish(startJourney(root, { journey: "gate-then-scout", driver: "fake-test" }));
    expect(again.status === "refused" && again.diagnostics[0]?.code).toBe("journey.in-progress");
    expect((await finish(resumeJourney(root))).status).toBe("gate");
    answerQuestion(root, readQuestions(root).questions[0]?.qid ?? "", "yes", new Date().toISOString());
    expect((await finish(resumeJourney(root))).status).toBe("done");
    const idle = await finish(resumeJourney(root));
    expect(idle.status === "idle" && idle.diagnostics[0]?.code).toBe("resume.nothing");
  });

  it("has nothing to resume in an empty workspace", async () => {
    const idle = await finish(resumeJourney(root));
    expect(idle).toMatchObject({
      status: "idle",
      diagnostics: [{ code: "resume.nothing", severity: "info" }],
    });
  });

  it("refuses unknown journeys and drivers", async () => {
    const bad = await finish(startJourney(root, { journey: "nope", driver: "fake-test" }));
    expect(bad.status === "refused" && bad.diagnostics[0]?.code).toBe("journey.unknown");
    const badDriver = await finish(startJourney(root, { journey: "gate-then-scout", driver: "nope" }));
    expect(badDriver.status === "refused" && badDriver.diagnostics[0]?.code).toBe("journey.unknown-driver");
    const t = new Date().toISOString();
    writeState(root, {
      schema: "devrites-state/v1",
      active_rite: "rite-spec",
      phase: "spec",
      active_runs: [],
      journey: {
        id: "j-20261129T221500Z-00000000",
        name: "gone",
        driver: "fake-test",
        status: "running",
        started_at: t,
      },
      updated_at: t,
    });
    const res = await finish(resumeJourney(root));
    expect(res.status === "refused" && res.diagnostics[0]?.code).toBe("resume.unknown-journey");
  });
});
