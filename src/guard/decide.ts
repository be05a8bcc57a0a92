/**
 * The guard policy: one PreToolUse call (Claude or Codex shape) + the workspace's active packets → allow, or deny
 * with a stable rule code and a reason the model can act on. Pure apart from `ctx.resolve`; never throws.
 *
 * Order of checks for a subagent:
 *  1. the input is well-formed (guard.malformed-input) and not oversized (guard.input-too-large);
 *  2. the agent type is a devrites role that devrites installed; otherwise it is a foreign agent: allowed untouched
 *     while no run is active, else judged as the read-only class by the tool rules below, its writes and spawns
 *     denied as guard.foreign-write-during-run;
 *  3. the role has an active packet (guard.no-active-packet), exactly one for the wright (guard.ambiguous-packet);
 *  4. the tool: spawning (guard.spawn), reading (allow), file writes and patches (read-only: guard.readonly-write;
 *     wright: allowlist), shell (classified, then judged by ./policy.ts), anything else (guard.unknown-tool).
 */

import { ROLES, type RoleName, roleFromAgentType } from "../envelope/roles.js";
import { type Call, normalizeCall } from "./input.js";
import { patchPaths } from "./patch.js";
import { judgeEffects, type Refusal } from "./policy.js";
import { classifyArgvCommand, classifyShell } from "./shell/classify.js";
import { frontArgv, frontShell } from "./shell/front.js";
import { plainlyUnmatched } from "./shell/front-plain.js";
import { checkWrightTarget, isDevritesTarget } from "./targets.js";
import { classifyTool, fileWritePaths, patchBody } from "./tools.js";
import type { ActivePacket, GuardContext, GuardDecision, GuardRule } from "./types.js";

/** Shell commands longer than this are refused unparsed (chars). */
export const MAX_COMMAND_CHARS = 128 * 1024;
/** apply_patch bodies longer than this are refused unparsed (chars). */
export const MAX_PATCH_CHARS = 4 * 1024 * 1024;

function createPacket(role: RoleName): string {
  return role === "devrites-slice-wright"
    ? `devrites packet new --role ${role} --rite rite-build --objective "…" --allow <path>… (one --allow per file it may write)`
    : `devrites packet new --role ${role} --rite <rite> --objective "…"`;
}

