/**
 * Pure construction of an `agent-packet/v1` and its `baseline.json` record from checked options and a
 * frozen baseline. The edge (`./packet-new.ts`) validates the command line, freezes the tree and writes.
 */

import type { ManifestEntry } from "../baseline/index.js";
import { ROLES, type RoleName } from "../envelope/roles.js";
import {
  type AgentPacket,
  type Baseline,
  PACKET_VERSION,
  type PacketBudgets,
  type Phase,
  RESULT_VERSION,
  type RunId,
} from "../envelope/types.js";
import { BASELINE_RECORD_SCHEMA, type BaselineRecord } from "../judge/baseline-record.js";
import { WORKSPACE_DIR, workspacePaths } from "../run/workspace.js";
import { defaultBudgets } from "./budgets.js";

export const PHASES = [
  "spec",
  "plan",
  "build",
  "prove",
  "review",
  "ship",
  "quick",
] as const satisfies readonly Phase[];

export function isPhase(x: unknown): x is Phase {
  return typeof x === "string" && (PHASES as readonly string[]).includes(x);
}

/** The purpose recorded for an input named with `--input`. */
export const INPUT_PURPOSE = "named by the dispatching rite: read it first";

export interface PacketSpec {
  runId: RunId;
  role: RoleName;
  rite: string;
  phase: Phase;
  stepNumber: number;
  objective: string;
  /** Checked, exact, repository-relative allowlist (empty for read-only roles). */
  allow: string[];
  /** Checked input paths. */
  inputs: string[];
  now: Date;
  /** Minutes until the packet expires, if it does. */
  expiresInMinutes?: number;
  /** What the engine adds when it dispatches (see `EngineDispatch` in `./packet-new.ts`). */
  engine?: PacketEngineFields;
}

/** Packet fields the engine decides and the command line does not carry. */
export interface PacketEngineFields {
  /** The engine's composite step id (replaces `<rite>/<role>#<stepNumber>`). */
  stepId: string;
  attempt: number;
  /** Overrides of the role's default budgets. */
  budgets?: Partial<PacketBudgets>;
  /** Input path → why the leaf reads it (default: {@link INPUT_PURPOSE}). */
  purposes?: Readonly<Record<string, string>>;
  /** Extra in-scope paths and the out-of-scope list. */
  scope?: { in: readonly string[]; out: readonly string[] };
}

export function buildPacket(
  spec: PacketSpec,
  baseline: Baseline,
  touched: readonly ManifestEntry[],
): AgentPacket {
  const byPath = new Map(touched.map((e) => [e.path, e]));
  const engine = spec.engine;
  const packet: AgentPacket = {
    packet_version: PACKET_VERSION,
    run_id: spec.runId,
    role: spec.role,
    rite: spec.rite,
    phase: spec.phase,
    attempt: engine?.attempt ?? 1,
    step_id: engine?.stepId ?? `${spec.rite}/${spec.role}#${spec.stepNumber}`,
    workspace: WORKSPACE_DIR,
    baseline,
    objective: spec.objective,
    inputs: spec.inputs.map((path) => {
      const e = byPath.get(path);
      const purpose = engine?.purposes?.[path] ?? INPUT_PURPOSE;
      return { path, purpose, sha256: e && e.type === "file" ? e.sha256 : null };
    }),
    scope: {
      in: [...new Set([...spec.inputs, ...spec.allow, ...(engine?.scope?.in ?? [])])],
      out: [...new Set(engine?.scope?.out ?? [])],
      allowed_repo_writes: ROLES[spec.role].mode === "writer" ? [...spec.allow] : [],
    },
    budgets: withBudgets(defaultBudgets(spec.role), engine?.budgets),
    result_path: workspacePaths.result(spec.runId),
    result_schema: RESULT_VERSION,
    created_at: spec.now.toISOString(),
  };
  if (spec.expiresInMinutes !== undefined) {
    packet.expires_at = new Date(spec.now.getTime() + spec.expiresInMinutes * 60_000).toISOString();
  }
  return packet;
}

/** The defaults with each override that is given (an `undefined` override keeps the default). */
function withBudgets(defaults: PacketBudgets, over: Partial<PacketBudgets> | undefined): PacketBudgets {
  const out = { ...defaults };
  for (const k of Object.keys(out) as (keyof PacketBudgets)[]) {
    const v = over?.[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function buildBaselineRecord(
  runId: RunId,
  head: string,
  dirty: readonly ManifestEntry[],
  touched: readonly ManifestEntry[],
): BaselineRecord {
  return { schema: BASELINE_RECORD_SCHEMA, run_id: runId, head, dirty: [...dirty], touched: [...touched] };
}
