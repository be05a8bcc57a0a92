import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { error } from "../core/diagnostics.js";
import { nextDailyId } from "../envelope/ids.js";
import { appendRecordLine } from "./records-journal.js";
import { readJsonLines, workspacePaths } from "./workspace.js";
import type { DecisionRecord } from "./workspace-types.js";
import { decisionRecordSchema } from "./workspace-zod.js";

export interface DecisionsRead {
  decisions: DecisionRecord[];
  diagnostics: Diagnostic[];
}

/** Read `.devrites/decisions.jsonl`: corrupt and ill-typed lines are reported and skipped. */
export function readDecisions(root: string): DecisionsRead {
  const rel = workspacePaths.decisions;
  const read = readJsonLines<unknown>(join(root, rel), rel);
  const decisions: DecisionRecord[] = [];
  const diagnostics = [...read.diagnostics];
  read.values.forEach((raw, i) => {
    const parsed = decisionRecordSchema.safeParse(raw);
    if (parsed.success) decisions.push(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      diagnostics.push(
        error(
          "decision.invalid",
          `not a decision record: ${issue ? `${issue.path.join(".") || "(line)"}: ${issue.message}` : "invalid"}`,
          { path: rel, line: read.lineNumbers[i] },
        ),
      );
    }
  });
  return { decisions, diagnostics };
}

export type DecisionInput = Omit<DecisionRecord, "id" | "decided_at">;

/**
 * Append an accepted decision unless an equal one (same source, question or run, and text) is already
 * recorded, so a replay after a crash never records it twice. Returns the record that stands.
 */
export function recordDecision(
  root: string,
  input: DecisionInput,
  now: string,
): { record: DecisionRecord; created: boolean } {
  const { decisions } = readDecisions(root);
  const same = decisions.find(
    (d) =>
      d.source === input.source &&
      d.qid === input.qid &&
      d.run_id === input.run_id &&
      d.step_id === input.step_id &&
      d.decision === input.decision,
  );
  if (same) return { record: same, created: false };
  const rel = workspacePaths.decisions;
  const used = readJsonLines<{ id?: unknown }>(join(root, rel), rel).values.map((v) =>
    typeof v?.id === "string" ? v.id : "",
  );
  const record: DecisionRecord = { id: nextDailyId("d", used, now), decided_at: now, ...input };
  appendRecordLine(root, rel, record);
  return { record, created: true };
}
