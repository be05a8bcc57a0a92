/**
 * The envelope rules: pure functions from (result, packet) to diagnostics. Each rule reports every
 * violation it finds, with the result file as the path unless a more precise repository path exists.
 * The tree rules (what is really on disk) live in `./tree.ts`.
 */

import type { Diagnostic } from "../core/diagnostics.js";
import { ROLES } from "../envelope/roles.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import { diag } from "./codes.js";

/** run id, role and baseline identity as the result states them. */
export function checkIdentity(
  result: Pick<AgentResult, "run_id" | "role" | "baseline_id">,
  packet: AgentPacket,
  resultPath: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (result.run_id !== packet.run_id) {
    out.push(
      diag(
        "result.run-id-mismatch",
        `result run_id ${quote(result.run_id)} is not the packet's ${quote(packet.run_id)}`,
        resultPath,
      ),
    );
  }
  if (result.role !== packet.role) {
    out.push(
      diag(
        "result.role-mismatch",
        `result role ${quote(result.role)} is not the packet's ${quote(packet.role)}`,
        resultPath,
      ),
    );
  }
  if (result.baseline_id !== packet.baseline.id) {
    out.push(
      diag(
        "result.baseline-mismatch",
        `result baseline_id ${quote(result.baseline_id)} is not the packet's baseline.id ${packet.baseline.id}`,
        resultPath,
      ),
    );
  }
  return out;
}

/**
 * Status semantics. The decision table:
 *
 * | status          | escalation | gates | outcome                                             |
 * | --------------- | ---------- | ----- | --------------------------------------------------- |
 * | `complete`      | none       | none  | passes this stage                                   |
 * | `complete`      | none       | some  | `result.gate` warnings → human gate (exit 3)        |
 * | `complete`      | present    | any   | `result.status-contradiction`                       |
 * | `partial`       | any        | any   | `result.partial` (never an acceptance)              |
 * | `blocked`       | none       | any   | `result.escalation-missing`                         |
 * | `blocked`       | present    | some  | `result.gate` warnings → human gate: blocked on a human decision |
 * | `blocked`       | present    | none  | `result.blocked` (a technical blocker)              |
 * | `failed`        | none       | any   | `result.escalation-missing` and `result.failed`     |
 * | `failed`        | present    | any   | `result.failed`                                     |
 * | `cannot_verify` | any        | any   | `result.cannot-verify` (never a pass)               |
 *
 * Gates are reported whatever the status so the root sees them; they only decide the exit code when no
 * error was found anywhere. A `complete` result whose payload admits it could not verify is
 * `result.cannot-verify-as-complete`, and a verdict that contradicts its own checks or findings is
 * `result.verdict-contradiction`.
 */
export function checkStatus(result: AgentResult, resultPath: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { status, escalation, gates } = result;
  switch (status) {
    case "complete":
      if (escalation !== null) {
        out.push(
          diag(
            "result.status-contradiction",
            `status complete with an escalation (${escalation.reason}): ${escalation.detail}`,
            resultPath,
          ),
        );
      }
      out.push(...checkHonestComplete(result, resultPath));
      break;
    case "partial":
      out.push(diag("result.partial", "status partial: the leaf did not finish its objective", resultPath));
      break;
    case "blocked":
      if (escalation === null) {
        out.push(diag("result.escalation-missing", "status blocked without an escalation", resultPath));
      } else if (gates.length === 0) {
        out.push(
          diag(
            "result.blocked",
            `status blocked (${escalation.reason}) with no human gate: ${escalation.detail}`,
            resultPath,
          ),
        );
      }
      break;
    case "failed":
      if (escalation === null) {
        out.push(diag("result.escalation-missing", "status failed without an escalation", resultPath));
      }
      out.push(
        diag(
          "result.failed",
          escalation ? `status failed (${escalation.reason}): ${escalation.detail}` : "status failed",
          resultPath,
        ),
      );
      break;
    case "cannot_verify":
      out.push(
        diag(
          "result.cannot-verify",
          escalation
            ? `status cannot_verify (${escalation.reason}): ${escalation.detail}`
            : "status cannot_verify",
          resultPath,
        ),
      );
      break;
  }
  for (const g of gates) {
    out.push(diag("result.gate", `gate ${g.id} (${g.kind}): ${g.question}`, resultPath));
  }
  return out;
}

/** A `complete` whose payload says it could not verify, or whose verdict contradicts its own content. */
function checkHonestComplete(result: AgentResult, resultPath: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const p = result.payload;
  if (p.type === "proof-report") {
    const { verdict, checks } = p.content;
    if (verdict === "inconclusive") {
      out.push(
        diag(
          "result.cannot-verify-as-complete",
          "status complete with proof verdict inconclusive: nothing was proven",
          resultPath,
        ),
      );
    } else if (verdict === "pass" && !checks.some((c) => c.outcome === "pass")) {
      out.push(
        diag(
          "result.cannot-verify-as-complete",
          "status complete with proof verdict pass, but no check passed: a vacuous pass",
          resultPath,
        ),
      );
    }
    if (verdict === "pass") {
      for (const c of checks) {
        if (c.outcome === "fail" || c.outcome === "error") {
          out.push(
            diag(
              "result.verdict-contradiction",
              `proof verdict pass, but check ${quote(c.name)} has outcome ${c.outcome}`,
              resultPath,
            ),
          );
        }
      }
    }
  } else if (p.type === "review-findings") {
    const blockers = p.content.findings.filter((f) => f.severity === "blocker");
    if (p.content.verdict === "approve" && blockers.length > 0) {
      out.push(
        diag(
          "result.verdict-contradiction",
          `review verdict approve with ${blockers.length} blocker finding(s)`,
          resultPath,
        ),
      );
    }
    if (p.content.findings.length === 0 && p.content.coverage.trim() === "") {
      out.push(
        diag(
          "result.cannot-verify-as-complete",
          "review with no findings and no coverage: a bare approval is not a review",
          resultPath,
        ),
      );
    }
  }
  return out;
}

