/**
 * A leaf's allowed shell call → the tool input the host runs instead: the same fields, the command replaced by
 * the sandboxed one. The pure part (`shellCallOf`, `rewrittenInput`) is separate from the file-system reads
 * (`sandboxHere`), which stay cheap: no process is started on the hook's path. Planning the sandboxed command
 * is in `sandbox-plan-call.ts`, which the hook bundle compiles only when a leaf's shell call is allowed.
 */

import { resolve } from "node:path";
import type { RoleName } from "../envelope/roles.js";
import { landlockHelperPath, landlockSupported } from "../sandbox/landlock-helper.js";
import { chooseMechanism, detectMechanisms, type MechanismChoice } from "../sandbox/mechanism.js";
import { nodeDetectFs } from "../sandbox/node-fs.js";
import type { SandboxPlan } from "../sandbox/plan.js";

/** Where a shell tool input holds its command, and the directory it runs in. */
export interface ShellCall {
  field: "command" | "cmd";
  command: string | string[];
  cwd: string;
}

/** The command and cwd of a shell tool input (Claude/Codex `command`, Codex's own `cmd`; `workdir`). */
export function shellCallOf(toolInput: Record<string, unknown>, hookCwd: string): ShellCall | undefined {
  const field = Object.hasOwn(toolInput, "command")
    ? "command"
    : Object.hasOwn(toolInput, "cmd")
      ? "cmd"
      : undefined;
  if (field === undefined) return undefined;
  const command = toolInput[field];
  const ok =
    typeof command === "string" ||
    (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === "string"));
  if (!ok) return undefined;
  const workdir = Object.hasOwn(toolInput, "workdir") ? toolInput.workdir : undefined;
  const cwd = typeof workdir === "string" && workdir !== "" ? resolve(hookCwd, workdir) : hookCwd;
  return { field, command: command as string | string[], cwd };
}

/** Every original field, the command replaced (a word list stays a word list). */
export function rewrittenInput(
  toolInput: Record<string, unknown>,
  call: ShellCall,
  plan: Extract<SandboxPlan, { ok: true }>,
): Record<string, unknown> {
  return { ...toolInput, [call.field]: Array.isArray(call.command) ? plan.argv : plan.command };
}

/** Per repository root: the helper may come from the repository's own package (`landlockHelperPath`). */
const cached = new Map<string, MechanismChoice>();

/**
 * The mechanism on this machine for a call in `repoRoot`, found once per hook process and root.
 * `DEVRITES_SANDBOX=off` turns it off (tests). The Landlock helper is looked up beside the running bundle, then
 * in the repository's own package (`landlockHelperPath`: stats, nothing from the environment); whether the
 * kernel applies Landlock is asked only when bubblewrap is unusable (a read of the LSM list, else one `--abi`
 * spawn of the helper).
 */
export function sandboxHere(env: Record<string, string | undefined>, repoRoot?: string): MechanismChoice {
  if (env.DEVRITES_SANDBOX === "off") return { kind: "none", why: "turned off by DEVRITES_SANDBOX=off" };
  const key = repoRoot ?? "";
  let choice = cached.get(key);
  if (choice === undefined) {
    const facts = detectMechanisms(
      nodeDetectFs,
      { PATH: env.PATH },
      process.platform,
      process.getuid?.() ?? 0,
    );
    const helper =
      facts.platform === "linux"
        ? landlockHelperPath(undefined, repoRoot !== undefined ? { repoRoot } : {})
        : undefined;
    if (helper !== undefined) {
      facts.landlock = helper;
      if (facts.bwrap === undefined || !facts.userns.ok) {
        facts.landlockOk = landlockSupported({ probeHelper: helper });
      }
    }
    choice = chooseMechanism(facts);
    cached.set(key, choice);
  }
  return choice;
}

export function modeOf(role: RoleName): "read-only" | "proof" | "wright" {
  return role === "devrites-slice-wright"
    ? "wright"
    : role === "devrites-proof-runner"
      ? "proof"
      : "read-only";
}
