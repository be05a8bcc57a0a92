/**
 * The guard policy: one PreToolUse call (Claude or Codex shape) + the workspace's active packets → allow, or deny
 * with a stable rule code and a reason the model can act on. Pure apart from `ctx.resolve`; never throws.
 *
 * Order of checks for a leaf:
 *  1. the input is well-formed (guard.malformed-input) and not oversized (guard.input-too-large);
 *  2. the agent type is a devrites role (guard.unknown-role);
 *  3. the role has an active packet (guard.no-active-packet), exactly one for the wright (guard.ambiguous-packet);
 *  4. the tool: spawning (guard.spawn), reading (allow), file writes and patches (read-only: guard.readonly-write;
 *     wright: allowlist), shell (classified, then judged by ./policy.ts), anything else (guard.unknown-tool).
 */

import { ROLES, type RoleName, roleFromAgentType } from "../envelope/roles.js";
import { type Call, normalizeCall } from "./input.js";
import { patchPaths } from "./patch.js";
import { judgeEffects, type Refusal } from "./policy.js";
import { classifyArgvCommand, classifyShell } from "./shell/classify.js";
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

function fromRefusal(r: Refusal, role: RoleName): GuardDecision {
  return deny(r.rule, role, r.input, r.why, r.hint);
}

function leafDecision(call: Extract<Call, { kind: "leaf" }>, ctx: GuardContext): GuardDecision {
  const role = roleFromAgentType(call.agentType);
  if (!role) {
    // A generic subagent (Explore, general-purpose, a user's own agent …) spawned while devrites guards this
    // project has no packet and no scope: none of its writes could be checked, so it would bypass everything.
    return deny(
      "guard.unknown-role",
      call.agentType,
      call.toolName,
      `\`${call.agentType}\` is not a devrites role, and only devrites roles may run as subagents in a devrites project (a generic subagent has no packet, so its writes could not be checked)`,
      "dispatch one of the devrites roles (devrites-evidence-scout, devrites-plan-drafter, devrites-proof-runner, devrites-spec-reviewer, devrites-code-reviewer, devrites-slice-wright) with a packet, or do the work in the root session",
    );
  }
  const packets = ctx.activePackets.filter(
    (p): p is ActivePacket => typeof p === "object" && p !== null && p.role === role,
  );
  if (packets.length === 0) {
    return deny(
      "guard.no-active-packet",
      role,
      call.toolName,
      `there is no active packet for ${role}, so the guard does not know this leaf's scope`,
      `stop and report it; the root must create one first: ${createPacket(role)}`,
    );
  }
  const wright = ROLES[role].mode === "writer";
  if (wright && packets.length > 1) {
    return deny(
      "guard.ambiguous-packet",
      role,
      packets.map((p) => p.run_id).join(", "),
      `${packets.length} runs of ${role} are active (${packets.map((p) => p.run_id).join(", ")}), so the guard cannot tell which allowlist applies`,
      "stop and report it; the root must finish or abandon all but one wright run",
    );
  }
  const allowlist = wright ? ((packets[0] as ActivePacket).allowed_repo_writes ?? []) : [];
  const input = call.toolInput;
  switch (classifyTool(call.toolName, input)) {
    case "spawn":
      return deny(
        "guard.spawn",
        role,
        call.toolName,
        `leaves may not start other agents (\`${call.toolName}\`)`,
        "do the work yourself, or report in your result that another step is needed",
      );
    case "agent-admin":
    case "read":
      return { decision: "allow", caller: "leaf", role };
    case "file-write": {
      const paths = fileWritePaths(input);
      if (!paths || paths.length === 0) {
        return deny(
          "guard.malformed-input",
          role,
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
          return deny(
            "guard.malformed-input",
            role,
            call.toolName,
            `the patch cannot be read (${parsed.why})`,
            "send one well-formed edit",
          );
        }
        paths.push(...parsed.paths.map((p) => p.path));
      }
      return judgeWrites(paths, call, role, wright, allowlist, ctx);
    }
    case "patch": {
      const body = patchBody(input);
      if (body === undefined) {
        return deny(
          "guard.malformed-input",
          role,
          call.toolName,
          "apply_patch without a patch body",
          "send the patch text",
        );
      }
      if (body.length > MAX_PATCH_CHARS) {
        return deny(
          "guard.input-too-large",
          role,
          call.toolName,
          `the patch is ${body.length} characters (limit ${MAX_PATCH_CHARS})`,
          "split it into smaller patches",
        );
      }
      const parsed = patchPaths(body);
      if (!parsed.ok) {
        return deny(
          wright ? "guard.write-target-unknown" : "guard.readonly-write",
          role,
          call.toolName,
          `the patch cannot be read (${parsed.why})`,
          wright
            ? "send a well-formed *** Begin Patch … *** End Patch body"
            : "read-only roles never change files",
        );
      }
      return judgeWrites(
        parsed.paths.map((p) => p.path),
        call,
        role,
        wright,
        allowlist,
        ctx,
      );
    }
    case "shell":
      return judgeShell(call, role, allowlist, ctx);
    case "stdin":
      return deny(
        "guard.shell-unclassified",
        role,
        call.toolName,
        "typing into a running process cannot be classified",
        "run each command as its own shell call",
      );
    default:
      return deny(
        "guard.unknown-tool",
        role,
        call.toolName,
        `the tool \`${call.toolName}\` is not one the guard knows (MCP and new host tools may write where it cannot see)`,
        "use Read, Grep, Glob, Bash, Edit or Write",
      );
  }
}

