/**
 * The SubagentStop hook: when a devrites leaf ends, store the agent-result/v1 from its final message (the
 * same function as `devrites result record`) and judge it (the same check as `devrites result check`), in
 * process. On a rejection it blocks the stop once, quoting the diagnostics so the leaf can fix its result;
 * when the host says the stop hook already blocked (`stop_hook_active`), it records the outcome and lets the
 * leaf end. Non-devrites agents and the root session: no-op.
 *
 * This hook is a convenience, not the enforcement boundary: on any internal error it steps aside (exit 0,
 * a note on stderr) and the root runs `devrites result check` itself.
 */

import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { utcIso } from "../core/utc-iso.js";
import { parseRoleAgentType, type RoleName, roleFromAgentType } from "../envelope/roles.js";
import { extractResultJson } from "../judge/extract.js";
import { runResultCheck } from "../result/check.js";
import { recordResult } from "../result/record.js";
import { appendEvent, readState, workspacePaths } from "../run/workspace.js";
import type { ActiveRun } from "../run/workspace-types.js";
import { allowAnswer, blockStopAnswer, type HookAnswer, SILENT } from "./answer.js";
import { findCallRoot } from "./call-root.js";
import { parseHookInput, stringField } from "./input.js";
import { isInstalledRole } from "./installed.js";
import { SUBAGENT_STOP_DEADLINE_MS } from "./limits.js";
import type { HookEnv, HookSpec } from "./runtime.js";
import type { StdinRead } from "./stdin.js";

/** What the hook needs of a record outcome (`ResultRecordOutcome`). */
export interface RecordOutcomeLike {
  exitCode: number;
  diagnostics: Diagnostic[];
}

/** What the hook needs of a check outcome (`ResultCheckOutcome`). */
export interface CheckOutcomeLike {
  exitCode: number;
  diagnostics: Diagnostic[];
  data?: { verdict: "accepted" | "rejected" | "gate" } | undefined;
}

export type ExtractedLike =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; diagnostics: Diagnostic[] };

/** The library functions behind the CLI commands; production wiring: {@link cliFunctions}. */
export interface SubagentStopDeps {
  /** Pull the result object out of the final message (`extractResultJson`). */
  extract(text: string): ExtractedLike;
  /** Store the result at the run's result path (`recordResult`, behind `devrites result record`). */
  record(opts: { root: string; runId: string; text: string; source: string; now: Date }): RecordOutcomeLike;
  /** Judge the stored result (`runResultCheck`, behind `devrites result check`). */
  check(opts: { cwd: string; result: string; now: Date }): Promise<CheckOutcomeLike>;
  /** Whether devrites installed the project agent `role` at `root` (`isInstalledRole`, ./installed.ts). */
  isInstalledRole(root: string, role: RoleName): boolean;
  now(): Date;
}

/** The same functions `devrites result record` and `devrites result check` run, in process. */
export const cliFunctions: SubagentStopDeps = {
  extract: (text) => extractResultJson(text),
  record: recordResult,
  check: runResultCheck,
  isInstalledRole,
  now: () => new Date(),
};

/** What happened at one stop, as recorded in the run's ledger (`hook.subagent-stop`). */
export type StopOutcome = "accepted" | "gate" | "rejected" | "unrecorded" | "error";

/** How many diagnostics a block quotes; the rest are counted. */
const MAX_QUOTED = 20;

