/**
 * `checkWorkspace(root)`: every record under `.devrites/` well formed and consistent. Read-only: a
 * defect is reported, never repaired (the ledgers are append-only; `devrites validate` calls this).
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { RUN_ID_PATTERN } from "../envelope/ids.js";
import { readDecisions } from "./decisions.js";
import { isRetired } from "./lifecycle.js";
import { readQuestions } from "./questions.js";
import { readJsonLines, WORKSPACE_DIR, workspacePaths } from "./workspace.js";
import type { RunEvent } from "./workspace-types.js";
import { knownEventData, runEventSchema, workspaceStateSchema } from "./workspace-zod.js";

function firstIssue(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join(".") || "(root)"}: ${i.message}` : "invalid";
}

function readJson(abs: string): { ok: true; value: unknown } | { ok: false; message: string } | undefined {
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { ok: false, message: (e as Error).message };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: `not valid JSON: ${(e as Error).message}` };
  }
}

/** Validate the workspace under `root`. No `.devrites/` at all is valid (nothing has happened yet). */
export function checkWorkspace(root: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!existsSync(join(root, WORKSPACE_DIR))) return out;

  // Runs on disk.
  const runIds = new Set<string>();
  let entries: { name: string; dir: boolean }[] = [];
  try {
    entries = readdirSync(join(root, workspacePaths.runs), { withFileTypes: true }).map((d) => ({
      name: d.name,
      dir: d.isDirectory(),
    }));
  } catch {
    // no runs yet
  }
  for (const e of entries) {
    const rel = `${workspacePaths.runs}/${e.name}`;
    if (!e.dir || !RUN_ID_PATTERN.test(e.name)) {
      out.push(
        warning("workspace.stray-entry", `not a run folder: ${e.name}`, {
          path: rel,
          hint: "only run-<timestamp>-<hex> folders belong under .devrites/runs/",
        }),
      );
      continue;
    }
    runIds.add(e.name);
    out.push(...validateRun(root, e.name));
  }

  // state.json
  const state = readJson(join(root, workspacePaths.state));
  if (state && !state.ok)
    out.push(error("workspace.state-invalid", state.message, { path: workspacePaths.state }));
  if (state?.ok) {
    const parsed = workspaceStateSchema.safeParse(state.value);
    if (!parsed.success)
      out.push(
        error("workspace.state-invalid", `not a devrites-state/v1 object: ${firstIssue(parsed.error)}`, {
          path: workspacePaths.state,
        }),
      );
    else {
      const seen = new Set<string>();
      for (const r of parsed.data.active_runs) {
        if (seen.has(r.run_id))
          out.push(
            error("workspace.active-run-duplicate", `${r.run_id} is listed twice`, {
              path: workspacePaths.state,
            }),
          );
        seen.add(r.run_id);
        if (!runIds.has(r.run_id))
          out.push(
            error("workspace.active-run-missing", `active run ${r.run_id} has no run folder`, {
              path: workspacePaths.state,
              hint: "the guard cannot find this run's packet",
            }),
          );
      }
    }
  }

  // questions.jsonl
  const q = readQuestions(root);
  out.push(...q.diagnostics);
  const qids = new Set(q.questions.map((x) => x.qid));

  // decisions.jsonl
  const d = readDecisions(root);
  out.push(...d.diagnostics);
  for (const rec of d.decisions) {
    if (rec.qid !== undefined && !qids.has(rec.qid))
      out.push(
        error(
          "decision.unknown-qid",
          `decision ${rec.id} cites question ${rec.qid}, which was never raised`,
          {
            path: workspacePaths.decisions,
          },
        ),
      );
    if (rec.run_id !== undefined && !runIds.has(rec.run_id))
      out.push(
        error("decision.unknown-run", `decision ${rec.id} cites run ${rec.run_id}, which does not exist`, {
          path: workspacePaths.decisions,
        }),
      );
  }
  return out;
}

function validateRun(root: string, runId: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const rel = workspacePaths.events(runId);
  const read = readJsonLines<unknown>(join(root, rel), rel);
  out.push(...read.diagnostics);
  let intent = false;
  read.values.forEach((raw, i) => {
    const at = { path: rel, line: read.lineNumbers[i] };
    const parsed = runEventSchema.safeParse(raw);
    if (!parsed.success) {
      out.push(error("event.invalid", `not a run event: ${firstIssue(parsed.error)}`, at));
      return;
    }
    const ev = parsed.data;
    if (ev.run_id !== runId)
      out.push(error("event.run-mismatch", `event of run ${ev.run_id} in the ledger of ${runId}`, at));
    if (ev.type === "step.intent") intent = true;
    const schema = knownEventData[ev.type];
    if (schema) {
      const data = schema.safeParse(ev.data);
      if (!data.success) out.push(error("event.data-invalid", `${ev.type}: ${firstIssue(data.error)}`, at));
    }
  });

  const packet = existsSync(join(root, workspacePaths.packet(runId)));
  const result = readJson(join(root, workspacePaths.result(runId)));
  if (result && !packet && !intent)
    out.push(
      error("run.unknown", `a result for run ${runId}, which has no packet and no recorded intent`, {
        path: workspacePaths.result(runId),
        hint: "a result must answer a packet written by `devrites packet new`",
      }),
    );
  if (result && !result.ok)
    out.push(error("run.result-invalid", result.message, { path: workspacePaths.result(runId) }));
  if (result?.ok) {
    const v = result.value as { run_id?: unknown } | null;
    // A result a superseded or abandoned run left is the record of that run: reported, not failed.
    const retired = isRetired(read.values as RunEvent[]);
    if (v?.run_id !== runId)
      out.push(
        (retired ? warning : error)(
          "run.result-mismatch",
          `the result names run ${String(v?.run_id)}, not ${runId}`,
          {
            path: workspacePaths.result(runId),
            hint: retired
              ? "the run was given up; its result is kept as the record"
              : "devrites run abandon <run-id> gives the run up; a fresh packet redoes the step",
          },
        ),
      );
  }
  let contents: string[] = [];
  try {
    contents = readdirSync(join(root, workspacePaths.runDir(runId)));
  } catch {
    // listed a moment ago; unreadable now is reported as empty
  }
  if (contents.length === 0)
    out.push(warning("run.empty", `run ${runId} has nothing in it`, { path: workspacePaths.runDir(runId) }));
  return out;
}
