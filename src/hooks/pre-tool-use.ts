/**
 * The PreToolUse hook: host input → the guard's decision → the host's answer. Fails closed: malformed input,
 * an unreadable workspace, a throw, or an answer the guard should never give, while a leaf may be calling,
 * is a deny with the rule and a reason. For the root session an internal error is reported on stderr and the
 * call goes ahead (the root is never blocked by a devrites bug).
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatDiagnostic } from "../core/diagnostics.js";
import { isRoleName, type RoleName, roleFromAgentType } from "../envelope/roles.js";
import type { GuardContext, GuardDecision } from "../guard/index.js";
import { resolveRepoPath } from "../scope/index.js";
import { allowAnswer, denyAnswer, type HookAnswer } from "./answer.js";
import { type LoadedPacket, loadActivePackets } from "./context.js";
import { recordGuardDecision } from "./guard-events.js";
import { type Caller, parseHookInput, stringField } from "./input.js";
import { isInstalledRole } from "./installed.js";
import { findRepoRoot } from "./root.js";
import type { HookEnv, HookSpec } from "./runtime.js";
import type { StdinRead } from "./stdin.js";

export interface PreToolUseDeps {
  /** The guard policy (production: `decide` from `src/guard`); tests inject broken ones. */
  decide(hookInput: unknown, ctx: GuardContext): GuardDecision;
  now(): Date;
}

const UNIDENTIFIED =
  "the caller cannot be identified, so the call is treated as a leaf's and denied; this is a host or devrites problem, not the agent's";

export function handlePreToolUse(read: StdinRead, env: HookEnv, deps: PreToolUseDeps): HookAnswer {
  const input = parseHookInput(read);
  if (!input.ok) return denyAnswer(input.rule, `${input.message}; ${UNIDENTIFIED}`);
  try {
    return decideCall(input.value, input.caller, env, deps);
  } catch (e) {
    return internalError(input.caller, `the guard failed: ${describe(e)}`);
  }
}

function decideCall(
  value: Record<string, unknown>,
  caller: Caller,
  env: HookEnv,
  deps: PreToolUseDeps,
): HookAnswer {
  const root = findRepoRoot([stringField(value, "cwd"), env.env.CLAUDE_PROJECT_DIR, env.cwd]);
  if (root === undefined) {
    return internalError(caller, "no repository found from the hook input's cwd or the process cwd");
  }
  const now = deps.now().toISOString();
  const load = loadActivePackets(root, now);
  if (!load.ok && caller === "leaf") {
    return denyAnswer(
      "guard.internal-error",
      `the devrites workspace cannot be read, so a leaf's call cannot be checked: ${load.diagnostics.map(formatDiagnostic).join("; ")}`,
    );
  }
  const packets = load.ok ? load.packets : [];
  const decision = deps.decide(value, {
    root,
    activePackets: packets,
    resolve: (p) => resolveRepoPath(root, p),
    hasLocalBin: (name) => hasLocalBin(root, name),
    isInstalledRole: (role) => isInstalledRole(root, role),
  });
  const workspaceReport = load.ok
    ? undefined
    : `devrites guard: the workspace could not be read (root session, not blocked): ${load.diagnostics.map(formatDiagnostic).join("; ")}`;

  if (decision?.decision === "allow") {
    const leaf = decision.caller === "leaf";
    const problems = leaf ? record(root, packets, decision.role, value, { decision: "allow" }, now) : [];
    return allowAnswer(joinReports(workspaceReport, ...problems));
  }
  if (
    decision?.decision === "deny" &&
    typeof decision.rule === "string" &&
    typeof decision.reason === "string"
  ) {
    const data = {
      decision: "deny" as const,
      rule: decision.rule,
      ...(typeof decision.input === "string" ? { input: decision.input } : {}),
    };
    const problems =
      caller === "leaf" ? record(root, packets, ledgerRole(decision, value, root), value, data, now) : [];
    const answer = denyAnswer(decision.rule, decision.reason);
    return problems.length > 0 ? { ...answer, stderr: `${answer.stderr}${problems.join("\n")}\n` } : answer;
  }
  return internalError(caller, `the guard gave no usable decision: ${describe(decision)}`);
}

/**
 * The run role whose ledger a leaf's deny goes into: the role the guard judged it as, else (malformed input, an
 * internal error) the role its `agent_type` names, by the same strict identification. A foreign agent's denials
 * stay out of every ledger: it is not the run's leaf.
 */
function ledgerRole(
  decision: Extract<GuardDecision, { decision: "deny" }>,
  value: Record<string, unknown>,
  root: string,
): RoleName | undefined {
  if (decision.caller === "foreign") return undefined;
  if (decision.caller === "leaf" && isRoleName(decision.role)) return decision.role;
  const agentType = stringField(value, "agent_type");
  return agentType === undefined ? undefined : roleFromAgentType(agentType, (r) => isInstalledRole(root, r));
}

function record(
  root: string,
  packets: readonly LoadedPacket[],
  role: RoleName | undefined,
  value: Record<string, unknown>,
  outcome: { decision: "allow" | "deny"; rule?: string; input?: string },
  now: string,
): string[] {
  const agentType = stringField(value, "agent_type");
  return recordGuardDecision(
    root,
    packets,
    role,
    {
      tool: stringField(value, "tool_name") ?? null,
      ...outcome,
      agent_id: stringField(value, "agent_id") ?? null,
      agent_type: agentType ?? null,
    },
    now,
  );
}

function internalError(caller: Caller, message: string): HookAnswer {
  return caller === "leaf"
    ? denyAnswer("guard.internal-error", `${message}; a leaf's call is denied when the guard cannot decide`)
    : allowAnswer(`devrites guard: internal error (root session, not blocked): ${message}`);
}

const BIN_NAME = /^[A-Za-z0-9@][A-Za-z0-9._-]*$/;

function hasLocalBin(root: string, name: string): boolean {
  return (
    typeof name === "string" && BIN_NAME.test(name) && existsSync(join(root, "node_modules", ".bin", name))
  );
}

function joinReports(...parts: (string | undefined)[]): string | undefined {
  const text = parts.filter((p): p is string => !!p).join("\n");
  return text === "" ? undefined : text;
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  try {
    const s = JSON.stringify(e);
    return s === undefined ? String(e) : s.slice(0, 200);
  } catch {
    return String(e);
  }
}

/** The hook as the entry point runs it. */
export function preToolUseHook(deps: PreToolUseDeps): HookSpec {
  return {
    name: "pre-tool-use",
    sync: true,
    handle: (read, env) => handlePreToolUse(read, env, deps),
    onDeadline: (read) => handlePreToolUse(read, { env: {}, cwd: "" }, deps),
    onCrash: (e) =>
      denyAnswer("guard.internal-error", `the guard hook crashed (${describe(e)}); ${UNIDENTIFIED}`),
  };
}
