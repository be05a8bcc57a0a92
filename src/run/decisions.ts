import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { error } from "../core/diagnostics.js";
import { nextDailyId } from "../envelope/ids.js";
import { appendRecord } from "./records-journal.js";
import { parseJsonLines, readJsonLines, workspacePaths } from "./workspace.js";
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
  const out = decisionsOf(read.values, read.lineNumbers, rel);
  return { decisions: out.decisions, diagnostics: [...read.diagnostics, ...out.diagnostics] };
}

/** The decision records among parsed lines; ill-typed ones become diagnostics. Pure. */
function decisionsOf(values: readonly unknown[], lineNumbers: readonly number[], rel: string): DecisionsRead {
  const decisions: DecisionRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  values.forEach((raw, i) => {
    const parsed = decisionRecordSchema.safeParse(raw);
    if (parsed.success) decisions.push(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      diagnostics.push(
        error(
          "decision.invalid",
          `not a decision record: ${issue ? `${issue.path.join(".") || "(line)"}: ${issue.message}` : "invalid"}`,
          { path: rel, line: lineNumbers[i] },
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
  const rel = workspacePaths.decisions;
  let same: DecisionRecord | undefined;
  // decided from the file's bytes as the append reads them (`appendRecord`): the dedupe and the next id
  // come from the file the record lands in
  const record = appendRecord(root, rel, (text) => {
    const read = parseJsonLines<unknown>(text, rel);
    same = decisionsOf(read.values, read.lineNumbers, rel).decisions.find(
      (d) =>
        d.source === input.source &&
        d.qid === input.qid &&
        d.run_id === input.run_id &&
        d.step_id === input.step_id &&
        d.decision === input.decision,
    );
    if (same) return undefined;
    const used = read.values.map((v) =>
      typeof (v as { id?: unknown } | null)?.id === "string" ? (v as { id: string }).id : "",
    );
    return { id: nextDailyId("d", used, now), decided_at: now, ...input } satisfies DecisionRecord;
  });
  if (same) return { record: same, created: false };
  return { record: record!, created: true };
}
