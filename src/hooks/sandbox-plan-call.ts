import { join } from "node:path";
import { gitDirOf } from "../run/anchor-home.js";
import { bwrapTools, type MechanismChoice } from "../sandbox/mechanism.js";
import { nodeProbe } from "../sandbox/node-fs.js";
import { planSandbox, type SandboxPlan, type SandboxTools } from "../sandbox/plan.js";
import { shellJoin } from "../sandbox/quote.js";
import { makeScratch } from "../sandbox/scratch.js";
import type { ShellCall } from "./sandbox-call.js";

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
  // the helper also starts bubblewrap (no prelude shell inside; the proof runner's copy-on-write view)
  const tools = bwrapTools(m);
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
