/**
 * The doctor's vocabulary: the probes it runs on each host, the row each probe yields, and a host's report.
 * A probe names one behaviour of the host that a devrites guarantee rests on (see docs/doctor.md).
 */

export type DoctorHost = "claude" | "codex";
export const DOCTOR_HOSTS: readonly DoctorHost[] = ["claude", "codex"];

/** Stable probe ids (scripts match on them; docs/doctor.md explains each). */
export const PROBES = {
  "host.runs": "the host starts offline against the built-in fake model and finishes a scripted turn",
  "hooks.subagent": "the project's PreToolUse hook runs for a subagent's call, with agent_id and agent_type",
  "hooks.background": "the same for a subagent spawned in the background (Claude)",
  "guard.deny": "a deny from the hook stops the call: the read-only leaf's write is refused and absent",
  "sandbox.rewrite":
    "an updatedInput rewrite runs: the leaf's call runs sandboxed, a read-only leaf's write fails and the file is absent",
  "guard.spawn": "a leaf's spawn of another agent is stopped",
  "subagent-stop.block": "SubagentStop fires for the leaf and can block its stop once",
  "codex.hooks-trust": "Codex runs the project's hooks once their trust is persisted (no bypass flag)",
  "codex.repo-trust": "Codex trusts the devrites hooks installed in this repository",
  "claude.hooks-enabled":
    "no Claude settings of yours or this repository's turn every hook off (`disableAllHooks`)",
} as const;
export type ProbeId = keyof typeof PROBES;

export type ProbeResult = "pass" | "fail" | "skip";

export interface ProbeRow {
  host: DoctorHost;
  /** The host's version as it printed it (`2.1.328`), or `-` when it could not be asked. */
  version: string;
  probe: ProbeId;
  result: ProbeResult;
  /** What was observed, one sentence. */
  detail: string;
  /** What to do (empty on a pass). */
  fix: string;
  /** Whether a failure of this row breaks a guarantee devrites relies on (it then fails the run). */
  gating: boolean;
  /** A row about one repository (Codex's trust of its hooks): its top level. */
  repo?: string;
}

export interface HostReport {
  host: DoctorHost;
  /** The binary that was probed, absolute. */
  bin: string;
  version: string;
  rows: ProbeRow[];
  /** Wall time of this host's probes, ms. */
  wallMs: number;
}

/** A test-only fault seeded into the scratch install (never reachable from the command line). */
export type DoctorFault =
  /** The hooks key removed from the host's project settings after the install. */
  | "hooks-removed"
  /** Codex: the scratch hooks' trust is not persisted (and no bypass flag is passed). */
  | "hooks-untrusted"
  /** The sandbox cannot start: no Landlock helper, and the host itself runs where namespaces are refused. */
  | "no-sandbox";

export const row = (r: Omit<ProbeRow, "fix" | "gating"> & { fix?: string; gating?: boolean }): ProbeRow => ({
  fix: "",
  gating: true,
  ...r,
});
