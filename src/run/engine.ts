/**
 * The engine: a journey as an async generator with pause points.
 *
 * Every effect is preceded by its intent in the ledger (`step.intent` before `dispatch`, `step.dispatched`
 * before `collect`, …) and every step attempt is keyed by step id + attempt. Starting the generator again
 * on the same workspace replays the ledger and continues where it stopped, so a crash, a `/clear` or a
 * human gate all resume the same way: nothing is dispatched twice and nothing is lost.
 *
 * The generator yields one stream of {@link EngineEvent}s. It stops at a pause point — `gate` (a human must
 * answer: the CLI exits 3), `await` (the host must run a leaf) — or at `blocked` (a technical blocker), and
 * ends with `done`.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import { newRunId } from "../envelope/ids.js";
import { isRoleName, ROLES } from "../envelope/roles.js";
import type { Gate } from "../envelope/types.js";
import { recordDecision } from "./decisions.js";
import type {
  AwaitingRun,
  Blocker,
  CheckOutcome,
  DispatchRequest,
  DispatchStep,
  Driver,
  EngineEvent,
  EngineOutcome,
  GateStep,
  Journey,
  JourneyContext,
  PacketSpec,
} from "./engine-types.js";
import { type AcceptedData, type AttemptRecord, attemptSettled, EV, JourneyLedger } from "./ledger.js";
import { acquireEngineLock } from "./lock.js";
import { planWaves } from "./plan.js";
import { raiseQuestion, readQuestions } from "./questions.js";
import { decideRetry, type RejectedAttempt, retryObjective } from "./retry.js";
import { readState, workspacePaths, writeState } from "./workspace.js";
import type {
  ActiveRun,
  JourneyRef,
  Question,
  QuestionKind,
  StepId,
  WorkspaceState,
} from "./workspace-types.js";

export interface EngineOptions {
  /** Repository root (the folder holding `.devrites/`). */
  root: string;
  journey: Journey;
  /** The journey's identity; `status` is maintained by the engine. */
  ref: JourneyRef;
  driver: Driver;
  /** The clock (ISO-8601 UTC). */
  now?: () => string;
  /** Mint a run id (tests make it deterministic). */
  mintRunId?: (now: string) => string;
}

/** A journey step with its derived step ids. */
export type LaidStep =
  | { kind: "dispatch"; index: number; step: DispatchStep; stepIds: StepId[] }
  | { kind: "gate"; index: number; step: GateStep; stepId: StepId };

const RITE_RE = /^rite(-[a-z0-9]+)*$/;

/**
 * Derive the step ids (pure): the n-th packet of a role in a rite is `<rite>/<role>#<n>`; the n-th gate of a
 * rite is `<rite>/human#<n>`. Also checks the journey's shape.
 */
