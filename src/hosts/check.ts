/**
 * Drift: what `generate --check` reports. A planned file that is absent is missing; one that differs is stale
 * (`generate.hand-edited` when its bytes no longer match its manifest, i.e. someone edited it); a file a
 * manifest lists that the plan no longer produces is orphaned. Changed files come with a unified diff, on
 * disk → planned.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import { unifiedDiff } from "./diff.js";
import { type Action, readTarget, reconcile } from "./reconcile.js";
import type { Plan } from "./types.js";

export interface Drift {
  path: string;
  state: "missing" | "stale" | "hand-edited" | "orphaned" | "blocked";
  /** On disk → what generate would write (empty for missing and orphaned files). */
  diff?: string;
}

export interface DriftReport {
  drift: Drift[];
  diagnostics: Diagnostic[];
  /** Number of planned files that match. */
  clean: number;
}

/** Drift from a reconciliation (pure). */
export function driftOf(actions: readonly Action[]): DriftReport {
  const drift: Drift[] = [];
  const diagnostics: Diagnostic[] = [];
  let clean = 0;
  for (const a of actions) {
    switch (a.op) {
      case "unchanged":
        clean++;
        break;
      case "create":
        drift.push({ path: a.path, state: "missing" });
        diagnostics.push(
          error("generate.missing", "a generated file is missing", {
            path: a.path,
            hint: "run devrites generate",
          }),
        );
        break;
      case "update": {
        const state = a.handEdited ? "hand-edited" : "stale";
        const diff = unifiedDiff(a.current, a.content, `${a.path} (on disk)`, `${a.path} (generated)`);
        drift.push({ path: a.path, state, diff });
        diagnostics.push(
          error(
            a.handEdited ? "generate.hand-edited" : "generate.stale",
            a.handEdited
              ? "a generated file was edited by hand"
              : a.unmanaged
                ? "a file devrites generates holds other content"
                : "a generated file is out of date",
            {
              path: a.path,
              hint: a.handEdited
                ? "edit the pack (pack/.claude) instead and run devrites generate; the diff shows the edit"
                : "run devrites generate",
            },
          ),
        );
        break;
      }
      case "delete":
      case "keep-orphan":
        drift.push({ path: a.path, state: "orphaned" });
        diagnostics.push(
          error("generate.orphaned", "a previously generated file is no longer produced", {
            path: a.path,
            hint:
              a.op === "delete"
                ? "run devrites generate to remove it"
                : "it was edited since; devrites generate keeps it and stops tracking it",
          }),
        );
        break;
      case "blocked":
        drift.push({ path: a.path, state: "blocked" });
        diagnostics.push(a.diagnostic);
        break;
    }
  }
  return { drift, diagnostics, clean };
}

/** Compare `plan` with `target` without writing anything. */
export async function checkPlan(target: string, plan: Plan): Promise<DriftReport> {
  const state = await readTarget(target, plan);
  const report = driftOf(reconcile(plan, state));
  return { ...report, diagnostics: [...state.diagnostics, ...report.diagnostics] };
}
