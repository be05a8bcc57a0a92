/**
 * The engine's view of the run ledgers: every attempt of every step of one journey, rebuilt from
 * `runs/<run-id>/events.jsonl` on start and kept current as the engine appends. The ledger is the truth;
 * `state.json` is a cache derived from it.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { error, warning } from "../core/diagnostics.js";
import { parseJsonBytes } from "../envelope/parse.js";
import type { DecisionStood, Gate, Payload, ResultStatus, RunId } from "../envelope/types.js";
import { appendEvent, listRunDirs, readRunEvents, workspacePaths } from "./workspace.js";
import type {
  JourneyId,
  ResultCheckedData,
  RunEvent,
  StepBlockedData,
  StepId,
  StepIntentData,
} from "./workspace-types.js";
import { resultCheckedDataSchema, stepBlockedDataSchema, stepIntentDataSchema } from "./workspace-zod.js";

/** Event types the engine writes, in the order an attempt goes through them. */
export const EV = {
  intent: "step.intent",
  dispatched: "step.dispatched",
  returned: "result.returned",
  checked: "result.checked",
  failed: "step.failed",
  accepted: "step.accepted",
  retry: "step.retry",
  blocked: "step.blocked",
} as const;

/** One attempt of one step: what the ledger says has happened to it. */
export interface AttemptRecord {
  run_id: RunId;
  /** When the intent was recorded. */
  created_at: string;
  intent: StepIntentData;
  dispatched: boolean;
  returned: boolean;
  checked?: ResultCheckedData;
  /** A driver error instead of a verdict. */
  failed?: { code: string; message: string }[];
  accepted?: AcceptedData;
  /** The retry decision taken after this attempt was rejected. */
  retried?: { next_attempt: number; fingerprint: string };
  blocked?: StepBlockedData;
  /** Set by `step.dispatched`. */
  packet_path?: string;
}

/** `data` of `step.accepted`: the persisted payload and what the engine must still act on. */
export interface AcceptedData {
  step_id: StepId;
  attempt: number;
  status: ResultStatus;
  payload: Payload;
  gates: Gate[];
  decisions_stood: DecisionStood[];
}

/** True when the attempt needs no more work: accepted, rejected, failed or blocked. */
export function attemptSettled(a: AttemptRecord): boolean {
  if (a.accepted || a.blocked || a.failed) return true;
  return a.checked !== undefined && a.checked.verdict === "rejected";
}

export class JourneyLedger {
  private readonly byStep = new Map<StepId, AttemptRecord[]>();
  private readonly byRun = new Map<RunId, AttemptRecord>();
  readonly diagnostics: Diagnostic[] = [];
  /** Events appended through this ledger since it was loaded (a progress counter). */
  size = 0;

  constructor(
    private readonly root: string,
    readonly journeyId: JourneyId,
  ) {
    for (const runId of listRunDirs(root)) this.load(runId);
  }

  private load(runId: RunId): void {
    const read = readRunEvents(this.root, runId);
    this.diagnostics.push(...read.diagnostics.map((d) => ({ ...d, severity: "warning" as const })));
    for (const ev of read.values) {
      if (ev && typeof ev === "object" && ev.run_id === runId) this.index(ev);
    }
  }

  /** Fold one event into the index (events of other journeys and unknown types are ignored). */
  private index(ev: RunEvent): void {
    if (ev.type === EV.intent) {
      const parsed = stepIntentDataSchema.safeParse(ev.data);
      if (!parsed.success || parsed.data.journey_id !== this.journeyId) return;
      const intent = parsed.data as StepIntentData;
      const list = this.byStep.get(intent.step_id) ?? [];
      if (list.some((a) => a.intent.attempt === intent.attempt)) {
        this.diagnostics.push(
          warning("ledger.duplicate-attempt", `${intent.step_id} attempt ${intent.attempt} has two runs`, {
            path: ev.run_id,
            hint: "two engines ran at once; the first run stands",
          }),
        );
        return;
      }
      const rec: AttemptRecord = {
        run_id: ev.run_id,
        created_at: ev.ts,
        intent,
        dispatched: false,
        returned: false,
      };
      list.push(rec);
      list.sort((a, b) => a.intent.attempt - b.intent.attempt);
      this.byStep.set(intent.step_id, list);
      this.byRun.set(ev.run_id, rec);
      return;
    }
    const rec = this.byRun.get(ev.run_id);
    if (!rec) return;
    switch (ev.type) {
      case EV.dispatched:
        rec.dispatched = true;
        if (typeof ev.data.packet_path === "string") rec.packet_path = ev.data.packet_path;
        break;
      case EV.returned:
        rec.returned = true;
        break;
      case EV.checked: {
        // Only the engine's own check of this attempt counts. `result check` (run by the SubagentStop hook or
        // by hand) appends the same event type without the step: evidence, not the engine's verdict.
        const parsed = resultCheckedDataSchema.safeParse(ev.data);
        if (
          parsed.success &&
          parsed.data.step_id === rec.intent.step_id &&
          parsed.data.attempt === rec.intent.attempt
        )
          rec.checked = parsed.data as ResultCheckedData;
        break;
      }
      case EV.failed:
        rec.failed = Array.isArray(ev.data.diagnostics)
          ? (ev.data.diagnostics as { code: string; message: string }[])
          : [{ code: "engine.driver-error", message: "driver failed" }];
        break;
      case EV.accepted:
        rec.accepted = {
          step_id: rec.intent.step_id,
          attempt: rec.intent.attempt,
          status: ev.data.status as ResultStatus,
          payload: ev.data.payload as Payload,
          gates: Array.isArray(ev.data.gates) ? (ev.data.gates as Gate[]) : [],
          decisions_stood: Array.isArray(ev.data.decisions_stood)
            ? (ev.data.decisions_stood as DecisionStood[])
            : [],
        };
        break;
      case EV.retry:
        if (typeof ev.data.next_attempt === "number")
          rec.retried = {
            next_attempt: ev.data.next_attempt,
            fingerprint: String(ev.data.fingerprint ?? ""),
          };
        break;
      case EV.blocked: {
        const parsed = stepBlockedDataSchema.safeParse(ev.data);
        if (parsed.success) rec.blocked = parsed.data as StepBlockedData;
        break;
      }
    }
  }

