/** The `question.*` diagnostics (emitted from src/run). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const questionCodes = {
  "question.already-answered": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "question … was already answered: …",
    hint: "answers are final; raise a new question to revisit the decision",
  },
  "question.answer-not-an-option": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "the answer to … is none of its options",
    hint: "nothing to do if the free answer is meant; otherwise answer with one of the options",
  },
  "question.answered-twice": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "question … is answered twice; the first answer stands",
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
    summary: "question … is raised twice; the first stands",
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
    summary: "not a question line: …",
    hint: "each line is {type: raised, qid, kind, question, options, raised_at} or {type: answered, qid, answer, answered_at}",
  },
  "question.unknown": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "no question … was raised",
    hint: "run `devrites status` to list the pending questions",
  },
  "question.unknown-qid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "answer to …, which no earlier line raised",
    hint: "an answer must follow the question's raised line",
  },
} as const satisfies Record<string, CodeEntry>;