/**
 * Budgets: usage within the ceilings, any ceiling the result echoes unchanged, and the result's own size. The size is
 * the number of lines of the result pretty-printed with two-space indentation, so minifying a result
 * cannot slip it under the limit.
 */
export function checkBudgets(result: AgentResult, packet: AgentPacket, resultPath: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const b = result.budget;
  const p = packet.budgets;
  const echoes: [keyof typeof p, number | undefined][] = [
    ["max_files", b.max_files],
    ["max_loaded_lines", b.max_loaded_lines],
    ["max_result_lines", b.max_result_lines],
  ];
  for (const [field, echoed] of echoes) {
    // an echo is optional (the packet holds the ceiling); one that is given must not differ
    if (echoed !== undefined && echoed !== p[field]) {
      out.push(
        diag(
          "result.budget-mismatch",
          `budget.${field} is ${echoed}, the packet's is ${p[field]}`,
          resultPath,
        ),
      );
    }
  }
  if (b.files_used > p.max_files) {
    out.push(
      diag(
        "result.budget-exceeded",
        `files_used ${b.files_used} exceeds the packet's max_files ${p.max_files}`,
        resultPath,
      ),
    );
  }
  if (b.loaded_lines_used > p.max_loaded_lines) {
    out.push(
      diag(
        "result.budget-exceeded",
        `loaded_lines_used ${b.loaded_lines_used} exceeds the packet's max_loaded_lines ${p.max_loaded_lines}`,
        resultPath,
      ),
    );
  }
  const lines = resultLines(result);
  if (lines > p.max_result_lines) {
    out.push(
      diag(
        "result.too-long",
        `the result has ${lines} lines pretty-printed; the packet allows ${p.max_result_lines}`,
        resultPath,
      ),
    );
  }
  return out;
}

/** Lines of the result pretty-printed with two-space indentation (the measure `max_result_lines` caps). */
export function resultLines(result: object): number {
  return JSON.stringify(result, null, 2).split("\n").length;
}

/** The payload type is the one the packet's role returns (the packet's role is authoritative). */
export function checkPayloadType(result: AgentResult, packet: AgentPacket, resultPath: string): Diagnostic[] {
  const expected = ROLES[packet.role].payload;
  if (result.payload.type === expected) return [];
  return [
    diag(
      "result.payload-type",
      `payload type ${quote(result.payload.type)} is not ${quote(expected)}, the payload of ${packet.role}`,
      resultPath,
    ),
  ];
}

/**
 * Declared side effects: read-only roles declare no repository writes; the wright declares only
 * allowlisted paths, each once. (`sha256_after` null exactly for a delete is enforced by the schema.) Paths
 * are compared as exact strings: a case or Unicode variant of an allowlisted path is a different path.
 */
export function checkDeclaredWrites(result: AgentResult, packet: AgentPacket): Diagnostic[] {
  const out: Diagnostic[] = [];
  const writes = result.side_effects.repo_writes;
  if (ROLES[packet.role].mode === "read-only") {
    for (const w of writes) {
      out.push(
        diag("result.read-only-write", `read-only role ${packet.role} declares ${w.op} of ${w.path}`, w.path),
      );
    }
    return out;
  }
  const allowed = new Set(packet.scope.allowed_repo_writes);
  const seen = new Set<string>();
  for (const w of writes) {
    if (seen.has(w.path)) {
      out.push(diag("result.duplicate-write", `${w.path} is declared more than once`, w.path));
    }
    seen.add(w.path);
    if (!allowed.has(w.path)) {
      out.push(
        diag(
          "result.write-not-allowed",
          `declared ${w.op} of ${w.path}, which is not on the allowlist`,
          w.path,
        ),
      );
    }
  }
  return out;
}

/** A packet expires at the instant `expires_at`: a check at or after it is rejected. */
export function checkExpiry(packet: AgentPacket, now: Date, resultPath: string): Diagnostic[] {
  if (packet.expires_at === undefined) return [];
  const expires = Date.parse(packet.expires_at);
  const t = now.getTime();
  if (Number.isNaN(expires) || Number.isNaN(t) || t >= expires) {
    return [
      diag(
        "result.expired",
        `the packet expired at ${packet.expires_at}; checked at ${Number.isNaN(t) ? "an invalid time" : now.toISOString()}`,
        resultPath,
      ),
    ];
  }
  return [];
}

function quote(s: string): string {
  return JSON.stringify(s);
}
