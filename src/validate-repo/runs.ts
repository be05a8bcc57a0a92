/**
 * The envelope checks `devrites validate` adds to `checkWorkspace` (which covers the ledgers, state.json
 * and the run folders' shape): per run, the packet and the result valid against their schemas, the result tied
 * to its packet (run, role, baseline), and for an accepted result the stored baseline still hashing to what
 * the packet claims and the result still the bytes that were checked. Read-only; the tree is never
 * re-snapshotted (the baseline file is re-hashed, which is cheap).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { decodeUtf8Strict, parseJsonBytes, parsePacket, parseResult } from "../envelope/parse.js";
import type { AgentPacket, AgentResult } from "../envelope/types.js";
import { verifyBaselineRecord } from "../judge/baseline-record.js";
import {
  compareWithAnchor,
  compareWithLedger,
  type PacketJson,
  type RunAnchor,
  readAnchor,
  readAnchoredVerdicts,
} from "../packet/anchor.js";
import { findAnchorHome, shownAnchor } from "../run/anchor-home.js";
import { readLedgerStrict, type StrictLedger } from "../run/ledger.js";
import { isRetired } from "../run/lifecycle.js";
import { listRunDirs, workspacePaths } from "../run/workspace.js";
import { ledgerContradictions, rederiveAcceptance } from "./verdicts.js";

export interface RunsReport {
  diagnostics: Diagnostic[];
  runs: number;
  /** Accepted results whose baseline and bytes were re-verified. */
  accepted: number;
}

/** A file's exact bytes (the strict reader decodes them), undefined when absent. */
function readBytes(abs: string): Buffer | undefined | Error {
  try {
    return readFileSync(abs);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? undefined : (e as Error);
  }
}

interface LedgerFacts {
  verdict?: string;
  /** The result bytes the last check judged (from the last record before it). */
  checkedSha?: string;
  /** When the last verdict was given. */
  checkedAt?: string;
  /** The run was superseded or abandoned (it left the active set). */
  retired?: true;
  ledger: StrictLedger;
}

/** The last verdict `result check` recorded, read strictly (a forged line is an error, not a fact). */
function ledgerFacts(root: string, runId: string): LedgerFacts {
  const ledger = readLedgerStrict(root, runId);
  const retired = isRetired(ledger.values);
  let verdict: string | undefined;
  let recordedSha: string | undefined;
  let checkedSha: string | undefined;
  let checkedAt: string | undefined;
  for (const ev of ledger.values) {
    if (typeof ev !== "object" || ev === null) continue;
    const data = (ev.data ?? {}) as Record<string, unknown>;
    if (ev.type === "result.recorded" && typeof data.sha256 === "string") recordedSha = data.sha256;
    if (ev.type === "result.checked" && typeof data.verdict === "string") {
      verdict = data.verdict;
      checkedSha = recordedSha;
      checkedAt = typeof ev.ts === "string" ? ev.ts : undefined;
    }
  }
  return {
    ledger,
    ...(verdict ? { verdict } : {}),
    ...(checkedSha ? { checkedSha } : {}),
    ...(checkedAt ? { checkedAt } : {}),
    ...(retired ? { retired: true as const } : {}),
  };
}

