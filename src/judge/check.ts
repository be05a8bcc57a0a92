/**
 * The validator's functional core: (result text, packet, frozen baseline, candidate now, clock) →
 * diagnostics. No I/O. Stages run in this order and every violated rule is reported:
 *
 *   schema → version → identity (run id, role, baseline id; stored baseline integrity) → status →
 *   budgets → payload type → declared side effects → the real tree → expiry
 *
 * Short-circuits, only where later checks would be meaningless:
 * - a result that is not JSON, not an object, of another version or schema-invalid stops the result
 *   stages after identity (identity is still checked on the raw fields that are strings);
 * - a missing or tampered baseline stops the tree stage (there is nothing trustworthy to compare with).
 * The tree and expiry stages depend only on the packet, so they run whatever shape the result has.
 */

import type { Diagnostic } from "../core/diagnostics.js";
import { parseJsonBytes, parseJsonText, parseResult } from "../envelope/parse.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import type { ScopeViolation } from "../scope/index.js";
import type { BaselineRead } from "./baseline-record.js";
import { diag } from "./codes.js";
import {
  checkBudgets,
  checkDeclaredWrites,
  checkExpiry,
  checkIdentity,
  checkPayloadType,
  checkStatus,
} from "./rules.js";
import { type CurrentTree, checkTree } from "./tree.js";
import { type Verdict, verdictOf } from "./verdict.js";

export interface CheckInput {
  /**
   * The result file exactly as stored: its bytes (decoded here, strictly: a byte-order mark or invalid UTF-8
   * is refused with its own code), or its text when the caller already has one.
   */
  resultText: string | Uint8Array;
  /** The result file's path for diagnostics (repository-relative where possible). */
  resultPath: string;
  /** The packet, already parsed and valid. */
  packet: AgentPacket;
  /** The stored baseline, verified against the packet (`verifyBaselineRecord`), or why it could not be. */
  baseline: BaselineRead;
  /** The candidate now. */
  current: CurrentTree;
  /** The packet's allowlist re-checked against the tree now (`checkAllowlist(root, …).violations`). */
  allowlistViolations: readonly ScopeViolation[];
  /** The clock. */
  now: Date;
}

export interface CheckReport {
  diagnostics: Diagnostic[];
  verdict: Verdict;
  /** Paths that differ from the frozen baseline (empty when the baseline could not be trusted). */
  changedPaths: string[];
  /** The parsed result, when it parsed. */
  result?: AgentResult;
}

/** The diagnostics only; see `evaluateResult` for the verdict and changed paths. */
export function checkResult(input: CheckInput): Diagnostic[] {
  return evaluateResult(input).diagnostics;
}

export function evaluateResult(input: CheckInput): CheckReport {
  const { resultText, resultPath, packet, baseline, current, now } = input;
  const out: Diagnostic[] = [];

  // schema and version
  const json =
    typeof resultText === "string"
      ? parseJsonText(resultText, resultPath)
      : parseJsonBytes(resultText, resultPath);
  let result: AgentResult | undefined;
  if (!json.ok) {
    out.push(...json.diagnostics);
  } else {
    const parsed = parseResult(json.value, resultPath);
    if (parsed.ok) result = parsed.value;
    else out.push(...parsed.diagnostics);
  }

  // identity: the result's claims (also of a schema-invalid result, as far as they are strings), then
  // the integrity of the stored baseline
  out.push(...checkRawIdentity(json.ok ? json.value : undefined, packet, resultPath));
  if (!baseline.ok) out.push(...baseline.diagnostics);

  if (result) {
    out.push(...checkStatus(result, resultPath));
    out.push(...checkBudgets(result, packet, resultPath));
    out.push(...checkPayloadType(result, packet, resultPath));
    out.push(...checkDeclaredWrites(result, packet));
  }
  for (const v of input.allowlistViolations) {
    out.push(diag("result.allowlist-invalid", `${v.rule}: ${v.message}`, v.input, v.hint));
  }

  let changedPaths: string[] = [];
  if (baseline.ok) {
    const tree = checkTree(packet, baseline.record, current, result?.side_effects.repo_writes);
    out.push(...tree.diagnostics);
    changedPaths = tree.changedPaths;
  }

  out.push(...checkExpiry(packet, now, resultPath));

  return { diagnostics: out, verdict: verdictOf(out), changedPaths, ...(result ? { result } : {}) };
}

/** Identity as the result states it: check the fields that are strings (others are the schema's finding). */
function checkRawIdentity(value: unknown, packet: AgentPacket, resultPath: string): Diagnostic[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const raw = value as Record<string, unknown>;
  const run_id = own(raw, "run_id");
  const role = own(raw, "role");
  const baseline_id = own(raw, "baseline_id");
  return checkIdentity(
    {
      run_id: typeof run_id === "string" ? run_id : packet.run_id,
      role: (typeof role === "string" ? role : packet.role) as AgentResult["role"],
      baseline_id: typeof baseline_id === "string" ? baseline_id : packet.baseline.id,
    },
    packet,
    resultPath,
  );
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}