function deny(
  rule: GuardRule,
  role: string | undefined,
  input: string | undefined,
  why: string,
  hint: string,
): GuardDecision {
  const who = role ? `${role}: ` : "";
  const clipped = input !== undefined && input.length > 300 ? `${input.slice(0, 300)}…` : input;
  return {
    decision: "deny",
    rule,
    reason: `devrites guard denied this call [${rule}] ${who}${why}. ${capitalize(hint)}.`.replace(
      /\.\.$/,
      ".",
    ),
    ...(role !== undefined ? { role } : {}),
    ...(clipped !== undefined ? { input: clipped } : {}),
  };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Who a call is judged as: a devrites role, or a foreign agent held to the read-only class while runs are active.
 * Every deny goes through {@link denyAs}, so a foreign agent's denials all say which runs hold it back.
 */
interface Judge {
  /** The policy role: a devrites role, or `foreign` (the read-only class, without proof commands). */
  role: RoleName | "foreign";
  /** The name the reasons use: the role, or the foreign agent's `agent_type`. */
  who: string;
  wright: boolean;
  allowlist: readonly string[];
  /** For a foreign agent: the active runs (never empty). */
  runs: readonly ActivePacket[];
}

/** A foreign agent's writes and spawns during a run: the new rule; its other denials keep their own rules. */
const FOREIGN_WRITE_RULES: ReadonlySet<GuardRule> = new Set([
  "guard.readonly-write",
  "guard.write-target-unknown",
  "guard.outside-allowlist",
  "guard.spawn",
]);

function denyAs(
  j: Judge,
  rule: GuardRule,
  input: string | undefined,
  why: string,
  hint: string,
): GuardDecision {
  if (j.role !== "foreign") return { ...deny(rule, j.role, input, why, hint), caller: "leaf" };
  const ids = j.runs.map((p) => p.run_id);
  const many = ids.length > 1;
  const checks = ids.map((id) => `\`devrites result check .devrites/runs/${id}/result.json\``).join(", ");
  return {
    ...deny(
      FOREIGN_WRITE_RULES.has(rule) ? "guard.foreign-write-during-run" : rule,
      j.who,
      input,
      `${why}; \`${j.who}\` is not a devrites role, and devrites run${many ? "s" : ""} ${ids.join(", ")} ${many ? "are" : "is"} active: until ${many ? "they finish" : "it finishes"}, such an agent may only read and run read-only commands, because a change to the tree would make ${many ? "those runs' results" : "that run's result"} stale`,
      `read and search instead, or wait until the root session has finished ${many ? "them" : "it"} (${checks}; an accepted run stops being active, \`devrites run abandon <run-id>\` gives one up, and \`devrites status\` lists the active runs) and retry`,
    ),
    caller: "foreign",
  };
}

function fromRefusal(r: Refusal, j: Judge): GuardDecision {
  return denyAs(j, r.rule, r.input, r.why, r.hint);
}

function allowAs(j: Judge): GuardDecision {
  return j.role === "foreign"
    ? { decision: "allow", caller: "foreign" }
    : { decision: "allow", caller: "leaf", role: j.role };
}

function validPackets(ctx: GuardContext): ActivePacket[] {
  return ctx.activePackets.filter((p): p is ActivePacket => typeof p === "object" && p !== null);
}

function leafDecision(call: Extract<Call, { kind: "leaf" }>, ctx: GuardContext): GuardDecision {
  const role = roleFromAgentType(call.agentType, (r) => ctx.isInstalledRole(r) === true);
  if (!role) {
    // A foreign agent (the host's own Explore/explorer, a user's or another plugin's agent, or one merely named
    // like a devrites role) is no more than the root session that started it: untouched while no run is active.
    // While one is, the tree is a frozen baseline, so it is held to the read-only class.
    // A main thread started as an agent (`claude --agent NAME`: `agent_type` without `agent_id`) is the root.
    if (!call.subagent) return { decision: "allow", caller: "root" };
    const runs = validPackets(ctx);
    if (runs.length === 0) return { decision: "allow", caller: "foreign" };
    return judgeCall(call, { role: "foreign", who: call.agentType, wright: false, allowlist: [], runs }, ctx);
  }
  const packets = validPackets(ctx).filter((p) => p.role === role);
  if (packets.length === 0) {
    return {
      ...deny(
        "guard.no-active-packet",
        role,
        call.toolName,
        `there is no active packet for ${role}, so the guard does not know this leaf's scope`,
        `stop and report it; the root must create one first: ${createPacket(role)}`,
      ),
      caller: "leaf",
    };
  }
  const wright = ROLES[role].mode === "writer";
  if (wright && packets.length > 1) {
    return {
      ...deny(
        "guard.ambiguous-packet",
        role,
        packets.map((p) => p.run_id).join(", "),
        `${packets.length} runs of ${role} are active (${packets.map((p) => p.run_id).join(", ")}), so the guard cannot tell which allowlist applies`,
        "stop and report it; the root must finish or abandon all but one wright run",
      ),
      caller: "leaf",
    };
  }
  const allowlist = wright ? ((packets[0] as ActivePacket).allowed_repo_writes ?? []) : [];
  return judgeCall(call, { role, who: role, wright, allowlist, runs: [] }, ctx);
}

/** The tool-level rules, for a devrites role or the read-only class. */
function judgeCall(call: Extract<Call, { kind: "leaf" }>, j: Judge, ctx: GuardContext): GuardDecision {
  const input = call.toolInput;
  switch (classifyTool(call.toolName, input)) {
    case "spawn":
      return denyAs(
        j,
        "guard.spawn",
        call.toolName,
        j.role === "foreign"
          ? `\`${call.toolName}\` starts or instructs another agent`
          : `leaves may not start other agents (\`${call.toolName}\`)`,
        "do the work yourself, or report in your result that another step is needed",
      );
    case "agent-admin":
    case "read":
      return allowAs(j);
    case "file-write": {
      const paths = fileWritePaths(input);
      if (!paths || paths.length === 0) {
        return denyAs(
          j,
          "guard.malformed-input",
          call.toolName,
          `\`${call.toolName}\` without a string file_path`,
          "give the file path",
        );
      }
      // A path and a patch body in one call: both are checked.
      const body = patchBody(input);
      if (body?.includes("*** Begin Patch")) {
        const parsed = patchPaths(body);
        if (!parsed.ok) {
          return denyAs(
            j,
            "guard.malformed-input",
            call.toolName,
            `the patch cannot be read (${parsed.why})`,
            "send one well-formed edit",
          );
        }
        paths.push(...parsed.paths.map((p) => p.path));
      }
      return judgeWrites(paths, call, j, ctx);
    }
    case "patch": {
      const body = patchBody(input);
      if (body === undefined) {
        return denyAs(
          j,
          "guard.malformed-input",
          call.toolName,
          "apply_patch without a patch body",
          "send the patch text",
        );
      }
      if (body.length > MAX_PATCH_CHARS) {
        return denyAs(
          j,
          "guard.input-too-large",
          call.toolName,
          `the patch is ${body.length} characters (limit ${MAX_PATCH_CHARS})`,
          "split it into smaller patches",
        );
      }
      const parsed = patchPaths(body);
      if (!parsed.ok) {
        return denyAs(
          j,
          j.wright ? "guard.write-target-unknown" : "guard.readonly-write",
          call.toolName,
          `the patch cannot be read (${parsed.why})`,
          j.wright
            ? "send a well-formed *** Begin Patch … *** End Patch body"
            : "read-only roles never change files",
        );
      }
      return judgeWrites(
        parsed.paths.map((p) => p.path),
        call,
        j,
        ctx,
      );
    }
    case "shell":
      return judgeShell(call, j, ctx);
    case "stdin":
      return denyAs(
        j,
        "guard.shell-unclassified",
        call.toolName,
        "typing into a running process cannot be classified",
        "run each command as its own shell call",
      );
    default:
      return denyAs(
        j,
        "guard.unknown-tool",
        call.toolName,
        `the tool \`${call.toolName}\` is not one the guard knows (MCP and new host tools may write where it cannot see)`,
        "use Read, Grep, Glob, Bash, Edit or Write",
      );
  }
}

function judgeWrites(
  paths: readonly string[],
  call: Extract<Call, { kind: "leaf" }>,
  j: Judge,
  ctx: GuardContext,
): GuardDecision {
  for (const p of paths) {
    if (!j.wright) {
      if (isDevritesTarget(ctx, p, call.cwd)) {
        return denyAs(
          j,
          "guard.devrites-write",
          p,
          `\`${call.toolName}\` writes \`${p}\` inside the devrites workspace`,
          "only the devrites CLI writes .devrites/; return your result as your final message",
        );
      }
      return denyAs(
        j,
        "guard.readonly-write",
        p,
        j.role === "foreign"
          ? `\`${call.toolName}\` writes \`${p}\``
          : `${j.role} is a read-only role and \`${call.toolName}\` writes \`${p}\``,
        "read-only roles never change files; describe the change in your result instead",
      );
    }
    const v = checkWrightTarget(ctx, j.allowlist, p, call.cwd);
    if (!v.ok) return denyAs(j, v.rule, p, `\`${call.toolName}\`: ${v.why}`, v.hint);
  }
  return allowAs(j);
}

function judgeShell(call: Extract<Call, { kind: "leaf" }>, j: Judge, ctx: GuardContext): GuardDecision {
  const input = call.toolInput;
  // Claude and Codex's hook mapping send `command`; Codex's exec_command tool itself names it `cmd`.
  const command = Object.hasOwn(input, "command")
    ? input.command
    : Object.hasOwn(input, "cmd")
      ? input.cmd
      : undefined;
  const workdir = Object.hasOwn(input, "workdir") ? input.workdir : undefined;
  if (
    workdir !== undefined &&
    (typeof workdir !== "string" || workdir.includes("\u0000") || workdir.split("/").includes(".."))
  ) {
    return denyAs(
      j,
      "guard.malformed-input",
      call.toolName,
      "workdir is not a plain path (no `..` segments)",
      "give the directory's canonical path",
    );
  }
  const cwd = typeof workdir === "string" && workdir !== "" ? resolveDir(call.cwd, workdir) : call.cwd;
  const opts = {
    cwd,
    hasLocalBin: ctx.hasLocalBin ? (n: string) => ctx.hasLocalBin?.(n) === true : undefined,
  };
  let effects: ReturnType<typeof classifyShell>;
  if (typeof command === "string") {
    if (command.length > MAX_COMMAND_CHARS) {
      return denyAs(
        j,
        "guard.input-too-large",
        `${command.slice(0, 80)}…`,
        `the command is ${command.length} characters (limit ${MAX_COMMAND_CHARS}); the guard does not parse it`,
        "split it into smaller commands or put it in a script file",
      );
    }
    // A command the front table plainly cannot match is answered here, before the hook loads the table's part.
    effects =
      ctx.sandboxed !== true
        ? classifyShell(command, opts)
        : plainlyUnmatched(command)
          ? []
          : frontShell(command, opts);
  } else if (
    Array.isArray(command) &&
    command.length > 0 &&
    command.every((c) => typeof c === "string" && !c.includes("\u0000"))
  ) {
    const total = command.reduce((n: number, c: string) => n + c.length, 0);
    if (total > MAX_COMMAND_CHARS) {
      return denyAs(
        j,
        "guard.input-too-large",
        String(command[0]).slice(0, 80),
        `the command is ${total} characters (limit ${MAX_COMMAND_CHARS})`,
        "split it into smaller commands",
      );
    }
    effects =
      ctx.sandboxed === true
        ? frontArgv(command as string[], opts)
        : classifyArgvCommand(command as string[], opts);
  } else {
    return denyAs(
      j,
      "guard.malformed-input",
      call.toolName,
      "the shell call has no string (or string array) command",
      "send the command as a string",
    );
  }
  const refusal = judgeEffects(effects, j.role, j.allowlist, ctx);
  return refusal ? fromRefusal(refusal, j) : allowAs(j);
}

function resolveDir(cwd: string, dir: string): string {
  if (dir.startsWith("/")) return dir;
  return `${cwd.replace(/\/+$/, "")}/${dir}`;
}

/**
 * Decide one PreToolUse call. Never throws: any internal error while a leaf (or an unidentifiable caller) is
 * calling is a deny with `guard.internal-error`; the root session is always allowed.
 */
export function decide(hookInput: unknown, ctx: GuardContext): GuardDecision {
  let call: Call | undefined;
  try {
    call = normalizeCall(hookInput);
    if (call.kind === "root") return { decision: "allow", caller: "root" };
    if (call.kind === "malformed") {
      const agentType = call.agentType;
      const leaf =
        agentType !== undefined &&
        roleFromAgentType(agentType, (r) => ctx.isInstalledRole(r) === true) !== undefined;
      return {
        ...deny(
          "guard.malformed-input",
          agentType,
          undefined,
          call.why,
          "this is a host or hook wiring problem; the call is blocked because the guard fails closed",
        ),
        ...(agentType !== undefined ? { caller: leaf ? ("leaf" as const) : ("foreign" as const) } : {}),
      };
    }
    return leafDecision(call, ctx);
  } catch (e) {
    // The root returned above before anything that can throw, so a failure here is a leaf's (or an unidentified
    // caller's): deny.
    let message = "unknown error";
    try {
      message = e instanceof Error ? e.message : String(e);
    } catch {
      // an error whose message cannot be read is still an error
    }
    return {
      decision: "deny",
      rule: "guard.internal-error",
      reason: `devrites guard denied this call [guard.internal-error]: the guard failed while deciding (${message.slice(0, 200)}), and it fails closed for subagents. Retry once; if it persists, stop and report it.`,
      ...(call?.kind === "leaf" ? { role: call.agentType } : {}),
    };
  }
}