export async function handleSubagentStop(
  read: StdinRead,
  env: HookEnv,
  deps: SubagentStopDeps,
): Promise<HookAnswer> {
  const input = parseHookInput(read);
  if (!input.ok)
    return allowAnswer(`devrites subagent-stop: ignored an unreadable hook input (${input.message})`);
  const v = input.value;
  const agentType = stringField(v, "agent_type");
  if (agentType === undefined || parseRoleAgentType(agentType) === undefined) return SILENT; // root, or foreign

  const root = findCallRoot([stringField(v, "cwd"), env.env.CLAUDE_PROJECT_DIR, env.cwd]);
  if (root === undefined)
    return allowAnswer("devrites subagent-stop: no repository found from the hook's cwd");
  // An agent merely named like a role (a bare name devrites did not install here) is foreign: nothing to record.
  const role = roleFromAgentType(agentType, (r) => deps.isInstalledRole(root, r));
  if (role === undefined) return SILENT;
  const now = deps.now();
  const state = readState(root, utcIso(now));
  if (!state.ok) {
    return allowAnswer(
      `devrites subagent-stop: the workspace cannot be read; the root must record and check the result: ${state.diagnostics.map((d) => d.message).join("; ")}`,
    );
  }
  const again = v.stop_hook_active === true;
  const text = typeof v.last_assistant_message === "string" ? v.last_assistant_message : "";
  const extracted = text === "" ? undefined : deps.extract(text);
  const claimed =
    extracted?.ok && typeof extracted.value.run_id === "string" ? extracted.value.run_id : undefined;
  const found = selectRun(role, claimed, state.state.active_runs);
  const base = {
    agent_id: stringField(v, "agent_id") ?? null,
    agent_type: agentType ?? null,
    stop_hook_active: again,
  };

  if (!found.ok) {
    if (!found.fixable) return allowAnswer(`devrites subagent-stop: ${found.message}`);
    return again ? allowAnswer(`devrites subagent-stop: ${found.message}`) : blockStopAnswer(found.message);
  }
  const run = found.run;
  const log = (outcome: StopOutcome, blocked: boolean, codes: string[]) => {
    try {
      appendEvent(root, {
        ts: utcIso(now),
        run_id: run.run_id,
        type: "hook.subagent-stop",
        data: { ...base, outcome, blocked, codes },
      });
      return undefined;
    } catch (e) {
      return `devrites subagent-stop: could not record the outcome for ${run.run_id}: ${(e as Error)?.message ?? e}`;
    }
  };

  // where the host keeps the leaf's own transcript: result check matches its tool calls to the guard's receipts
  const transcript = stringField(v, "agent_transcript_path");
  if (transcript !== undefined) {
    try {
      appendEvent(root, {
        ts: utcIso(now),
        run_id: run.run_id,
        type: "hook.transcript",
        data: { agent_id: base.agent_id, path: transcript },
      });
    } catch {
      // without it the receipts cannot be verified: the run's guard strength says `unverified`
    }
  }
  const stored = deps.record({ root, runId: run.run_id, text, source: "subagent-stop", now });
  if (stored.exitCode !== 0) {
    const codes = codesOf(stored.diagnostics);
    // a result that cannot be stored because of the message itself (no JSON, broken JSON) is the leaf's to fix
    const fixable = codes.some(
      (c) => c.startsWith("record.") && c !== "record.result-exists" && c !== "record.run-not-active",
    );
    const block = fixable && !again;
    const note = log("unrecorded", block, codes);
    const why = `devrites could not store the result for ${run.run_id}`;
    if (block) return blockStopAnswer(blockReason(why, run.run_id, stored.diagnostics), note);
    return allowAnswer(joinLines(`devrites subagent-stop: ${why}: ${compact(stored.diagnostics)}`, note));
  }

  const checked = await deps.check({ cwd: root, result: join(root, workspacePaths.result(run.run_id)), now });
  const verdict = checked.data?.verdict;
  const codes = codesOf(checked.diagnostics);
  if (verdict === "accepted" || verdict === "gate") return allowAnswer(log(verdict, false, codes));
  if (verdict !== "rejected") {
    const note = log("error", false, codes);
    return allowAnswer(
      joinLines(`devrites subagent-stop: the check did not finish: ${compact(checked.diagnostics)}`, note),
    );
  }
  const note = log("rejected", !again, codes);
  if (again) {
    return allowAnswer(
      joinLines(
        `devrites subagent-stop: ${run.run_id} still rejected after one retry; the root decides`,
        note,
      ),
    );
  }
  return blockStopAnswer(
    blockReason("your agent-result/v1 was rejected", run.run_id, checked.diagnostics),
    note,
  );
}

