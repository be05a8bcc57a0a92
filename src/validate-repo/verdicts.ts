/**
 * `devrites validate` does not take a run's acceptance from the last ledger line: it re-derives it. Pure:
 *
 * - the ledger must not contradict itself (`ledgerContradictions`): one `packet.created`; an accepted
 *   check carries no codes; no result recorded after the run was accepted;
 * - an accepted run must be backed by an anchored verdict (written by `result check` in the git folder, where
 *   a leaf cannot write) that accepted exactly the result bytes now stored;
 * - the stored result must pass again every rule that does not need the tree as it was at the check
 *   (identity, status, budgets, payload type, declared writes) and the packet must not have been expired
 *   when it was accepted; the anchored tree evidence (the changed paths the check saw) must be exactly what
 *   the result declares and, for the wright, inside the allowlist; a read-only role changed nothing.
 */

import type { Code, Diagnostic } from "../core/diagnostics.js";
import { error } from "../core/diagnostics.js";
import { ROLES } from "../envelope/roles.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import {
  checkBudgets,
  checkDeclaredWrites,
  checkExpiry,
  checkIdentity,
  checkPayloadType,
  checkStatus,
} from "../judge/rules.js";
import type { AnchoredVerdict } from "../packet/anchor.js";
import type { RunEvent } from "../run/workspace-types.js";

/** Events that contradict each other, each an error `workspace.ledger-contradiction` naming its line. */
export function ledgerContradictions(
  events: readonly RunEvent[],
  lineNumbers: readonly number[],
  ledgerPath: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (i: number, message: string) =>
    out.push(
      error("workspace.ledger-contradiction", message, {
        path: ledgerPath,
        line: lineNumbers[i]!,
        hint: "the ledger is append-only and written by devrites alone; this run's record cannot be trusted — abandon it",
      }),
    );
  let created = 0;
  let acceptedAt: number | undefined;
  events.forEach((e, i) => {
    if (e === null || typeof e !== "object") return;
    const data = (e.data ?? {}) as Record<string, unknown>;
    if (e.type === "packet.created" && ++created > 1) at(i, "a second packet.created: a run has one packet");
    if (e.type === "result.checked" && data.verdict === "accepted") {
      if (Array.isArray(data.codes) && data.codes.length > 0)
        at(i, `result.checked says accepted with codes ${data.codes.join(", ")}`);
      acceptedAt ??= i;
    }
    if (e.type === "result.recorded" && acceptedAt !== undefined)
      at(i, `a result recorded after the run was accepted (line ${lineNumbers[acceptedAt]})`);
    if ((e.type === "result.checked" || e.type === "result.recorded") && created === 0)
      at(i, `${e.type} before the run's packet.created`);
  });
  return out;
}

export interface AcceptanceEvidence {
  packet: AgentPacket;
  result: AgentResult;
  resultSha256: string;
  /** The anchored verdicts, oldest first; undefined outside git (no anchor to compare with). */
  anchored: readonly AnchoredVerdict[] | undefined;
  /** When the ledger says the run was accepted (the first accepting `result.checked`). */
  acceptedAt: string | undefined;
  paths: { result: string; verdicts: string };
}

/** Why an accepted run's acceptance does not hold, each an error naming the file. */
export function rederiveAcceptance(ev: AcceptanceEvidence): Diagnostic[] {
  const { packet, result, paths } = ev;
  const out: Diagnostic[] = [];
  const bad = (code: Code, message: string, path: string, hint: string) =>
    out.push(error(code, message, { path, hint }));

  let anchoredAccept: AnchoredVerdict | undefined;
  if (ev.anchored !== undefined) {
    const accepted = ev.anchored.filter((v) => v.verdict === "accepted");
    anchoredAccept = accepted.find((v) => v.result_sha256 === ev.resultSha256);
    if (accepted.length === 0)
      bad(
        "workspace.accepted-unanchored",
        "the ledger says accepted, but result check never accepted this run (no anchored verdict)",
        paths.verdicts,
        "a result.checked line was added by hand; the run was not accepted — redispatch it",
      );
    else if (anchoredAccept === undefined)
      bad(
        "workspace.accepted-result-changed",
        "the stored result is not the bytes result check accepted (anchored verdict)",
        paths.result,
        "an accepted result is never edited; restore it from version control",
      );
  }

  // Every rule that does not need the tree as it was, run again on the stored result.
  const again = [
    ...checkIdentity(result, packet, paths.result),
    ...checkStatus(result, paths.result),
    ...checkBudgets(result, packet, paths.result),
    ...checkPayloadType(result, packet, paths.result),
    ...checkDeclaredWrites(result, packet),
    ...(result.gates.length > 0 ? [{ code: "result.gate", message: "the result raises gates" }] : []),
  ];
  const when = anchoredAccept?.ts ?? ev.acceptedAt;
  if (when !== undefined) again.push(...checkExpiry(packet, new Date(when), paths.result));
  if (again.length > 0)
    bad(
      "workspace.accepted-verdict-invalid",
      `the stored result does not pass its own packet again: ${[...new Set(again.map((d) => d.code))].join(", ")}`,
      paths.result,
      "an accepted verdict that cannot be re-derived was not earned; redispatch the step",
    );

  // The tree evidence the check anchored: what changed is what the result declares, inside the allowlist.
  if (anchoredAccept !== undefined) {
    const changed = new Set(anchoredAccept.changed_paths);
    const declared = new Set(result.side_effects.repo_writes.map((w) => w.path));
    const allowed = new Set(packet.scope.allowed_repo_writes);
    const readOnly = ROLES[packet.role].mode === "read-only";
    const wrong = [
      ...[...changed].filter((p) => readOnly || !allowed.has(p) || !declared.has(p)),
      ...[...declared].filter((p) => !changed.has(p)),
    ];
    if (wrong.length > 0)
      bad(
        "workspace.accepted-verdict-invalid",
        `the anchored tree evidence does not support acceptance: ${[...new Set(wrong)].join(", ")}`,
        paths.verdicts,
        "the run's records disagree; redispatch the step",
      );
  }
  return out;
}
