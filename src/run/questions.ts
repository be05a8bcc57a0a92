import { join } from "node:path";
import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { nextDailyId, QID_RE, STEP_ID_RE } from "../envelope/ids.js";
import { appendRecord } from "./records-journal.js";
import { parseJsonLines, readJsonLines, workspacePaths } from "./workspace.js";
import type {
  Question,
  QuestionAnswered,
  QuestionKind,
  QuestionLine,
  QuestionRaised,
} from "./workspace-types.js";
import { questionLineSchema } from "./workspace-zod.js";

export const QUESTION_KINDS: readonly QuestionKind[] = [
  "product",
  "scope",
  "policy",
  "irreversible",
  "human-only",
];

export function isQuestionKind(x: unknown): x is QuestionKind {
  return typeof x === "string" && (QUESTION_KINDS as readonly string[]).includes(x);
}

export interface FoldedQuestions {
  /** In the order they were raised. */
  questions: Question[];
  diagnostics: Diagnostic[];
}

/**
 * Fold the lines of `questions.jsonl` into questions (pure). Ill-typed lines, a second `raised` line for a
 * qid, an answer to an unknown qid, and a second answer are diagnostics; the first raise and the first
 * answer stand. `lineNumbers[i]` is the 1-based file line of `lines[i]`, when known.
 */
export function foldQuestions(
  lines: readonly unknown[],
  relPath: string = workspacePaths.questions,
  lineNumbers?: readonly number[],
): FoldedQuestions {
  const byQid = new Map<string, Question>();
  const diagnostics: Diagnostic[] = [];
  lines.forEach((raw, i) => {
    const line = lineNumbers?.[i];
    const at = line === undefined ? { path: relPath } : { path: relPath, line };
    const parsed = questionLineSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      diagnostics.push(
        error(
          "question.invalid",
          `not a question line: ${issue ? `${issue.path.join(".") || "(line)"}: ${issue.message}` : "invalid"}`,
          {
            ...at,
            hint: "each line is {type: raised, qid, kind, question, options, raised_at} or {type: answered, qid, answer, answered_at}",
          },
        ),
      );
      return;
    }
    const q = parsed.data;
    if (q.type === "raised") {
      if (byQid.has(q.qid)) {
        diagnostics.push(
          error("question.duplicate", `question ${q.qid} is raised twice; the first stands`, at),
        );
        return;
      }
      const { type: _type, ...fields } = q;
      byQid.set(q.qid, fields);
      return;
    }
    const known = byQid.get(q.qid);
    if (!known) {
      diagnostics.push(
        error("question.unknown-qid", `answer to ${q.qid}, which no earlier line raised`, {
          ...at,
          hint: "an answer must follow the question's raised line",
        }),
      );
      return;
    }
    if (known.answer !== undefined) {
      diagnostics.push(
        error("question.answered-twice", `question ${q.qid} is answered twice; the first answer stands`, at),
      );
      return;
    }
    known.answer = q.answer;
    known.answered_at = q.answered_at;
    if (known.options.length > 0 && !known.options.includes(q.answer)) {
      diagnostics.push(
        warning("question.answer-not-an-option", `the answer to ${q.qid} is none of its options`, at),
      );
    }
  });
  return { questions: [...byQid.values()], diagnostics };
}

/** Read and fold `.devrites/questions.jsonl` (a corrupt line is reported and skipped). */
export function readQuestions(root: string): FoldedQuestions {
  const rel = workspacePaths.questions;
  const read = readJsonLines<unknown>(join(root, rel), rel);
  const folded = foldQuestions(read.values, rel, read.lineNumbers);
  return { questions: folded.questions, diagnostics: [...read.diagnostics, ...folded.diagnostics] };
}

export function pendingQuestions(questions: readonly Question[]): Question[] {
  return questions.filter((q) => q.answer === undefined);
}

export interface RaiseInput {
  kind: QuestionKind;
  question: string;
  options?: string[];
  step_id?: string;
  journey_id?: string;
  run_id?: string;
  gate_id?: string;
}

export type QuestionOutcome = { ok: true; question: Question } | { ok: false; diagnostics: Diagnostic[] };

