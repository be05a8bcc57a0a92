/**
 * Journey layout (pure): each step of a journey with its derived step ids, and the journey's shape checked.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import { isRoleName, ROLES } from "../envelope/roles.js";
import type { DispatchStep, GateStep, Journey } from "./engine-types.js";
import type { StepId } from "./workspace-types.js";

/** A journey step with its derived step ids. */
export type LaidStep =
  | { kind: "dispatch"; index: number; step: DispatchStep; stepIds: StepId[] }
  | { kind: "gate"; index: number; step: GateStep; stepId: StepId };

const RITE_RE = /^rite(-[a-z0-9]+)*$/;

/**
 * Derive the step ids (pure): the n-th packet of a role in a rite is `<rite>/<role>#<n>`; the n-th gate of a
 * rite is `<rite>/human#<n>`. Also checks the journey's shape.
 */
export function layoutJourney(journey: Journey): { steps: LaidStep[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const counters = new Map<string, number>();
  const next = (rite: string, actor: string): StepId => {
    const key = `${rite}/${actor}`;
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return `${key}#${n}`;
  };
  const steps: LaidStep[] = [];
  journey.steps.forEach((step, index) => {
    const where = `steps[${index}]`;
    if (!RITE_RE.test(step.rite))
      diagnostics.push(error("journey.bad-rite", `${where}: not a rite name: ${step.rite}`));
    if (step.kind === "gate") {
      if (!step.gate.question.trim())
        diagnostics.push(error("journey.empty-question", `${where}: the gate has no question`));
      steps.push({ kind: "gate", index, step, stepId: next(step.rite, "human") });
      return;
    }
    if (step.packets.length === 0)
      diagnostics.push(error("journey.empty-dispatch", `${where}: a dispatch step needs packets`));
    const stepIds = step.packets.map((p, i) => {
      if (!isRoleName(p.role))
        diagnostics.push(error("journey.bad-role", `${where}.packets[${i}]: unknown role ${String(p.role)}`));
      if (ROLES[p.role]?.mode !== "writer" && (p.scope?.allowed_repo_writes.length ?? 0) > 0)
        diagnostics.push(
          error("journey.reader-writes", `${where}.packets[${i}]: a read-only role cannot have writes`),
        );
      return next(step.rite, p.role);
    });
    steps.push({ kind: "dispatch", index, step, stepIds });
  });
  return { steps, diagnostics };
}