/** Check the runs `only` names (all runs when undefined). */
export function checkRuns(root: string, only?: ReadonlySet<string>, gitDir?: string): RunsReport {
  const out: Diagnostic[] = [];
  let runs = 0;
  let accepted = 0;
  for (const runId of listRunDirs(root)) {
    if (only && !only.has(runId)) continue;
    runs++;
    const facts = ledgerFacts(root, runId);
    // A rejected result, or one a superseded or abandoned run left, is kept as the record: reported, not failed.
    const rejected = facts.verdict === "rejected" || facts.retired === true;
    const eventsRel = workspacePaths.events(runId);
    out.push(
      ...facts.ledger.tampered,
      ...ledgerContradictions(facts.ledger.values, facts.ledger.lineNumbers, eventsRel),
    );
    let raw: PacketJson | undefined;
    let anchor: RunAnchor | undefined;
    let result: AgentResult | undefined;
    const runStart = out.length;
    const packetRel = workspacePaths.packet(runId);
    const resultRel = workspacePaths.result(runId);

    let packet: AgentPacket | undefined;
    const packetText = readBytes(join(root, packetRel));
    if (packetText instanceof Error)
      out.push(error("workspace.unreadable", packetText.message, { path: packetRel }));
    else if (packetText !== undefined) {
      const json = parseJsonBytes(packetText, packetRel);
      const parsed = json.ok ? parsePacket(json.value, packetRel) : json;
      if (!parsed.ok)
        out.push(
          error("workspace.packet-invalid", "not a valid agent-packet/v1", {
            path: packetRel,
            hint: "packets are written once by devrites packet new; restore this one from version control",
          }),
          ...parsed.diagnostics,
        );
      else if (parsed.value.run_id !== runId)
        out.push(
          error(
            "workspace.packet-run-mismatch",
            `the packet names run ${parsed.value.run_id}, its folder ${runId}`,
            {
              path: packetRel,
            },
          ),
        );
      else {
        packet = parsed.value;
        raw = (json.ok ? json.value : {}) as PacketJson;
      }
    }
    // where the run's anchor is: outside git (no folder, or a no-git baseline) there is none
    const home =
      packet && gitDir !== undefined && packet.baseline.head !== "no-git"
        ? findAnchorHome(gitDir, root, runId)
        : undefined;
    if (packet && raw) {
      // What packet new fixed: the anchor (when there is one) and the ledger's creation event.
      // Errors for an accepted run; for any other run warnings (its result check rejects it anyway).
      const binding: Diagnostic[] = [];
      if (home !== undefined) {
        const read = readAnchor(home, runId);
        if (read.ok) {
          anchor = read.anchor;
          binding.push(
            ...compareWithAnchor(anchor, raw, undefined, {
              packet: packetRel,
              baseline: workspacePaths.baseline(runId),
              anchor: shownAnchor(home, runId).anchor,
            }),
          );
        } else binding.push(...read.diagnostics);
      }
      binding.push(
        ...compareWithLedger(facts.ledger.values, facts.ledger.lineNumbers, raw, anchor, eventsRel),
      );
      out.push(
        ...(facts.verdict === "accepted"
          ? binding
          : binding.map((d) => ({ ...d, severity: "warning" as const }))),
      );
    }

    const resultText = readBytes(join(root, resultRel));
    if (resultText instanceof Error)
      out.push(error("workspace.unreadable", resultText.message, { path: resultRel }));
    else if (resultText !== undefined) {
      // A result the validator already rejected stays as the record of that rejection: reported, not failed.
      const severity = rejected ? warning : error;
      const json = parseJsonBytes(resultText, resultRel);
      const parsed = json.ok ? parseResult(json.value, resultRel) : json;
      if (!parsed.ok) {
        out.push(
          severity(
            "workspace.result-invalid",
            rejected
              ? "not a valid agent-result/v1 (result check rejected it)"
              : "not a valid agent-result/v1",
            {
              path: resultRel,
              hint: rejected
                ? "kept as the record of the rejection"
                : "run devrites result check on it, or devrites run abandon <run-id> to give the run up",
            },
          ),
        );
        if (!rejected) out.push(...parsed.diagnostics);
      } else if (packet) {
        const r = parsed.value;
        result = r;
        if (r.role !== packet.role)
          out.push(
            severity(
              "workspace.result-role-mismatch",
              `the result is from ${r.role}, the packet is for ${packet.role}`,
              { path: resultRel },
            ),
          );
        if (r.baseline_id !== packet.baseline.id)
          out.push(
            severity(
              "workspace.result-baseline-mismatch",
              "the result names another baseline than its packet",
              {
                path: resultRel,
                hint: "a leaf must answer the candidate its packet froze",
              },
            ),
          );
      } else if (packetText === undefined)
        out.push(
          error("workspace.result-orphan", `a result for run ${runId}, which has no packet`, {
            path: resultRel,
            hint: "a result must answer a packet written by devrites packet new",
          }),
        );
    }

    if (facts.verdict !== "accepted") continue;
    accepted++;
    if (resultText === undefined)
      out.push(
        error("workspace.accepted-result-missing", `run ${runId} was accepted but its result is gone`, {
          path: resultRel,
        }),
      );
    else if (resultText instanceof Buffer && facts.checkedSha && sha256Hex(resultText) !== facts.checkedSha)
      out.push(
        error("workspace.accepted-result-changed", "the accepted result is not the bytes that were checked", {
          path: resultRel,
          hint: "an accepted result is never edited; restore it from version control",
        }),
      );
    if (!packet) continue; // already reported
    const baselineRel = workspacePaths.baseline(runId);
    const baselineText = readBytes(join(root, baselineRel));
    if (baselineText === undefined || baselineText instanceof Error) {
      out.push(
        error(
          "workspace.accepted-baseline-missing",
          `run ${runId} was accepted but its baseline.json is gone`,
          {
            path: baselineRel,
            hint: "restore it from version control; without it the acceptance cannot be re-verified",
          },
        ),
      );
      continue;
    }
    const decoded = decodeUtf8Strict(baselineText, baselineRel);
    const verified = decoded.ok ? verifyBaselineRecord(decoded.value, packet, baselineRel) : decoded;
    if (!verified.ok)
      out.push(
        error(
          "workspace.accepted-baseline-mismatch",
          `the accepted result's baseline no longer matches its packet: ${verified.diagnostics.map((d) => d.message).join("; ")}`,
          {
            path: baselineRel,
            hint: "baseline.json is written once by devrites packet new; restore it from version control",
          },
        ),
      );
    if (result && resultText instanceof Buffer) {
      const verdicts = home !== undefined ? readAnchoredVerdicts(home, runId) : undefined;
      if (verdicts) out.push(...verdicts.diagnostics);
      out.push(
        ...rederiveAcceptance({
          packet,
          result,
          resultSha256: sha256Hex(resultText),
          anchored: verdicts?.verdicts,
          acceptedAt: facts.checkedAt,
          paths: {
            result: resultRel,
            verdicts: shownAnchor(home, runId).verdicts,
          },
        }),
      );
    }
    dedupeFrom(out, runStart);
  }
  return { diagnostics: out, runs, accepted };
}

