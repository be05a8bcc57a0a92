import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextDailyId } from "../envelope/ids.js";
import { readDecisions, recordDecision } from "./decisions.js";
import {
  answerQuestion,
  checkRaise,
  foldQuestions,
  pendingQuestions,
  raiseQuestion,
  readQuestions,
} from "./questions.js";
import { workspacePaths } from "./workspace.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-q-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const T1 = "2026-11-29T22:15:00.000Z";
const T2 = "2026-11-30T08:00:00.000Z";

describe("nextDailyId", () => {
  it("counts per day and ignores other days and malformed ids", () => {
    expect(nextDailyId("q", [], T1)).toBe("q-20261129-001");
    expect(nextDailyId("q", ["q-20261129-001", "q-20261129-007", "q-20261128-050", "q-20261129-x"], T1)).toBe(
      "q-20261129-008",
    );
    expect(nextDailyId("q", ["q-20261129-999"], T1)).toBe("q-20261129-1000");
    expect(nextDailyId("d", ["q-20261129-004"], T1)).toBe("d-20261129-001");
  });
});

describe("raise and answer", () => {
  it("appends a raised line, then an answered line; the file only grows", () => {
    const raised = raiseQuestion(
      root,
      { kind: "policy", question: "Add a dependency?", options: ["yes", "no"] },
      T1,
    );
    expect(raised).toMatchObject({
      ok: true,
      question: { qid: "q-20261129-001", kind: "policy", raised_at: T1 },
    });
    const before = readFileSync(join(root, workspacePaths.questions), "utf8");
    const answered = answerQuestion(root, "q-20261129-001", "no", T2);
    expect(answered).toMatchObject({ ok: true, question: { answer: "no", answered_at: T2 } });
    const after = readFileSync(join(root, workspacePaths.questions), "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(
      after
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).type),
    ).toEqual(["raised", "answered"]);
    expect(pendingQuestions(readQuestions(root).questions)).toEqual([]);
  });

  it("numbers a second question of the same day", () => {
    raiseQuestion(root, { kind: "scope", question: "a?" }, T1);
    expect(raiseQuestion(root, { kind: "scope", question: "b?" }, T1)).toMatchObject({
      question: { qid: "q-20261129-002" },
    });
  });

  it("refuses an unknown qid, a malformed qid, an empty answer and a second answer, writing nothing", () => {
    raiseQuestion(root, { kind: "product", question: "Which?" }, T1);
    answerQuestion(root, "q-20261129-001", "this", T2);
    const before = readFileSync(join(root, workspacePaths.questions), "utf8");
    const code = (o: ReturnType<typeof answerQuestion>) => (o.ok ? "ok" : o.diagnostics[0]?.code);
    expect(code(answerQuestion(root, "q-20261129-002", "x", T2))).toBe("question.unknown");
    expect(code(answerQuestion(root, "q-2026-11-29-001", "x", T2))).toBe("question.bad-qid");
    expect(code(answerQuestion(root, "q-20261129-001", "  ", T2))).toBe("question.empty-answer");
    expect(code(answerQuestion(root, "q-20261129-001", "that", T2))).toBe("question.already-answered");
    expect(readFileSync(join(root, workspacePaths.questions), "utf8")).toBe(before);
  });

  it("checks a raise request: kind, question, step id, options", () => {
    expect(checkRaise({ kind: "product", question: "ok?", step_id: "rite-ship/human#1" })).toEqual([]);
    const codes = checkRaise({
      kind: "technical" as never,
      question: " ",
      step_id: "build#1",
      options: ["a", "a", ""],
    }).map((d) => d.code);
    expect(codes).toEqual([
      "question.bad-kind",
      "question.empty",
      "question.bad-step",
      "question.empty-option",
      "question.duplicate-option",
    ]);
  });

  it("skips a corrupt line when reading, and still answers", () => {
    raiseQuestion(root, { kind: "product", question: "Which?" }, T1);
    appendFileSync(join(root, workspacePaths.questions), "garbage\n");
    const r = readQuestions(root);
    expect(r.questions).toHaveLength(1);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([["ledger.corrupt-line", 2]]);
    expect(answerQuestion(root, "q-20261129-001", "x", T2).ok).toBe(true);
  });
});

describe("foldQuestions", () => {
  const raised = {
    type: "raised",
    qid: "q-20261129-001",
    kind: "scope",
    question: "q?",
    options: ["a"],
    raised_at: T1,
  };
  it("reports an answer before its question, a duplicate raise, a second answer and an ill-typed line", () => {
    const answer = { type: "answered", qid: "q-20261129-001", answer: "a", answered_at: T2 };
    const f = foldQuestions([
      answer,
      raised,
      raised,
      answer,
      { ...answer, answer: "b" },
      { type: "raised", qid: 1 },
    ]);
    expect(f.diagnostics.map((d) => d.code)).toEqual([
      "question.unknown-qid",
      "question.duplicate",
      "question.answered-twice",
      "question.invalid",
    ]);
    const { type: _type, ...fields } = raised;
    expect(f.questions).toEqual([{ ...fields, answer: "a", answered_at: T2 }]);
  });
  it("warns when the answer is none of the options", () => {
    const f = foldQuestions([raised, { type: "answered", qid: raised.qid, answer: "z", answered_at: T2 }]);
    expect(f.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["question.answer-not-an-option", "warning"],
    ]);
  });
});

describe("recordDecision", () => {
  it("records once per source and text, and numbers per day", () => {
    const a = recordDecision(
      root,
      { source: "human", decision: "yes", rationale: "q?", qid: "q-20261129-001" },
      T1,
    );
    const b = recordDecision(
      root,
      { source: "human", decision: "yes", rationale: "q?", qid: "q-20261129-001" },
      T2,
    );
    expect(a.created).toBe(true);
    expect(b).toEqual({ record: a.record, created: false });
    const c = recordDecision(root, { source: "leaf", decision: "use x", rationale: "r" }, T1);
    expect(c.record.id).toBe("d-20261129-002");
    expect(readDecisions(root).decisions).toHaveLength(2);
  });
});
