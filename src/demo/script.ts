/**
 * The demo's script: what each scripted leaf does (the files it writes and the final message it returns,
 * built from its packet exactly as a real leaf would), what the user does meanwhile, and what the validator
 * must say about it. Pure data and pure builders; `./run.ts` performs it.
 */

import { sha256Hex } from "../core/hash.js";
import type { AgentPacket, AgentResult, Payload, RepoWrite } from "../envelope/types.js";
import type { Verdict } from "../run/workspace-types.js";
import { DEMO_STEPS } from "./journey.js";
import {
  MATH_FIXED,
  MATH_FIXED_WITH_TRACE,
  STRAY_CONTENT,
  STRAY_FILE,
  TEST_WITH_EMPTY_CASE,
  USER_EDIT_WHILE_SCOUT_IS_OUT,
  USER_FILE,
} from "./sample.js";

/** The demo's stages, in the order they run; a failed expectation names its stage. */
export const STAGES = ["install", "scout", "stale", "malformed", "gate", "out-of-scope", "final"] as const;
export type Stage = (typeof STAGES)[number];

/** A file a leaf (or the user) writes. */
export interface FileWrite {
  path: string;
  content: string;
}

/** What a scripted leaf does with its packet. */
export interface LeafAct {
  writes: FileWrite[];
  /** The leaf's final message: the text the host hands to `devrites result record`. */
  message: string;
}

export interface Expectation {
  verdict: Verdict;
  /** Exactly these distinct diagnostic codes (sorted), no more, no fewer. */
  codes: string[];
  /** Diagnostics that must name these paths. */
  names?: { code: string; path: string }[];
  /** The engine flags the envelope as malformed. */
  malformed?: boolean;
  /** The packet's objective quotes the previous attempt's defect verbatim. */
  quotesDefect?: boolean;
  /** These paths are byte-identical after the verdict to what they were before the leaf ran. */
  intact?: string[];
}

export interface LeafScript {
  stage: Stage;
  step_id: string;
  attempt: number;
  /** One line for the report: what this attempt shows. */
  shows: string;
  /** The user's edit while this leaf is out (after its packet was frozen, before its result is recorded). */
  meanwhile?: FileWrite;
  leaf: (packet: AgentPacket) => LeafAct;
  expect: Expectation;
}

export interface GateScript {
  stage: Stage;
  step_id: string;
  /** The human's answer, given with `devrites resolve`. */
  answer: string;
  shows: string;
}

export interface DemoScript {
  leaves: LeafScript[];
  gate: GateScript;
}

/** An `agent-result/v1` for a packet: identity, baseline and budgets echoed from it, as a leaf must. */
export function resultFor(packet: AgentPacket, payload: Payload, repoWrites: RepoWrite[] = []): AgentResult {
  return {
    result_version: "agent-result/v1",
    run_id: packet.run_id,
    role: packet.role,
    status: "complete",
    baseline_id: packet.baseline.id,
    budget: {
      files_used: packet.inputs.length,
      loaded_lines_used: 12 * packet.inputs.length,
      ...packet.budgets,
    },
    side_effects: { repo_writes: repoWrites, scratch_writes: [] },
    payload,
    gates: [],
    decisions_stood: [],
    escalation: null,
  };
}

/** A final message the way leaves write it: a line of prose, then the result in one fenced json block. */
export function finalMessage(prose: string, result: unknown): string {
  return `${prose}\n\n\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\`\n`;
}

/** A `modify` entry for a file the leaf rewrote. */
export function modified(w: FileWrite): RepoWrite {
  return { path: w.path, op: "modify", sha256_after: sha256Hex(w.content) };
}

const mapDossier: Payload = {
  type: "evidence-dossier",
  content: {
    findings: [
      {
        claim: "mean() is defined in src/math.js on top of sum()",
        evidence: [{ path: "src/math.js", lines: "5-7" }],
        confidence: "high",
      },
      {
        claim: "the tests cover sum() and mean([2, 4]); nothing covers an empty list",
        evidence: [{ path: "test/math.test.js", lines: "5-6" }],
        confidence: "high",
      },
    ],
    open_questions: [],
  },
};

const causeDossier: Payload = {
  type: "evidence-dossier",
  content: {
    findings: [
      {
        claim: "mean([]) divides sum([]) = 0 by xs.length = 0, and 0 / 0 is NaN",
        evidence: [{ path: "src/math.js", lines: "6", excerpt: "return sum(xs) / xs.length;" }],
        confidence: "high",
      },
    ],
    open_questions: ["Should mean([]) be 0 or throw?"],
  },
};

