/**
 * The PreToolUse hook: host input → the guard's decision → the host's answer. Fails closed: malformed input,
 * an unreadable workspace, a throw, or an answer the guard should never give, while a leaf may be calling,
 * is a deny with the rule and a reason. For the root session an internal error is reported on stderr and the
 * call goes ahead (the root is never blocked by a devrites bug).
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatDiagnostic } from "../core/diagnostics.js";
import { fnv1a64Hex } from "../core/fnv.js";
import { utcIso } from "../core/utc-iso.js";
import { isRoleName, type RoleName, roleFromAgentType } from "../envelope/roles.js";
import type { GuardContext, GuardDecision, GuardRule } from "../guard/index.js";
import { classifyTool } from "../guard/tools.js";
import type { MechanismChoice } from "../sandbox/mechanism.js";
import { resolveRepoPath } from "../scope/index.js";
import { allowAnswer, denyAnswer, type HookAnswer, rewriteAnswer } from "./answer.js";
import { findCallRoot } from "./call-root.js";
import { type LoadedPacket, loadActivePackets } from "./context.js";
import { recordGuardDecision } from "./guard-events.js";
import { type Caller, parseHookInput, stringField } from "./input.js";
import { isInstalledRole } from "./installed.js";
import type { HookEnv, HookSpec } from "./runtime.js";
import { modeOf, rewrittenInput, sandboxHere, shellCallOf } from "./sandbox-call.js";
import { planShellCall } from "./sandbox-plan-call.js";
import type { StdinRead } from "./stdin.js";
import { checkUserRules } from "./user-rules.js";

export interface PreToolUseDeps {
  /** The guard policy (production: `decide` from `src/guard`); tests inject broken ones. */
  decide(hookInput: unknown, ctx: GuardContext): GuardDecision;
  now(): Date;
  /** The sandbox mechanism on this machine (production: `sandboxHere`); tests inject one. */
  sandbox?(env: Record<string, string | undefined>, repoRoot?: string): MechanismChoice;
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
  const root = findCallRoot([stringField(value, "cwd"), env.env.CLAUDE_PROJECT_DIR, env.cwd]);
  if (root === undefined) {
    return internalError(caller, "no repository found from the hook input's cwd or the process cwd");
  }
  const now = utcIso(deps.now());
  const load = loadActivePackets(root, now);
  if (!load.ok && caller === "leaf") {
    return denyAnswer(
      "guard.internal-error",
      `the devrites workspace cannot be read, so a leaf's call cannot be checked: ${load.diagnostics.map(formatDiagnostic).join("; ")}`,
    );
  }
  const packets = load.ok ? load.packets : [];
  // Only a leaf's shell call is sandboxed; finding the mechanism is a few stats, done once per process.
  const toolName = stringField(value, "tool_name");
  const toolInput = value.tool_input;
  const shellInput =
    caller === "leaf" &&
    toolName !== undefined &&
    typeof toolInput === "object" &&
    toolInput !== null &&
    !Array.isArray(toolInput) &&
    classifyTool(toolName, toolInput as Record<string, unknown>) === "shell"
      ? (toolInput as Record<string, unknown>)
      : undefined;
  const mechanism = shellInput ? (deps.sandbox ?? sandboxHere)(env.env, root) : undefined;
  const sandboxed = mechanism !== undefined && mechanism.kind !== "none";
  const decision = deps.decide(value, {
    root,
    activePackets: packets,
    resolve: (p) => resolveRepoPath(root, p),
    hasLocalBin: (name) => hasLocalBin(root, name),
    isInstalledRole: (role) => isInstalledRole(root, role),
    sandboxed,
  });
  const workspaceReport = load.ok
    ? undefined
    : `devrites guard: the workspace could not be read (root session, not blocked): ${load.diagnostics.map(formatDiagnostic).join("; ")}`;

  if (decision?.decision === "allow") {
    const leaf = decision.caller === "leaf";
    // A foreign agent's shell call while a run is active was judged as the read-only class, with the
    // classifier relaxed when a sandbox runs: it runs in the read-only sandbox too (and stays out of the ledger).
    const foreignInRun = decision.caller === "foreign" && packets.length > 0;
    if (shellInput && foreignInRun && mechanism !== undefined && mechanism.kind !== "none") {
      return sandboxedAllow(root, packets, undefined, value, shellInput, mechanism, now, env.env);
    }
    if (leaf && shellInput && decision.role !== undefined) {
      if (mechanism === undefined || mechanism.kind === "none") {
        // classified mode: the classifier decided alone
        const problems = record(
          root,
          packets,
          decision.role,
          value,
          { decision: "allow", sandbox: null },
          now,
        );
        return allowAnswer(joinReports(workspaceReport, ...problems));
      }
      return sandboxedAllow(root, packets, decision.role, value, shellInput, mechanism, now, env.env);
    }
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

/** The rewritten command must still fit in one argument of the host's `bash -c` (Linux: 128 KiB). */
const MAX_SANDBOXED_CHARS = 120 * 1024;

/**
 * A leaf's allowed shell call, run sandboxed: plan it, answer with the rewritten input, record it. A plan the
 * planner refuses is a deny (`guard.sandbox-refused`), never an unsandboxed allow.
 */
function sandboxedAllow(
  root: string,
  packets: readonly LoadedPacket[],
  /** The leaf's role; undefined for a foreign agent during a run (read-only sandbox, no ledger). */
  role: RoleName | undefined,
  value: Record<string, unknown>,
  toolInput: Record<string, unknown>,
  mechanism: Exclude<MechanismChoice, { kind: "none" }>,
  now: string,
  hookEnv: Readonly<Record<string, string | undefined>>,
): HookAnswer {
  const hookCwd = stringField(value, "cwd");
  const call = shellCallOf(toolInput, hookCwd?.startsWith("/") ? hookCwd : root);
  const own = role === undefined ? [] : packets.filter((p) => p.role === role);
  const mode = role === undefined ? "read-only" : modeOf(role);
  const who = role ?? stringField(value, "agent_type") ?? "subagent";
  const agentId = stringField(value, "agent_id");
  const allowlist = mode === "wright" && own.length === 1 ? (own[0]?.allowed_repo_writes ?? []) : [];
  const deny = (rule: GuardRule, input: string, reason: string): HookAnswer => {
    const problems = record(root, packets, role, value, { decision: "deny", rule, input }, now);
    const answer = denyAnswer(rule, reason);
    return problems.length > 0 ? { ...answer, stderr: `${answer.stderr}${problems.join("\n")}\n` } : answer;
  };
  // The user's own Claude Code rules, on the original command: Claude matches them on the rewritten one.
  const userRules = call ? checkUserRules(call.command, root, hookEnv, who) : undefined;
  if (userRules?.kind === "deny") return deny(userRules.rule, userRules.input, userRules.reason);
  const plan = call
    ? planShellCall({
        mechanism,
        root,
        mode,
        allowlist,
        call,
        env: hookEnv,
        ...(agentId !== undefined ? { agentId } : {}),
      })
    : undefined;
  const refused = (why: string, input: string, hint: string): HookAnswer =>
    deny(
      "guard.sandbox-refused",
      input,
      `devrites guard denied this call [guard.sandbox-refused] ${who}: ${why}. ${hint}.`,
    );
  if (!call || !plan)
    return refused(
      "the shell call has no command the sandbox can run",
      "command",
      "Send the command as a string",
    );
  if (!plan.ok) return refused(plan.why, plan.path, plan.hint);
  if (plan.command.length > MAX_SANDBOXED_CHARS) {
    return refused(
      `the sandboxed command would be ${plan.command.length} characters, more than one shell argument holds`,
      "command",
      "Split it into smaller commands or put it in a script file",
    );
  }
  const problems = record(root, packets, role, value, { decision: "allow", sandbox: plan.mechanism }, now);
  return rewriteAnswer(
    "allow",
    rewrittenInput(toolInput, call, plan),
    joinReports(...plan.notes.map((n) => `devrites sandbox: ${n}`), ...problems),
  );
}

function record(
  root: string,
  packets: readonly LoadedPacket[],
  role: RoleName | undefined,
  value: Record<string, unknown>,
  outcome: { decision: "allow" | "deny"; rule?: string; input?: string; sandbox?: string | null },
  now: string,
): string[] {
  const agentType = stringField(value, "agent_type");
  return recordGuardDecision(
    root,
    packets,
    role,
    {
      tool: stringField(value, "tool_name") ?? null,
      // the receipt's key: the host's id for this call, as its transcript names it (src/result/receipts.ts)
      tool_use_id: stringField(value, "tool_use_id") ?? null,
      input_digest: inputDigest(value.tool_input),
      ...outcome,
      agent_id: stringField(value, "agent_id") ?? null,
      agent_type: agentType ?? null,
    },
    now,
  );
}

/**
 * The tool input as the guard decided it (before any rewrite), named by a digest: `fnv1a64:` and the 64-bit
 * FNV-1a of its JSON text as the host sent it, or null when there is none. It says which input a receipt
 * answered; it is not a seal (see `src/core/fnv.ts`).
 */
function inputDigest(toolInput: unknown): string | null {
  const text = toolInput === undefined ? undefined : JSON.stringify(toolInput);
  return text === undefined ? null : `fnv1a64:${fnv1a64Hex(text)}`;
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
