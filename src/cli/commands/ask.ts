import { locateRoot } from "../../baseline/find-repo-root.js";
import { ExitCode, error } from "../../core/diagnostics.js";
import { checkRaise, isQuestionKind, QUESTION_KINDS, raiseQuestion } from "../../run/questions.js";
import type { QuestionKind } from "../../run/workspace-types.js";
import { type Command, str, strs } from "../command.js";

export const askCommand: Command = {
  name: "ask",
  summary: "Record a human gate (a question only a human may answer); prints its qid and exits 3",
  usage: 'ask --kind KIND "<question>" [--option O]… [--step STEP_ID] [--json]',
  help: [
    "Options:",
    `  --kind KIND      why a human must decide: ${QUESTION_KINDS.join(" | ")}`,
    "  --option O       a suggested answer (repeat for several)",
    "  --step STEP_ID   the step that waits, e.g. rite-ship/human#1",
    "",
    "Objective failures (a failing test, a malformed result) are not questions: the engine retries them and",
    'ends in a technical blocker. Answer with `devrites resolve <qid> "<answer>"`.',
    "",
    "Exit codes: 3 recorded (a pause for the human) · 2 bad kind, empty question or bad step id.",
  ].join("\n"),
  options: { kind: { type: "string" }, option: { type: "string", multiple: true }, step: { type: "string" } },
  positionals: [1, 1],
  async run(args, io) {
    const kind = str(args, "kind");
    if (kind === undefined)
      return {
        exitCode: ExitCode.Usage,
        diagnostics: [
          error("cli.usage", "--kind is required", { hint: `one of ${QUESTION_KINDS.join(", ")}` }),
        ],
      };
    const step = str(args, "step");
    const input = {
      kind: kind as QuestionKind,
      question: args.positionals[0] ?? "",
      options: strs(args, "option"),
      ...(step !== undefined ? { step_id: step } : {}),
    };
    const bad = checkRaise(input);
    if (bad.length > 0 || !isQuestionKind(kind)) return { exitCode: ExitCode.Usage, diagnostics: bad };
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const raised = raiseQuestion(where.root, input, new Date().toISOString());
    if (!raised.ok) return { exitCode: ExitCode.Violation, diagnostics: raised.diagnostics };
    const q = raised.question;
    return {
      exitCode: ExitCode.HumanGate,
      diagnostics: [],
      text: [
        q.qid,
        `[${q.kind}] ${q.question}${q.options.length ? ` (options: ${q.options.join(" | ")})` : ""}`,
        `answer with: .devrites/bin/devrites resolve ${q.qid} "<answer>"`,
      ].join("\n"),
      data: { question: q },
    };
  },
};
