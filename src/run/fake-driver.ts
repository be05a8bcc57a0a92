/**
 * An in-memory (optionally file-logged) driver for tests: leaves answer from a script, keyed by step id and
 * attempt. Honours the driver contract: dispatch is idempotent per run id, using its log as the memory of
 * what it already sent (the log survives a crash of the engine's process when it is a file).
 */

import { appendFileSync, readFileSync } from "node:fs";
import type { Diagnostic } from "../core/diagnostics.js";
import { ROLES } from "../envelope/roles.js";
import type { AgentResult, Payload } from "../envelope/types.js";
import type {
  CheckOutcome,
  CollectOutcome,
  DispatchReceipt,
  DispatchRequest,
  Driver,
} from "./engine-types.js";
import type { GuardStrength } from "./workspace-types.js";

/** How the scripted leaf and the check behave for one attempt. Default: accepted, complete. */
export interface FakeAnswer {
  verdict?: "accepted" | "rejected" | "gate";
  diagnostics?: Diagnostic[];
  malformed?: boolean;
  pending?: boolean;
  guard_strength?: GuardStrength;
  result?: Partial<AgentResult>;
  /** Throw from this driver method. */
  throwIn?: "dispatch" | "collect" | "check";
}

export type FakeScript = (req: DispatchRequest) => FakeAnswer | undefined;

const SHA = "0".repeat(64);

export function payloadFor(req: Pick<DispatchRequest, "role" | "step_id">): Payload {
  switch (ROLES[req.role].payload) {
    case "evidence-dossier":
      return { type: "evidence-dossier", content: { findings: [], open_questions: [] } };
    case "plan-candidate":
      return { type: "plan-candidate", content: { slices: [], risks: [], assumptions: [] } };
    case "proof-report":
      return { type: "proof-report", content: { checks: [], verdict: "pass" } };
    case "review-findings":
      return {
        type: "review-findings",
        content: { findings: [], verdict: "approve", coverage: `reviewed for ${req.step_id}` },
      };
    case "wright-report":
      return {
        type: "wright-report",
        content: { slice_id: "s1", summary: `done ${req.step_id}`, tests_added: [], commands_run: [] },
      };
  }
}

export function makeResult(req: DispatchRequest, over: Partial<AgentResult> = {}): AgentResult {
  return {
    result_version: "agent-result/v1",
    run_id: req.run_id,
    role: req.role,
    status: "complete",
    baseline_id: SHA,
    budget: {
      files_used: 1,
      loaded_lines_used: 10,
      max_files: 10,
      max_loaded_lines: 100,
      max_result_lines: 100,
    },
    side_effects: { repo_writes: [], scratch_writes: [] },
    payload: payloadFor(req),
    gates: [],
    decisions_stood: [],
    escalation: null,
    ...over,
  };
}

export class FakeDriver implements Driver {
  /** Every distinct dispatch, in order (this process only; see `logPath` for the durable list). */
  readonly sent: DispatchRequest[] = [];
  readonly calls: { method: "dispatch" | "collect" | "check"; run_id: string }[] = [];

  constructor(
    private readonly script: FakeScript = () => undefined,
    /** When set, dispatches are appended here as JSON lines and idempotency is checked against it. */
    private readonly logPath?: string,
  ) {}

  private alreadySent(runId: string): boolean {
    if (this.sent.some((r) => r.run_id === runId)) return true;
    if (!this.logPath) return false;
    try {
      return readFileSync(this.logPath, "utf8")
        .split("\n")
        .some((l) => l.includes(`"run_id":"${runId}"`));
    } catch {
      return false;
    }
  }

  async dispatch(req: DispatchRequest): Promise<DispatchReceipt> {
    this.calls.push({ method: "dispatch", run_id: req.run_id });
    const a = this.script(req) ?? {};
    if (a.throwIn === "dispatch") throw new Error("scripted dispatch failure");
    if (!this.alreadySent(req.run_id)) {
      this.sent.push(req);
      if (this.logPath)
        appendFileSync(
          this.logPath,
          `${JSON.stringify({ run_id: req.run_id, step_id: req.step_id, attempt: req.attempt, objective: req.objective })}\n`,
        );
    }
    return {};
  }

  async collect(req: DispatchRequest): Promise<CollectOutcome> {
    this.calls.push({ method: "collect", run_id: req.run_id });
    const a = this.script(req) ?? {};
    if (a.throwIn === "collect") throw new Error("scripted collect failure");
    return a.pending ? { state: "pending", instruction: `spawn ${req.role}` } : { state: "returned" };
  }

  async check(req: DispatchRequest): Promise<CheckOutcome> {
    this.calls.push({ method: "check", run_id: req.run_id });
    const a = this.script(req) ?? {};
    if (a.throwIn === "check") throw new Error("scripted check failure");
    const verdict = a.verdict ?? "accepted";
    return {
      verdict,
      diagnostics: a.diagnostics ?? [],
      malformed: a.malformed ?? false,
      guard_strength: a.guard_strength ?? "enforced",
      ...(verdict === "rejected" ? {} : { result: makeResult(req, a.result) }),
    };
  }
}