function judgeWrites(
  paths: readonly string[],
  call: Extract<Call, { kind: "leaf" }>,
  role: RoleName,
  wright: boolean,
  allowlist: readonly string[],
  ctx: GuardContext,
): GuardDecision {
  for (const p of paths) {
    if (!wright) {
      if (isDevritesTarget(ctx, p, call.cwd)) {
        return deny(
          "guard.devrites-write",
          role,
          p,
          `\`${call.toolName}\` writes \`${p}\` inside the devrites workspace`,
          "only the devrites CLI writes .devrites/; return your result as your final message",
        );
      }
      return deny(
        "guard.readonly-write",
        role,
        p,
        `${role} is a read-only role and \`${call.toolName}\` writes \`${p}\``,
        "read-only roles never change files; describe the change in your result instead",
      );
    }
    const v = checkWrightTarget(ctx, allowlist, p, call.cwd);
    if (!v.ok) return deny(v.rule, role, p, `\`${call.toolName}\`: ${v.why}`, v.hint);
  }
  return { decision: "allow", caller: "leaf", role };
}

function judgeShell(
  call: Extract<Call, { kind: "leaf" }>,
  role: RoleName,
  allowlist: readonly string[],
  ctx: GuardContext,
): GuardDecision {
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
    return deny(
      "guard.malformed-input",
      role,
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
      return deny(
        "guard.input-too-large",
        role,
        `${command.slice(0, 80)}…`,
        `the command is ${command.length} characters (limit ${MAX_COMMAND_CHARS}); the guard does not parse it`,
        "split it into smaller commands or put it in a script file",
      );
    }
    effects = classifyShell(command, opts);
  } else if (
    Array.isArray(command) &&
    command.length > 0 &&
    command.every((c) => typeof c === "string" && !c.includes("\u0000"))
  ) {
    const total = command.reduce((n: number, c: string) => n + c.length, 0);
    if (total > MAX_COMMAND_CHARS) {
      return deny(
        "guard.input-too-large",
        role,
        String(command[0]).slice(0, 80),
        `the command is ${total} characters (limit ${MAX_COMMAND_CHARS})`,
        "split it into smaller commands",
      );
    }
    effects = classifyArgvCommand(command as string[], opts);
  } else {
    return deny(
      "guard.malformed-input",
      role,
      call.toolName,
      "the shell call has no string (or string array) command",
      "send the command as a string",
    );
  }
  const refusal = judgeEffects(effects, role, allowlist, ctx);
  return refusal ? fromRefusal(refusal, role) : { decision: "allow", caller: "leaf", role };
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
      return deny(
        "guard.malformed-input",
        call.agentType,
        undefined,
        call.why,
        "this is a host or hook wiring problem; the call is blocked because the guard fails closed",
      );
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
