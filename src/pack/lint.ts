/**
 * `lintPack`: every value rule over a loaded pack model, as diagnostics (never throws). Shape problems were
 * already reported by `loadPack`; a consumer reports both lists.
 */

import { type Diagnostic, error, sortDiagnostics } from "../core/diagnostics.js";
import { ALWAYS_ON_CHAR_BUDGET, estimateTokens, INVOKE_CHAR_BUDGET, measurePack } from "./budget.js";
import { lintGraph } from "./graph.js";
import { lintDescriptions, lintNames, lintRites, lintSections } from "./lint-components.js";
import { lintRoles } from "./lint-roles.js";
import { lintCommands, lintDispatchDeclarations, lintFragments, lintReferences } from "./lint-text.js";
import type { HookEntry, HookEvent, PackModel } from "./types.js";

/** Which entry point serves which event. */
export const HOOK_ENTRY_FOR: Readonly<Record<HookEvent, HookEntry>> = {
  PreToolUse: "pre-tool-use",
  SubagentStop: "subagent-stop",
  UserPromptSubmit: "user-prompt-submit",
};

/**
 * Lint the model. `knownCommands` are the CLI's command names (`commandNames()` from `src/cli/registry.ts`),
 * passed in so the rules stay pure. Output is sorted deterministically.
 */
export function lintPack(model: PackModel, knownCommands: readonly string[]): Diagnostic[] {
  return sortDiagnostics([
    ...lintNames(model),
    ...lintDescriptions(model),
    ...lintSections(model),
    ...lintRites(model),
    ...lintRoles(model),
    ...lintGraph(model),
    ...lintCommands(model, knownCommands),
    ...lintReferences(model),
    ...lintDispatchDeclarations(model),
    ...lintFragments(model),
    ...lintHooks(model),
    ...lintBudget(model),
  ]);
}

export function lintHooks(model: PackModel): Diagnostic[] {
  if (!model.hooksPath) return []; // missing or malformed wiring was reported by the loader
  const path = model.hooksPath;
  const out: Diagnostic[] = [];
  const seen = new Set<HookEvent>();
  for (const h of model.hooks) {
    if (HOOK_ENTRY_FOR[h.event] !== h.entry) {
      out.push(
        error(
          "pack.hook-entry-mismatch",
          `${h.event} must run \`${HOOK_ENTRY_FOR[h.event]}\`, not \`${h.entry}\``,
          {
            path,
            line: h.line,
          },
        ),
      );
    }
    if (seen.has(h.event)) {
      out.push(
        error("pack.hook-duplicate", `${h.event} is wired more than once`, {
          path,
          line: h.line,
          hint: "a hook registered twice runs twice; declare each event once",
        }),
      );
    }
    seen.add(h.event);
    if (h.event === "PreToolUse" && h.matcher !== "*") {
      out.push(
        error("pack.hook-matcher-narrow", `the guard's matcher is \`${h.matcher}\`; it must be \`*\``, {
          path,
          line: h.line,
          hint: "the guard must see every tool, including write tools it does not know yet",
        }),
      );
    }
  }
  for (const [event, code, why] of [
    ["PreToolUse", "pack.hook-guard-missing", "the guard that keeps leaves in scope"],
    ["SubagentStop", "pack.hook-result-check-missing", "the hook that records and checks a leaf's result"],
  ] as const) {
    if (!seen.has(event)) {
      out.push(error(code, `no ${event} hook: ${why} is not wired`, { path, hint: `add a ${event} entry` }));
    }
  }
  return out;
}

export function lintBudget(model: PackModel): Diagnostic[] {
  const report = measurePack(model);
  const out: Diagnostic[] = [];
  if (report.alwaysOnChars > ALWAYS_ON_CHAR_BUDGET) {
    out.push(
      error(
        "pack.budget-always-on",
        `names and descriptions total ${report.alwaysOnChars} characters (~${report.alwaysOnTokensEstimate} tokens); the budget is ${ALWAYS_ON_CHAR_BUDGET}`,
        { hint: "shorten descriptions: every session pays for every one of them" },
      ),
    );
  }
  for (const c of report.components) {
    if (c.invokeChars > INVOKE_CHAR_BUDGET) {
      out.push(
        error(
          "pack.budget-invoke",
          `${c.kind} \`${c.name}\` loads ${c.invokeChars} characters (~${estimateTokens(c.invokeChars)} tokens); the budget is ${INVOKE_CHAR_BUDGET}`,
          { path: c.path, hint: "move detail into a reference file loaded only when needed" },
        ),
      );
    }
  }
  return out;
}
