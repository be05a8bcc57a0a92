import { locateRoot } from "../../baseline/find-repo-root.js";
import { ExitCode } from "../../core/diagnostics.js";
import { recordDecision } from "../../run/decisions.js";
import { answerQuestion } from "../../run/questions.js";
import { readState } from "../../run/workspace.js";
import type { Command } from "../command.js";

/** Refusals that are the command line's fault (exit 2) rather than the workspace's (exit 1). */
const USAGE_CODES = new Set(["question.bad-qid", "question.empty-answer"]);

export const resolveCommand: Command = {
  name: "resolve",
  summary: "Record the answer to a pending question (appends; never rewrites the ledger)",
  usage: 'resolve <qid> "<answer>" [--json]',
  help: [
    "The answer is appended to .devrites/questions.jsonl and recorded as an accepted decision in",
    ".devrites/decisions.jsonl. Answers are final: a second answer is refused.",
    "",
    "Exit codes: 0 recorded · 1 unknown question (question.unknown) or already answered",
    "(question.already-answered) · 2 malformed qid or empty answer.",
  ].join("\n"),
  options: {},
  positionals: [2, 2],
  async run(args, io) {
    const [qid = "", answer = ""] = args.positionals;
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const now = new Date().toISOString();
    const out = answerQuestion(where.root, qid, answer, now);
    if (!out.ok)
      return {
        exitCode: out.diagnostics.some((d) => USAGE_CODES.has(d.code)) ? ExitCode.Usage : ExitCode.Violation,
        diagnostics: out.diagnostics,
      };
    const q = out.question;
    const { record } = recordDecision(
      where.root,
      {
        source: "human",
        decision: q.answer ?? answer,
        rationale: q.question,
        qid: q.qid,
        ...(q.step_id ? { step_id: q.step_id } : {}),
        ...(q.journey_id ? { journey_id: q.journey_id } : {}),
      },
      now,
    );
    const st = readState(where.root, now);
    const paused = st.ok && st.state.journey && st.state.journey.status !== "done";
    return {
      exitCode: ExitCode.Ok,
      diagnostics: [],
      text: `recorded the answer to ${q.qid}: ${q.answer}${paused ? "\nnext: devrites resume" : ""}`,
      data: { question: q, decision: record },
    };
  },
};