export function layoutJourney(journey: Journey): { steps: LaidStep[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const counters = new Map<string, number>();
  const next = (rite: string, actor: string): StepId => {
    const key = `${rite}/${actor}`;
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return `${key}#${n}`;
  };
  const steps: LaidStep[] = [];
  journey.steps.forEach((step, index) => {
    const where = `steps[${index}]`;
    if (!RITE_RE.test(step.rite))
      diagnostics.push(error("journey.bad-rite", `${where}: not a rite name: ${step.rite}`));
    if (step.kind === "gate") {
      if (!step.gate.question.trim())
        diagnostics.push(error("journey.empty-question", `${where}: the gate has no question`));
      steps.push({ kind: "gate", index, step, stepId: next(step.rite, "human") });
      return;
    }
    if (step.packets.length === 0)
      diagnostics.push(error("journey.empty-dispatch", `${where}: a dispatch step needs packets`));
    const stepIds = step.packets.map((p, i) => {
      if (!isRoleName(p.role))
        diagnostics.push(error("journey.bad-role", `${where}.packets[${i}]: unknown role ${String(p.role)}`));
      if (ROLES[p.role]?.mode !== "writer" && (p.scope?.allowed_repo_writes.length ?? 0) > 0)
        diagnostics.push(
          error("journey.reader-writes", `${where}.packets[${i}]: a read-only role cannot have writes`),
        );
      return next(step.rite, p.role);
    });
    steps.push({ kind: "dispatch", index, step, stepIds });
  });
  return { steps, diagnostics };
}

/** Map a leaf's escalation-free gate to a question kind (the result's gate kinds are the same set). */
function gateKind(g: Gate): QuestionKind {
  return g.kind;
}

interface Member {
  stepId: StepId;
  spec: PacketSpec;
  step: DispatchStep;
}

type WaveOutcome =
  | { kind: "ok" }
  | { kind: "await"; runs: AwaitingRun[] }
  | { kind: "blocked"; blockers: Blocker[] };

/**
 * Run (or resume) a journey. Returns how it stopped; see {@link EngineOutcome}. A second engine on the same
 * workspace is refused (`engine.locked`), and so is a workspace whose `state.json` is corrupt (it is never
 * overwritten).
 */
export async function* runJourney(opts: EngineOptions): AsyncGenerator<EngineEvent, EngineOutcome, void> {
  const now = opts.now ?? (() => new Date().toISOString());
  const mintRunId = opts.mintRunId ?? ((t: string) => newRunId(t));
  const { root, driver, ref } = opts;
  const laid = layoutJourney(opts.journey);
  if (laid.diagnostics.length > 0) return { status: "refused", diagnostics: laid.diagnostics };

  const lock = acquireEngineLock(root);
  if (!lock.ok) return { status: "refused", diagnostics: lock.diagnostics };
  try {
    const read = readState(root, now());
    if (!read.ok) return { status: "refused", diagnostics: read.diagnostics };
    let state: WorkspaceState = read.state;
    const ledger = new JourneyLedger(root, ref.id);
    let questions: Question[] = readQuestions(root).questions;

    const saveState = (patch: Partial<WorkspaceState>): void => {
      const nextState: WorkspaceState = { ...state, ...patch };
      const { updated_at: _a, ...a } = nextState;
      const { updated_at: _b, ...b } = state;
      if (read.exists && JSON.stringify(a) === JSON.stringify(b)) return;
      state = { ...nextState, updated_at: now() };
      writeState(root, state);
      read.exists = true;
    };
    const setStatus = (status: JourneyRef["status"]): void =>
      saveState({
        journey: { ...ref, status },
        ...(status === "done" ? { active_rite: null, phase: null } : {}),
      });
    /** `state.active_runs`: runs of others kept, this journey's open attempts derived from the ledger. */
    const syncActiveRuns = (): void => {
      const others = state.active_runs.filter((r) => !ledger.ownsRun(r.run_id));
      const mine: ActiveRun[] = ledger.openRuns().map((r) => ({
        run_id: r.run_id,
        role: r.intent.role,
        step_id: r.intent.step_id,
        packet_path: r.packet_path ?? workspacePaths.packet(r.run_id),
        created_at: r.created_at,
      }));
      saveState({ active_runs: [...others, ...mine] });
    };

    const ctx: JourneyContext = {
      journeyId: ref.id,
      accepted: (stepId) => {
        const a = ledger.acceptedOf(stepId)?.accepted;
        return a ? { status: a.status, payload: a.payload } : undefined;
      },
      answer: (stepId) =>
        questions.find((q) => q.journey_id === ref.id && q.step_id === stepId && q.gate_id === undefined)
          ?.answer,
    };

    setStatus("running");
    syncActiveRuns();

    const objectiveOf = (m: Member): string =>
      typeof m.spec.objective === "function" ? m.spec.objective(ctx) : m.spec.objective;

    const requestOf = (m: Member, rec: AttemptRecord): DispatchRequest => ({
      journey_id: ref.id,
      run_id: rec.run_id,
      step_id: m.stepId,
      attempt: rec.intent.attempt,
      rite: m.step.rite,
      phase: m.step.phase,
      role: m.spec.role,
      objective: rec.intent.objective,
      inputs: m.spec.inputs ?? [],
      scope: m.spec.scope ?? { in: [], out: [], allowed_repo_writes: [] },
      budgets: m.spec.budgets ?? {},
    });

    /** Raise each gate of an accepted result once, and record its stood decisions once. */
    async function* afterAccept(rec: AttemptRecord, acc: AcceptedData): AsyncGenerator<EngineEvent> {
      for (const d of acc.decisions_stood) {
        const { record: decision, created } = recordDecision(
          root,
          {
            source: "leaf",
            decision: d.decision,
            rationale: d.rationale,
            run_id: rec.run_id,
            step_id: acc.step_id,
            journey_id: ref.id,
          },
          now(),
        );
        if (created) yield { type: "decision", decision };
      }
      for (const g of acc.gates) {
        const known = questions.find(
          (q) => q.journey_id === ref.id && q.run_id === rec.run_id && q.gate_id === g.id,
        );
        if (known) continue;
        const raised = raiseQuestion(
          root,
          {
            kind: gateKind(g),
            question: g.recommendation ? `${g.question} (recommended: ${g.recommendation})` : g.question,
            options: [...new Set(g.options.filter((o) => o.trim() !== ""))],
            step_id: acc.step_id,
            journey_id: ref.id,
            run_id: rec.run_id,
            gate_id: g.id,
          },
          now(),
        );
        if (raised.ok) {
          questions = [...questions, raised.question];
          yield { type: "question", question: raised.question };
        }
      }
    }

    /** Record an accepted (or leaf-escalated) result. */
    function* accept(m: Member, rec: AttemptRecord, check: CheckOutcome): Generator<EngineEvent> {
      const result = check.result;
      if (!result) {
        yield {
          type: "run",
          event: ledger.append(
            rec.run_id,
            EV.failed,
            {
              step_id: m.stepId,
              attempt: rec.intent.attempt,
              diagnostics: [
                { code: "engine.no-result", message: "the driver accepted a result it did not return" },
              ],
            },
            now(),
          ),
        };
        return;
      }
      if (result.status === "blocked" || result.status === "failed") {
        const esc = result.escalation;
        yield {
          type: "run",
          event: ledger.append(
            rec.run_id,
            EV.blocked,
            {
              step_id: m.stepId,
              attempt: rec.intent.attempt,
              kind: "technical",
              reason: "leaf-escalated",
              fingerprint: `${m.spec.role}|${m.stepId}|leaf.${result.status}`,
              detail: esc ? `${esc.reason}: ${esc.detail}` : `the leaf reported ${result.status}`,
            },
            now(),
          ),
        };
        return;
      }
      const data: AcceptedData = {
        step_id: m.stepId,
        attempt: rec.intent.attempt,
        status: result.status,
        payload: result.payload,
        gates: result.gates,
        decisions_stood: result.decisions_stood,
      };
      yield {
        type: "run",
        event: ledger.append(rec.run_id, EV.accepted, { ...data }, now()),
      };
    }

    /** Run one wave to completion, to a pause (`await`) or to technical blockers. */
    async function* runWave(members: Member[]): AsyncGenerator<EngineEvent, WaveOutcome> {
      for (;;) {
        const before = ledger.size;
        const work: { m: Member; rec: AttemptRecord }[] = [];
        const blockers: Blocker[] = [];
        for (const m of members) {
          const latest = ledger.latest(m.stepId);
          if (latest?.accepted) {
            yield* afterAccept(latest, latest.accepted);
            continue;
          }
          if (latest?.blocked) {
            blockers.push({ ...latest.blocked, run_id: latest.run_id });
            continue;
          }
          let rec = latest;
          if (!rec) {
            rec = yield* intent(m, 1, objectiveOf(m));
          } else if (attemptSettled(rec)) {
            const history: RejectedAttempt[] = ledger
              .attempts(m.stepId)
              .filter((a) => attemptSettled(a) && !a.accepted)
              .map((a) => ({
                attempt: a.intent.attempt,
                malformed: a.checked?.malformed === true,
                diagnostics: a.failed ?? a.checked?.diagnostics ?? [],
              }));
            const decision = decideRetry(m.spec.role, m.stepId, history);
            if (decision.action === "block") {
              const ev = ledger.append(
                rec.run_id,
                EV.blocked,
                {
                  step_id: m.stepId,
                  attempt: rec.intent.attempt,
                  kind: "technical",
                  reason: decision.reason,
                  fingerprint: decision.fingerprint,
                  detail: decision.detail,
                },
                now(),
              );
              yield { type: "run", event: ev };
              const blocked = ledger.latest(m.stepId)?.blocked;
              if (blocked) blockers.push({ ...blocked, run_id: rec.run_id });
              continue;
            }
            if (!rec.retried) {
              yield {
                type: "run",
                event: ledger.append(
                  rec.run_id,
                  EV.retry,
                  {
                    step_id: m.stepId,
                    attempt: rec.intent.attempt,
                    next_attempt: decision.nextAttempt,
                    fingerprint: decision.fingerprint,
                  },
                  now(),
                ),
              };
            }
            rec = yield* intent(
              m,
              decision.nextAttempt,
              retryObjective(objectiveOf(m), rec.intent.attempt, decision.defect),
            );
          }
          work.push({ m, rec });
        }
        syncActiveRuns();
        if (work.length === 0) return blockers.length > 0 ? { kind: "blocked", blockers } : { kind: "ok" };

        // Dispatch every attempt not yet confirmed as dispatched (idempotent per run id in the driver).
        const toDispatch = work.filter((w) => !w.rec.dispatched && !attemptSettled(w.rec));
        const sent = await Promise.allSettled(toDispatch.map((w) => driver.dispatch(requestOf(w.m, w.rec))));
        for (const [i, w] of toDispatch.entries()) {
          const s = sent[i];
          if (s?.status === "fulfilled") {
            yield {
              type: "run",
              event: ledger.append(
                w.rec.run_id,
                EV.dispatched,
                {
                  step_id: w.m.stepId,
                  attempt: w.rec.intent.attempt,
                  packet_path: s.value.packet_path ?? workspacePaths.packet(w.rec.run_id),
                },
                now(),
              ),
            };
          } else yield driverFailed(w, "dispatch", s?.reason);
        }
        syncActiveRuns();

        // Collect what has returned; remember what is still out.
        const awaiting: AwaitingRun[] = [];
        const toCollect = work.filter((w) => w.rec.dispatched && !w.rec.returned && !attemptSettled(w.rec));
        const got = await Promise.allSettled(toCollect.map((w) => driver.collect(requestOf(w.m, w.rec))));
        for (const [i, w] of toCollect.entries()) {
          const g = got[i];
          if (g?.status === "rejected") yield driverFailed(w, "collect", g.reason);
          else if (g?.value.state === "returned")
            yield {
              type: "run",
              event: ledger.append(
                w.rec.run_id,
                EV.returned,
                { step_id: w.m.stepId, attempt: w.rec.intent.attempt },
                now(),
              ),
            };
          else
            awaiting.push({
              run_id: w.rec.run_id,
              step_id: w.m.stepId,
              role: w.m.spec.role,
              packet_path: w.rec.packet_path ?? workspacePaths.packet(w.rec.run_id),
              ...(g?.value.state === "pending" && g.value.instruction
                ? { instruction: g.value.instruction }
                : {}),
            });
        }

        // Check what has returned and is not yet judged.
        const toCheck = work.filter((w) => w.rec.returned && !w.rec.checked && !attemptSettled(w.rec));
        const judged = await Promise.allSettled(toCheck.map((w) => driver.check(requestOf(w.m, w.rec))));
        for (const [i, w] of toCheck.entries()) {
          const j = judged[i];
          if (j?.status !== "fulfilled") {
            yield driverFailed(w, "check", j?.reason);
            continue;
          }
          const c = j.value;
          yield {
            type: "run",
            event: ledger.append(
              w.rec.run_id,
              EV.checked,
              {
                verdict: c.verdict,
                ...(c.guard_strength ? { guard_strength: c.guard_strength } : {}),
                step_id: w.m.stepId,
                attempt: w.rec.intent.attempt,
                malformed: c.malformed === true,
                diagnostics: c.diagnostics.map((d) => ({
                  code: d.code,
                  message: d.message,
                  ...(d.path ? { path: d.path } : {}),
                })),
              },
              now(),
            ),
          };
        }
        // Persist accepted payloads (also for attempts checked before a crash but not yet persisted).
        for (const w of work) {
          const ch = w.rec.checked;
          if (!ch || ch.verdict === "rejected" || w.rec.accepted || w.rec.blocked || w.rec.failed) continue;
          if (toCheck.includes(w)) {
            const outcome = (judged[toCheck.indexOf(w)] as PromiseFulfilledResult<CheckOutcome> | undefined)
              ?.value;
            if (outcome) yield* accept(w.m, w.rec, outcome);
            continue;
          }
          // Checked as accepted before a crash, payload not yet persisted: judge it again (checks are pure).
          let again: CheckOutcome;
          try {
            again = await driver.check(requestOf(w.m, w.rec));
          } catch (e) {
            yield driverFailed(w, "re-check", e);
            continue;
          }
          if (again.verdict === "rejected")
            yield {
              type: "run",
              event: ledger.append(
                w.rec.run_id,
                EV.failed,
                {
                  step_id: w.m.stepId,
                  attempt: w.rec.intent.attempt,
                  diagnostics: again.diagnostics.map((d) => ({ code: d.code, message: d.message })),
                },
                now(),
              ),
            };
          else yield* accept(w.m, w.rec, again);
        }
        syncActiveRuns();
        // Pause for the runs still out only when nothing else moved: retries of rejected members and the
        // gates of accepted ones go ahead first.
        if (ledger.size === before) {
          if (awaiting.length > 0) return { kind: "await", runs: awaiting };
          throw new Error("engine made no progress on a wave with nothing outstanding (a bug)");
        }
      }
    }

    function driverFailed(w: { m: Member; rec: AttemptRecord }, phase: string, reason: unknown): EngineEvent {
      const message = reason instanceof Error ? reason.message : String(reason);
      return {
        type: "run",
        event: ledger.append(
          w.rec.run_id,
          EV.failed,
          {
            step_id: w.m.stepId,
            attempt: w.rec.intent.attempt,
            diagnostics: [{ code: "engine.driver-error", message: `${phase} failed: ${message}` }],
          },
          now(),
        ),
      };
    }

    async function* intent(
      m: Member,
      attempt: number,
      objective: string,
    ): AsyncGenerator<EngineEvent, AttemptRecord> {
      const runId = mintRunId(now());
      const ev = ledger.append(
        runId,
        EV.intent,
        {
          journey_id: ref.id,
          step_id: m.stepId,
          attempt,
          role: m.spec.role,
          rite: m.step.rite,
          phase: m.step.phase,
          objective,
        },
        now(),
      );
      yield { type: "run", event: ev };
      const rec = ledger.latest(m.stepId);
      if (!rec || rec.run_id !== runId) throw new Error(`ledger did not index the intent of ${m.stepId}`);
      return rec;
    }

    /** Human answers to questions of this journey become accepted decisions, once. */
    function* recordAnswers(stepIds: readonly StepId[]): Generator<EngineEvent> {
      for (const q of questions) {
        if (q.journey_id !== ref.id || q.answer === undefined || !q.step_id || !stepIds.includes(q.step_id))
          continue;
        const { record: decision, created } = recordDecision(
          root,
          {
            source: "human",
            decision: q.answer,
            rationale: q.question,
            qid: q.qid,
            step_id: q.step_id,
            journey_id: ref.id,
          },
          now(),
        );
        if (created) yield { type: "decision", decision };
      }
    }

    for (const ls of laid.steps) {
      const step = ls.step;
      if (step.when && !step.when(ctx)) continue;
      if (state.active_rite !== step.rite || state.phase !== step.phase)
        saveState({ active_rite: step.rite, phase: step.phase });

      if (ls.kind === "gate") {
        let q = questions.find(
          (x) => x.journey_id === ref.id && x.step_id === ls.stepId && x.gate_id === undefined,
        );
        if (!q) {
          yield { type: "step", step_id: ls.stepId, rite: step.rite, phase: step.phase, kind: "gate" };
          const g = (step as GateStep).gate;
          const raised = raiseQuestion(
            root,
            {
              kind: g.kind,
              question: g.question,
              options: g.options ?? [],
              step_id: ls.stepId,
              journey_id: ref.id,
            },
            now(),
          );
          if (!raised.ok) return { status: "refused", diagnostics: raised.diagnostics };
          q = raised.question;
          questions = [...questions, q];
          yield { type: "question", question: q };
        }
        if (q.answer === undefined) {
          setStatus("paused-gate");
          yield { type: "gate", question: q };
          return { status: "gate", journey_id: ref.id, questions: [q] };
        }
        yield* recordAnswers([ls.stepId]);
        continue;
      }

      const members: Member[] = (step as DispatchStep).packets.map((spec, i) => ({
        stepId: ls.stepIds[i] as StepId,
        spec,
        step: step as DispatchStep,
      }));
      if (members.some((m) => !ledger.acceptedOf(m.stepId)))
        yield {
          type: "step",
          step_id: ls.stepIds[0] as StepId,
          rite: step.rite,
          phase: step.phase,
          kind: "dispatch",
        };
      const waves = planWaves(
        members.map((m) => ({
          mode: ROLES[m.spec.role].mode,
          paths: [...(m.spec.scope?.in ?? []), ...(m.spec.inputs ?? []).map((x) => x.path)],
        })),
      );
      for (const wave of waves) {
        const wm = wave.map((i) => members[i] as Member);
        if (wm.some((m) => !ledger.acceptedOf(m.stepId)))
          yield { type: "wave", step_ids: wm.map((m) => m.stepId) };
        const out = yield* runWave(wm);
        if (out.kind === "await") {
          setStatus("paused-await");
          yield { type: "await", runs: out.runs };
          return { status: "await", journey_id: ref.id, runs: out.runs };
        }
        if (out.kind === "blocked") {
          setStatus("blocked");
          for (const b of out.blockers) yield { type: "blocked", blocker: b };
          return { status: "blocked", journey_id: ref.id, blockers: out.blockers };
        }
        // Gates raised by accepted results hold the journey until every one is answered.
        const waveSteps = wm.map((m) => m.stepId);
        const open = questions.filter(
          (x) =>
            x.journey_id === ref.id &&
            x.gate_id !== undefined &&
            x.step_id !== undefined &&
            waveSteps.includes(x.step_id) &&
            x.answer === undefined,
        );
        if (open.length > 0) {
          setStatus("paused-gate");
          for (const q of open) yield { type: "gate", question: q };
          return { status: "gate", journey_id: ref.id, questions: open };
        }
        yield* recordAnswers(waveSteps);
      }
    }
    setStatus("done");
    yield { type: "done", journey_id: ref.id };
    return { status: "done", journey_id: ref.id };
  } finally {
    lock.release();
  }
}

/** Drive a journey to its next stop, handing every event to `onEvent`. */
export async function driveJourney(
  opts: EngineOptions,
  onEvent: (e: EngineEvent) => void | Promise<void> = () => {},
): Promise<EngineOutcome> {
  const gen = runJourney(opts);
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
    await onEvent(step.value);
  }
}
