/**
 * The catalogue's exit codes are what the commands really end with: for a sample of codes across areas, the
 * command path that emits each is run in-process and its exit code compared with the catalogue's. A code
 * whose entry says "varies" names the exit of the case run here (the summary says which case is which).
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCapture } from "../../cli/test-io.js";
import { git, type TempRepo, tempRepo } from "../../install/fixtures/repo.js";
import { FakeDriver, type FakeScript } from "../../run/fake-driver.js";
import { gateThenDispatch } from "../../run/fixtures/gate-then-dispatch.js";
import { registerDriver, registerJourney, startJourney } from "../../run/journeys.js";
import { QUESTION_KINDS } from "../../run/questions.js";
import { workspacePaths } from "../../run/workspace.js";
import { error } from "../diagnostics.js";
import { CATALOGUE, type Code } from "./index.js";

let script: FakeScript = () => undefined;
registerDriver("codes-exits-fake", () => new FakeDriver((req) => script(req)));
registerJourney("codes-exits", () => gateThenDispatch("codes-exits"));

/** Start the journey in `root`; it pauses at its gate. */
async function startJourneyAtGate(root: string): Promise<void> {
  const gen = startJourney(root, { journey: "codes-exits", driver: "codes-exits-fake" });
  for (;;) if ((await gen.next()).done) return;
}

/** Answer the journey's gate so the next `resume` dispatches its step. */
async function passGate(root: string): Promise<void> {
  const qid = /q-\d{8}-001/.exec((await runCapture(["resume"], root)).stdout)?.[0] ?? "";
  expect((await runCapture(["resolve", qid, "go"], root)).code).toBe(0);
}

interface Case {
  code: Code;
  /** The command line (`--json` is added), given the fixture. */
  argv: (t: TempRepo) => string[];
  /** Where it runs: the repository by default. */
  cwd?: (t: TempRepo) => string;
  setup?: (t: TempRepo) => void | Promise<void>;
  /** For a "varies" entry: the exit of the case run here. */
  exit?: number;
}

const missing = (t: TempRepo) => join(t.base, "missing");
const plain = (t: TempRepo) => {
  mkdirSync(join(t.base, "plain"), { recursive: true });
  return join(t.base, "plain");
};
const emptyPack = (t: TempRepo) => {
  mkdirSync(join(t.base, "empty-pack"), { recursive: true });
  return join(t.base, "empty-pack");
};
const RUN_ID = "run-20260101T000000Z-deadbeef";

const CASES: Case[] = [
  { code: "cli.unknown-command", argv: () => ["no-such-command"] },
  { code: "cli.usage", argv: () => ["status", "--no-such-flag"] },
  { code: "question.bad-kind", argv: () => ["ask", "--kind", "no-such-kind", "Ship it?"] },
  { code: "question.empty", argv: () => ["ask", "--kind", QUESTION_KINDS[0] ?? "", ""] },
  { code: "question.bad-qid", argv: () => ["resolve", "not-a-qid", "yes"] },
  { code: "question.unknown", argv: () => ["resolve", "q-20261129-001", "yes"] },
  { code: "run.unknown", argv: () => ["run", "abandon", RUN_ID], exit: 5 },
  { code: "rite.none-active", argv: () => ["rite", "end"] },
  { code: "resume.nothing", argv: () => ["resume"] },
  { code: "pack.dir-missing", argv: (t) => ["pack", "lint", "--dir", missing(t)] },
  { code: "pack.hooks-missing", argv: (t) => ["pack", "lint", "--dir", emptyPack(t)] },
  { code: "route.no-corpus", argv: (t) => ["eval", "--pack", emptyPack(t)] },
  { code: "generate.target-invalid", argv: (t) => ["generate", "--target", missing(t)] },
  { code: "install.target-invalid", argv: (t) => ["init", "--target", missing(t), "--hooks", t.hooks] },
  { code: "install.not-git", argv: (t) => ["init", "--target", plain(t), "--hooks", t.hooks] },
  { code: "install.not-installed", argv: (t) => ["update", "--hooks", t.hooks] },
  {
    code: "install.hooks-path-outside",
    setup: (t) => void git(t.root, "config", "core.hooksPath", join(t.base, "shared-hooks")),
    argv: (t) => ["init", "--git-hook", "--hooks", t.hooks],
  },
  {
    code: "install.skip-modified",
    setup: async (t) => {
      expect((await runCapture(["init", "--hooks", t.hooks], t.root)).code).toBe(0);
      writeFileSync(join(t.root, ".claude/agents/devrites-slice-wright.md"), "my own role\n");
    },
    argv: (t) => ["update", "--hooks", t.hooks],
  },
  { code: "validate.not-git", argv: () => ["validate", "--staged"], cwd: plain },
  {
    code: "scope.traversal",
    argv: () =>
      ["packet", "new", "--role", "devrites-evidence-scout", "--rite", "rite-build"].concat([
        "--objective",
        "look",
        "--input",
        "../outside.md",
      ]),
  },
  {
    code: "doctor.host-not-found",
    argv: (t) => ["doctor", "--host", "claude", "--claude", missing(t)],
    exit: 5,
  },
  {
    code: "engine.locked",
    setup: async (t) => {
      await startJourneyAtGate(t.root);
      // a live process other than this one holds the engine lock
      writeFileSync(join(t.root, workspacePaths.lock), `${process.ppid}\n`);
    },
    argv: () => ["resume"],
  },
  {
    code: "journey.blocked",
    setup: async (t) => {
      script = () => ({ verdict: "rejected", diagnostics: [error("result.stale", "baseline moved")] });
      await startJourneyAtGate(t.root);
      await passGate(t.root);
    },
    argv: () => ["resume"],
  },
];

let t: TempRepo;
beforeEach(() => {
  t = tempRepo();
});
afterEach(() => t.cleanup());

describe("the catalogue's exit codes", () => {
  it("are pinned for a sample of at least 15 codes across 10 areas", () => {
    expect(new Set(CASES.map((c) => c.code)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(CASES.map((c) => c.code.split(".")[0])).size).toBeGreaterThanOrEqual(10);
  });

  it.each(CASES.map((c) => [c.code, c] as const))(
    "%s ends its command with the catalogued exit code",
    async (code, c) => {
      const entry = CATALOGUE[code];
      // a case names its own exit exactly when the catalogue cannot
      expect(c.exit !== undefined, code).toBe(entry.exit === "varies");
      await c.setup?.(t);
      const res = await runCapture([...c.argv(t), "--json"], c.cwd?.(t) ?? t.root);
      const report = JSON.parse(res.stdout) as { exitCode: number; diagnostics: { code: string }[] };
      expect(report.diagnostics.map((d) => d.code)).toContain(code);
      expect(res.code).toBe(report.exitCode);
      expect(res.code, code).toBe(entry.exit === "varies" ? c.exit : entry.exit);
    },
    30_000,
  );
});