  /** Append an event durably (fsync) and then index it: intent before effect. */
  append(runId: RunId, type: string, data: Record<string, unknown>, ts: string): RunEvent {
    const ev: RunEvent = { ts, run_id: runId, type, data };
    appendEvent(this.root, ev);
    this.size++;
    this.index(ev);
    return ev;
  }

  attempts(stepId: StepId): readonly AttemptRecord[] {
    return this.byStep.get(stepId) ?? [];
  }

  latest(stepId: StepId): AttemptRecord | undefined {
    const list = this.byStep.get(stepId);
    return list?.[list.length - 1];
  }

  /** The accepted attempt of a step, if any. */
  acceptedOf(stepId: StepId): AttemptRecord | undefined {
    return this.attempts(stepId).find((a) => a.accepted);
  }

  /** Every attempt of the journey that has an intent but is not settled, oldest first. */
  openRuns(): AttemptRecord[] {
    return [...this.byRun.values()].filter((r) => !attemptSettled(r));
  }

  /** Run ids this journey owns (for merging `state.active_runs`). */
  ownsRun(runId: RunId): boolean {
    return this.byRun.has(runId);
  }
}

/** The codes the strict reader gives a ledger line that was never written by devrites (`JSON.stringify`). */
const STRICT_CODES: ReadonlySet<string> = new Set([
  "envelope.byte-order-mark",
  "envelope.invalid-encoding",
  "envelope.duplicate-key",
]);

/**
 * A run's ledger read strictly, for the checks that trust it: each line is decoded as UTF-8 without
 * replacement and parsed with duplicate keys refused. A line refused for those reasons is `tampered` (an
 * error with the line number: devrites never writes one); a line that is merely not JSON (a torn last write)
 * is skipped and reported as `readJsonLines` does. Values and their 1-based line numbers are parallel.
 */
export function readLedgerStrict(root: string, runId: RunId): StrictLedger {
  const rel = workspacePaths.events(runId);
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, rel));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT")
      return { values: [], lineNumbers: [], tampered: [], skipped: [] };
    return {
      values: [],
      lineNumbers: [],
      tampered: [],
      skipped: [error("workspace.unreadable", (e as Error).message, { path: rel })],
    };
  }
  const out: StrictLedger = { values: [], lineNumbers: [], tampered: [], skipped: [] };
  let start = 0;
  for (let line = 1; start < bytes.length; line++) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    const chunk = bytes.subarray(start, end);
    start = end + 1;
    if (chunk.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) continue;
    const parsed = parseJsonBytes(chunk, rel);
    if (parsed.ok) {
      out.values.push(parsed.value as RunEvent);
      out.lineNumbers.push(line);
      continue;
    }
    for (const d of parsed.diagnostics) {
      if (STRICT_CODES.has(d.code)) out.tampered.push({ ...d, line });
      else
        out.skipped.push(
          error(
            "ledger.corrupt-line",
            nl < 0 ? "last line is incomplete (torn write)" : "line is not valid JSON",
            {
              path: rel,
              line,
              hint: "the ledger is append-only: leave the line in place; devrites skips it",
            },
          ),
        );
    }
  }
  return out;
}

export interface StrictLedger {
  values: RunEvent[];
  lineNumbers: number[];
  /** Lines refused by the strict reader (never written by devrites): errors. */
  tampered: Diagnostic[];
  /** Lines skipped as `readJsonLines` skips them (not JSON: a torn write). */
  skipped: Diagnostic[];
}