/** Drop repeats (same code and path) among the diagnostics from `start` on: one finding, one line. */
function dedupeFrom(out: Diagnostic[], start: number): void {
  const seen = new Set<string>();
  const kept = out.slice(start).filter((d) => {
    const k = `${d.code}\0${d.path ?? ""}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  out.splice(start, out.length - start, ...kept);
}

/**
 * Staged files a leaf may still be writing: in the allowlist of an active run (no accepted result yet).
 * Null when there is no readable state.json to check against.
 */
export function checkActiveRuns(
  root: string,
  paths: readonly string[],
): { diagnostics: Diagnostic[]; active: number } | null {
  const bytes = readBytes(join(root, workspacePaths.state));
  if (!(bytes instanceof Buffer)) return null;
  const text = bytes.toString("utf8");
  let state: { active_runs?: unknown };
  try {
    state = JSON.parse(text) as { active_runs?: unknown };
  } catch {
    return null;
  }
  if (!Array.isArray(state.active_runs)) return null;
  const staged = new Set(paths);
  const out: Diagnostic[] = [];
  for (const run of state.active_runs as { run_id?: unknown }[]) {
    if (typeof run?.run_id !== "string") continue;
    const packetBytes = readBytes(join(root, workspacePaths.packet(run.run_id)));
    if (!(packetBytes instanceof Buffer)) continue;
    const packetText = packetBytes.toString("utf8"); // checkWorkspace reports a missing run
    let allow: unknown;
    try {
      allow = (JSON.parse(packetText) as AgentPacket).scope?.allowed_repo_writes;
    } catch {
      continue;
    }
    if (!Array.isArray(allow)) continue;
    for (const p of allow)
      if (typeof p === "string" && staged.has(p))
        out.push(
          error(
            "validate.staged-unverified",
            `staged while run ${run.run_id} may still write it, and no result of that run was accepted`,
            {
              path: p,
              hint: "run devrites result check on the run's result first (or abandon the run), then commit",
            },
          ),
        );
  }
  return { diagnostics: out, active: state.active_runs.length };
}