type RunChoice = { ok: true; run: ActiveRun } | { ok: false; fixable: boolean; message: string };

/**
 * The run a stopping leaf answers: the one its result names (which must be an active run of its own role), else
 * the single active run of its role. No active run of the role: nothing to record (not the leaf's to fix).
 */
export function selectRun(
  role: string,
  claimed: string | undefined,
  active: readonly ActiveRun[],
): RunChoice {
  const mine = active.filter((r) => r?.role === role);
  if (claimed !== undefined) {
    const named = active.find((r) => r?.run_id === claimed);
    if (named && named.role === role) return { ok: true, run: named };
    if (mine.length === 0)
      return { ok: false, fixable: false, message: `no active run of ${role}; nothing to record` };
    const what = named ? `belongs to ${named.role}, not ${role}` : "is not an active run";
    return {
      ok: false,
      fixable: true,
      message: `devrites: your result names run_id ${JSON.stringify(claimed)}, which ${what}. Use the run_id of your packet (${mine.map((r) => r.run_id).join(" or ")}) and end again with the corrected agent-result/v1 JSON as your final message.`,
    };
  }
  if (mine.length === 1) return { ok: true, run: mine[0]! };
  if (mine.length === 0)
    return { ok: false, fixable: false, message: `no active run of ${role}; nothing to record` };
  return {
    ok: false,
    fixable: true,
    message: `devrites: ${mine.length} runs of ${role} are active (${mine.map((r) => r.run_id).join(", ")}) and your final message names none. End again with your agent-result/v1 JSON, including the run_id from your packet, as your final message.`,
  };
}

/** The block message: what was wrong, one line per diagnostic, and what to do. */
export function blockReason(what: string, runId: string, diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const shown = (errors.length > 0 ? errors : diagnostics).slice(0, MAX_QUOTED);
  const more = (errors.length > 0 ? errors : diagnostics).length - shown.length;
  return [
    `devrites: ${what} (run ${runId}). Fix every point below, then end again with the corrected agent-result/v1 JSON as your whole final message (one JSON object, or one \`\`\`json block):`,
    ...shown.map(
      (d) =>
        `- ${d.code}${d.path ? ` ${d.path}${d.line ? `:${d.line}` : ""}` : ""}: ${d.message}${d.hint ? ` (fix: ${d.hint})` : ""}`,
    ),
    ...(more > 0 ? [`- … and ${more} more`] : []),
    "If a point cannot be fixed from inside your scope, say so in the result (status and escalation) instead of stopping silently.",
  ].join("\n");
}

function codesOf(diagnostics: readonly Diagnostic[]): string[] {
  return [...new Set(diagnostics.map((d) => d.code))].sort();
}

function compact(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${d.code}${d.path ? ` ${d.path}` : ""}: ${d.message}`).join("; ");
}

function joinLines(...parts: (string | undefined)[]): string | undefined {
  const t = parts.filter((p): p is string => !!p).join("\n");
  return t === "" ? undefined : t;
}

export function subagentStopHook(deps: SubagentStopDeps): HookSpec {
  return {
    name: "subagent-stop",
    deadlineMs: SUBAGENT_STOP_DEADLINE_MS,
    handle: (read, env) => handleSubagentStop(read, env, deps),
    onDeadline: () =>
      allowAnswer("devrites subagent-stop: out of time; the root must run `devrites result check` itself"),
    onCrash: (e) =>
      allowAnswer(
        `devrites subagent-stop: internal error (${(e as Error)?.message ?? String(e)}); the root must run \`devrites result check\` itself`,
      ),
  };
}
