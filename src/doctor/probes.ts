/**
 * What each probe looks for, host-neutral and pure: the scripted leaf's steps, and the rows judged from what
 * a run left behind (the hook log, the tool results the fake model received, the scratch tree).
 */

import { type DoctorHost, type ProbeRow, row } from "./types.js";

/** The read-only leaf probed in the foreground, and the one spawned in the background (Claude). */
export const LEAF_ROLE = "devrites-evidence-scout" as const;
export const BACKGROUND_ROLE = "devrites-code-reviewer" as const;

/** The files the leaf tries to write (both must stay absent). */
export const DENY_FILE = "doctor-deny.txt";
export const SANDBOX_FILE = "doctor-sandbox.txt";
/** What the control call prints; its command text does not contain it, so a deny quoting it cannot pass. */
export const SANDBOX_OK = "doctor-sandbox-42";

export interface LeafStep {
  id: string;
  command: string;
}

/** The leaf's shell calls, in order (tool ids are per host: `toolu_…` / `call_…`). */
export function leafSteps(host: DoctorHost): {
  deny: LeafStep;
  write: LeafStep;
  control: LeafStep;
  spawn: LeafStep;
} {
  const p = host === "claude" ? "toolu_doctor_" : "call_doctor_";
  return {
    deny: { id: `${p}deny`, command: `echo doctor > ${DENY_FILE}` },
    write: { id: `${p}write`, command: `node -e "require('fs').writeFileSync('${SANDBOX_FILE}','y')"` },
    control: { id: `${p}control`, command: "echo doctor-sandbox-$((40+2))" },
    // any run of an agent CLI is a spawn to the guard; `--version` keeps it harmless if it ran unguarded
    spawn: { id: `${p}spawn`, command: `${host} --version` },
  };
}

/** Text the SubagentStop hook's block puts before the leaf (`blockReason` in src/hooks/subagent-stop.ts). */
export const BLOCK_MARK = "then end again with the corrected agent-result/v1";

export interface ToolOutcome {
  text: string;
  /** Claude's `is_error`; Codex has none (false). */
  isError: boolean;
}

/** One hook run, its parsed stdin. */
export type HookCall = Record<string, unknown>;

export interface Observation {
  host: DoctorHost;
  version: string;
  /** Why the host run itself failed (no exit 0, timed out, the fake saw problems), if it did. */
  runProblem: string | undefined;
  preToolUse: HookCall[];
  subagentStop: HookCall[];
  /** The leaf's tool result for a step id, as the fake model received it. */
  result(id: string): ToolOutcome | undefined;
  /** A leaf request after its first stop carried the block's text. */
  blockSeenByLeaf: boolean;
  fileExists(repoPath: string): boolean;
  /** Whether a spawn tool was offered to the leaf (Claude `Agent`, Codex `multi_agent_*`). */
  spawnToolOffered: boolean;
  /** Claude: whether the background leaf was spawned at all (its model request arrived). */
  backgroundSpawned?: boolean;
  /**
   * Whether devrites has a sandbox for this platform (Linux: bubblewrap or Landlock). Elsewhere leaf shell
   * calls are judged by the classifier alone, by design (guard_strength `enforced`): sandbox.rewrite then
   * fails as a warning, not a broken guarantee. Default true.
   */
  sandboxExpected?: boolean;
}

const DENIED = (rule: string) => `devrites guard denied this call [${rule}]`;
const WROTE_FAILED = /EROFS|EACCES|Read-only file system|Permission denied|operation not permitted/i;
const NO_SANDBOX = "the sandbox could not start here";

const HOOK_FIX: Record<DoctorHost, string> = {
  claude:
    "the project's hooks did not run: run `devrites init` (or `devrites update`) in the repository so .claude/settings.json wires .devrites/hooks/, and do not run Claude with hooks off (`--bare`, `disableAllHooks`)",
  codex:
    "the project's hooks did not run: run `devrites init` (or `devrites update`) so .codex/hooks.json wires .devrites/hooks/, trust the project (`codex exec --trust` once) and its hooks (`/hooks` in Codex); see the codex.repo-trust row",
};

