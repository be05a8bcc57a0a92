/**
 * A leaf's allowed shell call → the tool input the host runs instead: the same fields, the command replaced by
 * the sandboxed one. The pure part (`shellCallOf`, `rewrittenInput`) is separate from the file-system reads
 * (`sandboxHere`, `gitDirOf`), which stay cheap: no process is started on the hook's path.
 */

import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { RoleName } from "../envelope/roles.js";
import { landlockHelperPath, landlockSupported } from "../sandbox/landlock-helper.js";
import { chooseMechanism, detectMechanisms, type MechanismChoice } from "../sandbox/mechanism.js";
import { nodeDetectFs, nodeProbe } from "../sandbox/node-fs.js";
import { planSandbox, type SandboxPlan, type SandboxTools } from "../sandbox/plan.js";
import { shellJoin } from "../sandbox/quote.js";
import { makeScratch } from "../sandbox/scratch.js";

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

let cached: MechanismChoice | undefined;

/**
 * The mechanism on this machine, found once per hook process. `DEVRITES_SANDBOX=off` turns it off (tests).
 * The Landlock helper is looked up beside the running bundle only (`landlockHelperPath`: stats, nothing from
 * the environment); whether the kernel applies Landlock is asked only when bubblewrap is unusable (a read of
 * the LSM list, else one `--abi` spawn of the helper).
 */
export function sandboxHere(env: Record<string, string | undefined>): MechanismChoice {
  if (env.DEVRITES_SANDBOX === "off") return { kind: "none", why: "turned off by DEVRITES_SANDBOX=off" };
  if (cached === undefined) {
    const facts = detectMechanisms(
      nodeDetectFs,
      { PATH: env.PATH },
      process.platform,
      process.getuid?.() ?? 0,
    );
    const helper = facts.platform === "linux" ? landlockHelperPath() : undefined;
    if (helper !== undefined) {
      facts.landlock = helper;
      if (facts.bwrap === undefined || !facts.userns.ok) {
        facts.landlockOk = landlockSupported({ probeHelper: helper });
      }
    }
    cached = chooseMechanism(facts);
  }
  return cached;
}

/** The git directory of the repository at `root`: `.git`, or where a `.git` file (worktree) points. */
export function gitDirOf(root: string): string {
  const dotGit = join(root, ".git");
  try {
    if (statSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8").slice(0, 4096));
      if (m?.[1]) {
        const p = isAbsolute(m[1]) ? m[1] : resolve(dirname(dotGit), m[1]);
        return nodeProbe.realpath(p) ?? p;
      }
    }
  } catch {
    // no .git: the default below names a path nothing binds
  }
  return dotGit;
}

export interface SandboxCallInput {
  mechanism: Exclude<MechanismChoice, { kind: "none" }>;
  root: string;
  mode: "read-only" | "proof" | "wright";
  /** The wright's allowlist, repository-relative. */
  allowlist: readonly string[];
  call: ShellCall;
  /** The hook's environment (the host's). */
  env: Readonly<Record<string, string | undefined>>;
  /** The calling agent's id: its calls share one scratch folder. */
  agentId?: string;
}

/** The plan's programs; a Landlock helper only with a scratch folder (without one: bubblewrap alone, or refused). */
function toolsOf(
  m: SandboxCallInput["mechanism"],
  agentId: string | undefined,
): { tools: SandboxTools; scratch?: string } {
  const scratch = makeScratch(undefined, undefined, agentId);
  if (m.kind === "landlock") {
    return { tools: { bash: m.bash, landlock: m.landlock }, ...(scratch ? { scratch } : {}) };
  }
  const tools: SandboxTools = { bwrap: m.bwrap, bash: m.bash, ...(m.unshare ? { unshare: m.unshare } : {}) };
  return m.landlock !== undefined && scratch !== undefined
    ? { tools: { ...tools, landlock: m.landlock }, scratch }
    : { tools };
}

export function planShellCall(i: SandboxCallInput): SandboxPlan {
  const command = Array.isArray(i.call.command) ? shellJoin(i.call.command) : i.call.command;
  const { tools, scratch } = toolsOf(i.mechanism, i.agentId);
  return planSandbox(
    {
      mode: i.mode,
      root: i.root,
      gitDir: gitDirOf(i.root),
      allowlist: i.allowlist.map((p) => join(i.root, p)),
      command,
      cwd: i.call.cwd,
      shell: i.mechanism.bash,
      tools,
      env: i.env,
      ...(scratch !== undefined ? { scratch } : {}),
    },
    nodeProbe,
  );
}

export function modeOf(role: RoleName): "read-only" | "proof" | "wright" {
  return role === "devrites-slice-wright"
    ? "wright"
    : role === "devrites-proof-runner"
      ? "proof"
      : "read-only";
}
