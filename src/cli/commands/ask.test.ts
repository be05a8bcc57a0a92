import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readDecisions } from "../../run/decisions.js";
import { readQuestions } from "../../run/questions.js";
import { workspacePaths } from "../../run/workspace.js";
import { runCapture } from "../test-io.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-ask-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("devrites ask / resolve", () => {
  it("records a gate, prints its qid and exits 3; resolve records the answer and a decision", async () => {
    const a = await runCapture(
      [
        "ask",
        "--kind",
        "policy",
        "Add the left-pad dependency?",
        "--option",
        "yes",
        "--option",
        "no",
        "--step",
        "rite-build/human#1",
      ],
      root,
    );
    expect(a.code).toBe(3);
    const qid = a.stdout.split("\n")[0] ?? "";
    expect(qid).toMatch(/^q-\d{8}-001$/);
    expect(a.stdout).toContain(`devrites resolve ${qid}`);
    expect(readQuestions(root).questions[0]).toMatchObject({
      qid,
      kind: "policy",
      options: ["yes", "no"],
      step_id: "rite-build/human#1",
    });

    const r = await runCapture(["resolve", qid, "no", "--json"], root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.question).toMatchObject({ qid, answer: "no" });
    expect(readDecisions(root).decisions).toMatchObject([{ source: "human", decision: "no", qid }]);
  });

  it("refuses a second answer (exit 1) and leaves the ledger as it was", async () => {
    const qid =
      (await runCapture(["ask", "--kind", "scope", "Include b?"], root)).stdout.split("\n")[0] ?? "";
    expect((await runCapture(["resolve", qid, "yes"], root)).code).toBe(0);
    const before = readFileSync(join(root, workspacePaths.questions), "utf8");
    const again = await runCapture(["resolve", qid, "no", "--json"], root);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).diagnostics[0].code).toBe("question.already-answered");
    expect(readFileSync(join(root, workspacePaths.questions), "utf8")).toBe(before);
    expect(readDecisions(root).decisions).toHaveLength(1);
  });

  it("answers to unknown or malformed qids and empty answers are refused with clear codes", async () => {
    const code = async (argv: string[]) => {
      const r = await runCapture([...argv, "--json"], root);
      return [r.code, JSON.parse(r.stdout).diagnostics[0]?.code];
    };
    expect(await code(["resolve", "q-20261129-001", "yes"])).toEqual([1, "question.unknown"]);
    expect(await code(["resolve", "q-1", "yes"])).toEqual([2, "question.bad-qid"]);
    await runCapture(["ask", "--kind", "scope", "x?"], root);
    const qid = readQuestions(root).questions[0]?.qid ?? "";
    expect(await code(["resolve", qid, "  "])).toEqual([2, "question.empty-answer"]);
  });

  it("rejects a missing or unknown kind, an empty question and a bad step id (exit 2), writing nothing", async () => {
    const code = async (argv: string[]) => {
      const r = await runCapture([...argv, "--json"], root);
      return [r.code, JSON.parse(r.stdout).diagnostics[0]?.code];
    };
    expect(await code(["ask", "Which?"])).toEqual([2, "cli.usage"]);
    expect(await code(["ask", "--kind", "technical", "Which?"])).toEqual([2, "question.bad-kind"]);
    expect(await code(["ask", "--kind", "product", " "])).toEqual([2, "question.empty"]);
    expect(await code(["ask", "--kind", "product", "Which?", "--step", "build#1"])).toEqual([
      2,
      "question.bad-step",
    ]);
    expect(readQuestions(root).questions).toEqual([]);
  });
});