const SANDBOX_FIX =
  "install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`) and keep the package's Landlock helper (dist/native/) installed; inside a container, allow user namespaces; see docs/guard-policy.md (Sandbox)";

function leafCalls(o: Observation, role: string): HookCall[] {
  return o.preToolUse.filter((c) => c.agent_type === role);
}

function hasAgentId(c: HookCall): boolean {
  return typeof c.agent_id === "string" && c.agent_id !== "";
}

function deniedBy(o: Observation, id: string, rule: string): boolean {
  const r = o.result(id);
  return r?.text.includes(DENIED(rule)) === true && (o.host === "codex" || r.isError);
}

function brief(t: string | undefined): string {
  if (t === undefined) return "no tool result";
  const one = t.replace(/\s+/g, " ").trim();
  return one.length > 160 ? `${one.slice(0, 157)}…` : one;
}

/** Every row of one host's run (pure). */
export function judge(o: Observation): ProbeRow[] {
  const base = { host: o.host, version: o.version };
  const steps = leafSteps(o.host);
  const rows: ProbeRow[] = [];
  rows.push(
    o.runProblem === undefined
      ? row({ ...base, probe: "host.runs", result: "pass", detail: "the scripted run finished" })
      : row({
          ...base,
          probe: "host.runs",
          result: "fail",
          detail: o.runProblem,
          fix: `run the host by hand to see why it does not start (\`${o.host} --version\`), then doctor again`,
        }),
  );

  const calls = leafCalls(o, LEAF_ROLE);
  const withIds = calls.filter(hasAgentId);
  rows.push(
    withIds.length > 0
      ? row({
          ...base,
          probe: "hooks.subagent",
          result: "pass",
          detail: `${withIds.length} of the leaf's calls reached the hook with agent_id and agent_type ${LEAF_ROLE}`,
        })
      : row({
          ...base,
          probe: "hooks.subagent",
          result: "fail",
          detail:
            calls.length > 0
              ? "the hook ran for the leaf's calls but without agent_id: devrites cannot tell the leaf from the root"
              : o.preToolUse.length > 0
                ? "the hook ran, but never for the subagent's calls"
                : "no PreToolUse hook ran at all",
          fix: HOOK_FIX[o.host],
        }),
  );

  if (o.host === "claude") {
    const bg = leafCalls(o, BACKGROUND_ROLE).filter(hasAgentId);
    rows.push(
      bg.length > 0
        ? row({
            ...base,
            probe: "hooks.background",
            result: "pass",
            detail: `the background ${BACKGROUND_ROLE}'s call reached the hook with agent_id`,
          })
        : row({
            ...base,
            probe: "hooks.background",
            result: "fail",
            detail:
              o.backgroundSpawned === false
                ? "the background subagent never ran"
                : "no PreToolUse hook ran for the background subagent's call",
            fix: HOOK_FIX.claude,
          }),
    );
  }

  const denyPresent = o.fileExists(DENY_FILE);
  rows.push(
    deniedBy(o, steps.deny.id, "guard.readonly-write") && !denyPresent
      ? row({
          ...base,
          probe: "guard.deny",
          result: "pass",
          detail: "the hook's deny stopped the leaf's write; the file is absent",
        })
      : row({
          ...base,
          probe: "guard.deny",
          result: "fail",
          detail: denyPresent
            ? `the read-only leaf's \`${steps.deny.command}\` ran: ${DENY_FILE} was written`
            : `the leaf's write was not refused by the guard (${brief(o.result(steps.deny.id)?.text)})`,
          fix: HOOK_FIX[o.host],
        }),
  );

  const write = o.result(steps.write.id);
  const control = o.result(steps.control.id);
  const sandboxPresent = o.fileExists(SANDBOX_FILE);
  const started = control?.text.includes(SANDBOX_OK) === true;
  const writeFailed =
    write !== undefined && WROTE_FAILED.test(write.text) && !write.text.includes(DENIED(""));
  let sandbox: ProbeRow;
  if (sandboxPresent) {
    sandbox = row({
      ...base,
      probe: "sandbox.rewrite",
      result: "fail",
      detail: `the read-only leaf's write ran unsandboxed: ${SANDBOX_FILE} was written`,
      fix: calls.length > 0 ? SANDBOX_FIX : HOOK_FIX[o.host],
    });
  } else if (!started) {
    const couldNot = [control?.text, write?.text].some((t) => t?.includes(NO_SANDBOX));
    sandbox = row({
      ...base,
      probe: "sandbox.rewrite",
      result: "fail",
      detail: couldNot
        ? "the sandbox could not start here: every leaf shell call fails (exit 126)"
        : `the leaf's sandboxed \`echo\` did not run (${brief(control?.text)})`,
      fix: couldNot || calls.length > 0 ? SANDBOX_FIX : HOOK_FIX[o.host],
    });
  } else if (!writeFailed) {
    sandbox = row({
      ...base,
      probe: "sandbox.rewrite",
      result: "fail",
      detail: `the leaf's write did not fail read-only (${brief(write?.text)})`,
      fix: SANDBOX_FIX,
    });
  } else {
    sandbox = row({
      ...base,
      probe: "sandbox.rewrite",
      result: "pass",
      detail:
        "the rewritten call ran sandboxed: the write failed read-only, the file is absent, a control call ran",
    });
  }
  if (sandbox.result === "fail" && o.sandboxExpected === false) {
    sandbox = {
      ...sandbox,
      gating: false,
      detail: `${sandbox.detail} (devrites has no sandbox for this platform yet: the classifier judges leaf shell calls alone)`,
    };
  }
  rows.push(sandbox);

  const spawnDenied = deniedBy(o, steps.spawn.id, "guard.spawn");
  rows.push(
    spawnDenied && !o.spawnToolOffered
      ? row({
          ...base,
          probe: "guard.spawn",
          result: "pass",
          detail: "the leaf is offered no spawn tool and its shell spawn of another agent was refused",
        })
      : row({
          ...base,
          probe: "guard.spawn",
          result: "fail",
          detail: o.spawnToolOffered
            ? "the host offers the leaf a spawn tool: leaves could nest agents"
            : `the leaf's \`${steps.spawn.command}\` was not refused (${brief(o.result(steps.spawn.id)?.text)})`,
          fix: o.spawnToolOffered
            ? `this ${o.host} version lets subagents spawn: report it (docs/doctor.md), and do not dispatch writers on it`
            : HOOK_FIX[o.host],
        }),
  );

  const stops = o.subagentStop.filter((c) => c.agent_type === LEAF_ROLE);
  // "once": the host marks the stop that follows a block (`stop_hook_active`), so the hook lets the leaf end
  const toldAgain = stops.some((c) => c.stop_hook_active === true);
  rows.push(
    stops.length > 0 && o.blockSeenByLeaf && toldAgain
      ? row({
          ...base,
          probe: "subagent-stop.block",
          result: "pass",
          detail: "SubagentStop fired for the leaf; its block kept the leaf going once, then the leaf ended",
        })
      : row({
          ...base,
          probe: "subagent-stop.block",
          result: "fail",
          detail:
            stops.length === 0
              ? "no SubagentStop hook ran for the leaf"
              : !o.blockSeenByLeaf
                ? "SubagentStop fired, but its block did not reach the leaf"
                : "the stop after the block did not carry stop_hook_active: a rejected result would block the leaf again and again",
          fix:
            toldAgain || stops.length === 0 || !o.blockSeenByLeaf
              ? HOOK_FIX[o.host]
              : `this ${o.host} version does not mark a repeated stop: report it (docs/doctor.md), and do not dispatch writers on it`,
        }),
  );
  return rows;
}