const planCandidate: Payload = {
  type: "plan-candidate",
  content: {
    slices: [
      {
        id: "fix-mean-empty",
        title: "mean of an empty list",
        goal: "mean([]) returns 0 instead of NaN.",
        files: ["src/math.js", "test/math.test.js"],
        tests: ["test/math.test.js"],
        acceptance: ["mean([]) === 0", "mean([2, 4]) === 3 still holds"],
        depends_on: [],
      },
    ],
    risks: ["callers that test for NaN"],
    assumptions: ["0 is the wanted mean of nothing"],
  },
};

function wrightReport(summary: string): Payload {
  return {
    type: "wright-report",
    content: { slice_id: "fix-mean-empty", summary, tests_added: ["test/math.test.js"], commands_run: [] },
  };
}

/** The demo's script: every leaf attempt the journey dispatches, in order. */
export function demoScript(): DemoScript {
  return {
    leaves: [
      {
        stage: "scout",
        step_id: DEMO_STEPS.map,
        attempt: 1,
        shows: "a scout packet and an accepted result",
        leaf: (p) => ({ writes: [], message: finalMessage("Mapped the library.", resultFor(p, mapDossier)) }),
        expect: { verdict: "accepted", codes: [] },
      },
      {
        stage: "stale",
        step_id: DEMO_STEPS.cause,
        attempt: 1,
        shows: `you edit ${USER_FILE} while the scout is out: its result describes a tree that is gone`,
        meanwhile: { path: USER_FILE, content: USER_EDIT_WHILE_SCOUT_IS_OUT },
        leaf: (p) => ({ writes: [], message: finalMessage("Found the cause.", resultFor(p, causeDossier)) }),
        expect: {
          verdict: "rejected",
          codes: ["result.stale"],
          names: [{ code: "result.stale", path: USER_FILE }],
        },
      },
      {
        stage: "stale",
        step_id: DEMO_STEPS.cause,
        attempt: 2,
        shows: "re-dispatched on the tree as it is now, the defect quoted: accepted",
        leaf: (p) => ({ writes: [], message: finalMessage("Found the cause.", resultFor(p, causeDossier)) }),
        expect: { verdict: "accepted", codes: [], quotesDefect: true },
      },
      {
        stage: "malformed",
        step_id: DEMO_STEPS.plan,
        attempt: 1,
        shows: 'the drafter answers with status "done", which agent-result/v1 does not have',
        leaf: (p) => ({
          writes: [],
          message: finalMessage("Here is the plan.", { ...resultFor(p, planCandidate), status: "done" }),
        }),
        expect: { verdict: "rejected", codes: ["envelope.schema"], malformed: true },
      },
      {
        stage: "malformed",
        step_id: DEMO_STEPS.plan,
        attempt: 2,
        shows: "retried once with the exact defect quoted: accepted",
        leaf: (p) => ({
          writes: [],
          message: finalMessage("Here is the plan.", resultFor(p, planCandidate)),
        }),
        expect: { verdict: "accepted", codes: [], quotesDefect: true },
      },
      {
        stage: "out-of-scope",
        step_id: DEMO_STEPS.build,
        attempt: 1,
        shows: `the wright also writes ${STRAY_FILE}, which its allowlist does not name, and does not declare it`,
        leaf: (p) => {
          const math = { path: "src/math.js", content: MATH_FIXED_WITH_TRACE };
          const test = { path: "test/math.test.js", content: TEST_WITH_EMPTY_CASE };
          const stray = { path: STRAY_FILE, content: STRAY_CONTENT };
          return {
            writes: [math, test, stray],
            message: finalMessage(
              "Implemented the slice.",
              resultFor(p, wrightReport("mean([]) returns 0; test added"), [modified(math), modified(test)]),
            ),
          };
        },
        expect: {
          verdict: "rejected",
          codes: ["result.out-of-scope", "result.undeclared-write"],
          names: [
            { code: "result.out-of-scope", path: STRAY_FILE },
            { code: "result.undeclared-write", path: STRAY_FILE },
          ],
          intact: [USER_FILE],
        },
      },
      {
        stage: "out-of-scope",
        step_id: DEMO_STEPS.build,
        attempt: 2,
        shows: "retried with the defect quoted; it drops the stray import and stays in scope: accepted",
        leaf: (p) => {
          const math = { path: "src/math.js", content: MATH_FIXED };
          return {
            writes: [math],
            message: finalMessage(
              "Removed the stray import.",
              resultFor(p, wrightReport("mean([]) returns 0; no debug import"), [modified(math)]),
            ),
          };
        },
        expect: { verdict: "accepted", codes: [], quotesDefect: true, intact: [USER_FILE] },
      },
    ],
    gate: {
      stage: "gate",
      step_id: DEMO_STEPS.approve,
      answer: "approve",
      shows: "a human approves the plan before any code is written",
    },
  };
}
