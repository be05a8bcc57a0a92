/** The `question.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const questionCodes = {
  "question.already-answered": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "`devrites resolve` named a question that already has an answer; answers are final.",
    hint: "answers are final; raise a new question to revisit the decision",
  },
  "question.answer-not-an-option": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "A recorded answer in .devrites/questions.jsonl is none of the options its question offered.",
    hint: "nothing to do if the free answer is meant; otherwise answer with one of the options",
  },
  "question.answered-twice": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A question in .devrites/questions.jsonl has two answer lines; the first answer stands.",
    hint: "the questions file is append-only; the first answer stands — raise a new question to change it",
  },
  "question.bad-kind": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites ask --kind` names a kind of question devrites does not know.",
    hint: "use a question kind `devrites ask --help` lists; objective failures are technical blockers, not questions",
  },
  "question.bad-qid": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites resolve` was given something that is not a question id (q-<YYYYMMDD>-<n>).",
    hint: "question ids look like q-20261129-001",
  },
  "question.bad-step": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites ask --step` is not a step id (`<rite>/<role>#<n>`).",
    hint: "a step id looks like rite-build/devrites-slice-wright#2 or rite-ship/human#1",
  },
  "question.duplicate": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A question id is raised twice in .devrites/questions.jsonl; the first line stands.",
    hint: "the questions file is append-only; the first line stands — remove the repeated line",
  },
  "question.duplicate-option": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites ask` was given the same `--option` twice.",
    hint: "give each option once",
  },
  "question.empty": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites ask` was given an empty question.",
    hint: "write the question a human must answer",
  },
  "question.empty-answer": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites resolve` was given an empty answer.",
    hint: "give a non-empty answer",
  },
  "question.empty-option": {
    severity: "error",
    exit: ExitCode.Usage,
    summary: "`devrites ask` was given an empty `--option`.",
    hint: "remove the empty option or write it out",
  },
  "question.invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A line of .devrites/questions.jsonl is neither a well-formed raised line nor a well-formed answered line.",
    hint: "each line is {type: raised, qid, kind, question, options, raised_at} or {type: answered, qid, answer, answered_at}",
  },
  "question.unknown": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "`devrites resolve` named a question id that no question in this workspace has.",
    hint: "run `devrites status` to list the pending questions",
  },
  "question.unknown-qid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "An answer line in .devrites/questions.jsonl answers a question id that no earlier line raised.",
    hint: "an answer must follow the question's raised line",
  },
} as const satisfies Record<string, CodeEntry>;
