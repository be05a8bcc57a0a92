import { locateRoot } from "../../baseline/find-repo-root.js";
import { type Diagnostic, ExitCode, error, info } from "../../core/diagnostics.js";
import type { EngineEvent, EngineOutcome } from "../../run/engine-types.js";
import { resumeJourney } from "../../run/journeys.js";
import { pendingQuestions, readQuestions } from "../../run/questions.js";
import { nextAction } from "../../run/status.js";
import { readState } from "../../run/workspace.js";
import type { Question } from "../../run/workspace-types.js";
import { type Command, type CommandResult, flag } from "../command.js";
// The built-in driver and journey, registered by name for resume to find: commands load lazily, so the
// command that starts a journey may not be loaded in the process that resumes it.
import "../../demo/journey.js";
import "../../run/cli-driver.js";

function questionLines(questions: readonly Question[]): string[] {
  return questions.flatMap((q) => [
    `  ${q.qid} [${q.kind}] ${q.question}${q.options.length ? ` (options: ${q.options.join(" | ")})` : ""}`,
    `  answer with: .devrites/bin/devrites resolve ${q.qid} "<answer>", then .devrites/bin/devrites resume`,
  ]);
}

/** One line of progress for an engine event, or undefined for events not worth a line. */
export function describeEvent(e: EngineEvent): string | undefined {
  switch (e.type) {
    case "step":
      return `→ ${e.step_id} (${e.rite}, phase ${e.phase})`;
    case "wave":
      return e.step_ids.length > 1 ? `  wave: ${e.step_ids.join(", ")}` : undefined;
    case "question":
      return `  question ${e.question.qid} raised [${e.question.kind}]`;
    case "decision":
      return `  decision ${e.decision.id} (${e.decision.source}): ${e.decision.decision}`;
    case "run": {
      const d = e.event.data;
      const step = `${String(d.step_id)} attempt ${String(d.attempt)}`;
      switch (e.event.type) {
        case "step.intent":
          return `  dispatch ${step} (${e.event.run_id})`;
        case "result.checked":
          return `  checked ${step}: ${String(d.verdict)}${d.guard_strength ? `, guard ${String(d.guard_strength)}` : ""}`;
        case "step.accepted":
          return `  accepted ${step}`;
        case "step.retry":
          return `  retry ${String(d.step_id)} as attempt ${String(d.next_attempt)}`;
        case "step.failed":
          return `  failed ${step}`;
        default:
          return undefined;
      }
    }
    default:
      return undefined;
  }
}

/** Map how the engine stopped to an exit code, diagnostics and closing text. */
export function outcomeResult(outcome: EngineOutcome, progress: string[]): CommandResult {
  const text = (tail: string[]) => [...progress, ...tail].join("\n");
  switch (outcome.status) {
    case "done":
      return {
        exitCode: ExitCode.Ok,
        diagnostics: [],
        text: text([`journey ${outcome.journey_id} is done`]),
        data: outcome,
      };
    case "gate":
      return {
        exitCode: ExitCode.HumanGate,
        diagnostics: [],
        text: text(["paused: a human decision is needed", ...questionLines(outcome.questions)]),
        data: outcome,
      };
    case "await":
      return {
        exitCode: ExitCode.Ok,
        diagnostics: [],
        text: text([
          "paused: waiting for leaf results",
          ...outcome.runs.map(
            (r) =>
              `  ${r.step_id}: run ${r.role} with ${r.packet_path}${r.instruction ? ` (${r.instruction})` : ""}`,
          ),
          "then: devrites resume",
        ]),
        data: { ...outcome, pause: "await" },
      };
    case "blocked": {
      const diagnostics: Diagnostic[] = outcome.blockers.map((b) =>
        error("journey.blocked", `technical blocker on ${b.step_id} (attempt ${b.attempt}): ${b.detail}`, {
          path: `.devrites/runs/${b.run_id}/events.jsonl`,
          hint: `${b.reason}; fingerprint ${b.fingerprint}. Fix the cause; this is not a question for a human`,
        }),
      );
      return { exitCode: ExitCode.Violation, diagnostics, text: text([]), data: outcome };
    }
    case "idle":
      return { exitCode: ExitCode.Ok, diagnostics: outcome.diagnostics, data: outcome };
    case "refused":
      return { exitCode: ExitCode.Violation, diagnostics: outcome.diagnostics, data: outcome };
  }
}

export const resumeCommand: Command = {
  name: "resume",
  summary: "Continue the journey in progress from its ledger (after a gate, a crash or /clear)",
  usage: "resume [--json]",
  help: [
    "An engine journey (state.json names it): replays the run ledgers and continues at the first unfinished",
    "step; nothing already dispatched is sent again. Journeys and drivers are found by the names state.json",
    "records. A journey the host model drives: names the rite to continue in, once no question is open.",
    "",
    "Exit codes: 0 done, waiting for leaf results, or nothing to resume (resume.nothing: resuming is always",
    "safe to try) · 3 paused for a human decision · 1 a technical blocker (journey.blocked), another devrites",
    "is driving the journey (engine.locked), an unknown journey, or a corrupt state.json.",
  ].join("\n"),
  options: {},
  positionals: [0, 0],
  async run(args, io) {
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const json = flag(args, "json");
    const now = new Date().toISOString();
    const st = readState(where.root, now);
    if (st.ok && (!st.state.journey || st.state.journey.status === "done")) {
      // No engine journey: the host model drives. Open questions hold it; otherwise name the rite to go on in.
      const open = pendingQuestions(readQuestions(where.root).questions);
      if (open.length > 0)
        return {
          exitCode: ExitCode.HumanGate,
          diagnostics: [],
          text: ["a human decision is still open:", ...questionLines(open)].join("\n"),
          data: { status: "gate", questions: open },
        };
      if (st.state.active_rite) {
        const next = nextAction(st.state, []);
        return {
          exitCode: ExitCode.Ok,
          diagnostics: [],
          text: `continue in ${st.state.active_rite}${st.state.phase ? ` (phase ${st.state.phase})` : ""}: ${next.text}`,
          data: { status: "continue", rite: st.state.active_rite, phase: st.state.phase, next },
        };
      }
      return {
        exitCode: ExitCode.Ok,
        diagnostics: [
          info("resume.nothing", "nothing to resume: no journey is in progress", {
            hint: "start a rite, or run `devrites status`",
          }),
        ],
        data: { status: "idle" },
      };
    }
    const progress: string[] = [];
    const gen = resumeJourney(where.root);
    for (;;) {
      const step = await gen.next();
      if (step.done) return outcomeResult(step.value, json ? [] : progress);
      const line = describeEvent(step.value);
      if (line && !json) progress.push(line);
    }
  },
};