/** Check a raise request (pure): kind, non-empty question, step id shape, distinct non-empty options. */
export function checkRaise(input: RaiseInput): Diagnostic[] {
  const d: Diagnostic[] = [];
  if (!isQuestionKind(input.kind))
    d.push(
      error("question.bad-kind", `unknown question kind: ${String(input.kind)}`, {
        hint: `one of ${QUESTION_KINDS.join(", ")}; objective failures are technical blockers, not questions`,
      }),
    );
  if (typeof input.question !== "string" || input.question.trim() === "")
    d.push(error("question.empty", "the question is empty"));
  if (input.step_id !== undefined && !STEP_ID_RE.test(input.step_id))
    d.push(
      error("question.bad-step", `not a step id: ${input.step_id}`, {
        hint: "a step id looks like rite-build/devrites-slice-wright#2 or rite-ship/human#1",
      }),
    );
  const options = input.options ?? [];
  if (options.some((o) => o.trim() === "")) d.push(error("question.empty-option", "an option is empty"));
  if (new Set(options).size !== options.length)
    d.push(error("question.duplicate-option", "an option repeats"));
  return d;
}

/** Record a new human gate (appends one `raised` line) and return it with its fresh qid. */
export function raiseQuestion(root: string, input: RaiseInput, now: string): QuestionOutcome {
  const bad = checkRaise(input);
  if (bad.length > 0) return { ok: false, diagnostics: bad };
  const rel = workspacePaths.questions;
  return appendQuestionLine(root, (text) => {
    const read = parseJsonLines<{ qid?: unknown }>(text, rel);
    const used = read.values.map((v) => (typeof v?.qid === "string" ? v.qid : "")).filter(Boolean);
    const line: QuestionRaised = {
      type: "raised",
      qid: nextDailyId("q", used, now),
      kind: input.kind,
      question: input.question.trim(),
      options: input.options ?? [],
      raised_at: now,
    };
    if (input.step_id !== undefined) line.step_id = input.step_id;
    if (input.journey_id !== undefined) line.journey_id = input.journey_id;
    if (input.run_id !== undefined) line.run_id = input.run_id;
    if (input.gate_id !== undefined) line.gate_id = input.gate_id;
    const { type: _type, ...question } = line;
    return { line, outcome: { ok: true, question } };
  });
}

/**
 * Record the answer to an open question (appends one `answered` line). Refuses, with a diagnostic and no
 * write: a malformed qid (`question.bad-qid`), an unknown qid (`question.unknown`), an answered question
 * (`question.already-answered`), an empty answer (`question.empty-answer`).
 */
export function answerQuestion(root: string, qid: string, answer: string, now: string): QuestionOutcome {
  if (!QID_RE.test(qid))
    return {
      ok: false,
      diagnostics: [
        error("question.bad-qid", `not a question id: ${qid}`, {
          hint: "question ids look like q-20261129-001",
        }),
      ],
    };
  if (answer.trim() === "")
    return { ok: false, diagnostics: [error("question.empty-answer", "the answer is empty")] };
  const rel = workspacePaths.questions;
  return appendQuestionLine(root, (text) => {
    const read = parseJsonLines<unknown>(text, rel);
    const { questions } = foldQuestions(read.values, rel, read.lineNumbers);
    const q = questions.find((x) => x.qid === qid);
    if (!q)
      return {
        outcome: {
          ok: false,
          diagnostics: [
            error("question.unknown", `no question ${qid} was raised`, {
              path: rel,
              hint: "run `devrites status` to list the pending questions",
            }),
          ],
        },
      };
    if (q.answer !== undefined)
      return {
        outcome: {
          ok: false,
          diagnostics: [
            error("question.already-answered", `question ${qid} was already answered: ${q.answer}`, {
              path: rel,
              hint: "answers are final; raise a new question to revisit the decision",
            }),
          ],
        },
      };
    const line: QuestionAnswered = { type: "answered", qid, answer: answer.trim(), answered_at: now };
    return { line, outcome: { ok: true, question: { ...q, answer: line.answer, answered_at: now } } };
  });
}

/**
 * One append to `questions.jsonl`, decided from the file's bytes as `appendRecord` read them (so the question
 * answered is the one in the file the answer lands in). `decide` returns the line to write (none: refuse) and
 * the outcome; a file that cannot be read or written as a regular file is `workspace.unreadable`.
 */
function appendQuestionLine(
  root: string,
  decide: (text: string) => { line?: QuestionLine; outcome: QuestionOutcome },
): QuestionOutcome {
  let outcome: QuestionOutcome | undefined;
  try {
    appendRecord(root, workspacePaths.questions, (text) => {
      const d = decide(text);
      outcome = d.outcome;
      return d.line;
    });
  } catch (e) {
    return {
      ok: false,
      diagnostics: [error("workspace.unreadable", (e as Error).message, { path: workspacePaths.questions })],
    };
  }
  return outcome!;
}

export type { QuestionLine };
