/**
 * The imperative edge of `devrites result record`: store a leaf's returned result at its packet's
 * `result_path`, unjudged. The CLI is the only writer under `.devrites/`; this is how a leaf's final
 * message becomes the run's `result.json` (called by the SubagentStop hook, or by the root).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.js";
import { type Diagnostic, ExitCode, error } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { isRunId } from "../envelope/ids.js";
import { decodeUtf8Strict, type ParseOutcome, parseJsonBytes, parsePacket } from "../envelope/parse.js";
import { diag } from "../judge/codes.js";
import { extractResultJson } from "../judge/extract.js";
import { appendEvent, readRunEvents, readState, workspacePaths } from "../run/workspace.js";
import { unwrapHandBack } from "./hand-back.js";

export interface ResultRecordOptions {
  root: string;
  runId: string;
  /**
   * The leaf's returned text: the bytes received (decoded strictly here), or text a host already decoded
   * (the SubagentStop hook's JSON input), which must then be well-formed Unicode.
   */
  text: string | Uint8Array;
  /** Where the text came from, for the ledger: `stdin` or the file as given. */
  source: string;
  now: Date;
}

export interface ResultRecordOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  data?: { run_id: string; result_path: string; sha256: string; bytes: number; unchanged: boolean };
}

export function recordResult(opts: ResultRecordOptions): ResultRecordOutcome {
  const { root, runId, now } = opts;
  if (!isRunId(runId)) {
    return {
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("input.invalid", `${JSON.stringify(runId)} is not a run id`, {
          hint: "expected run-<YYYYMMDD>T<HHMMSS>Z-<8 hex>, as printed by `devrites packet new`",
        }),
      ],
    };
  }
  const packetRel = workspacePaths.packet(runId);
  let packetBytes: Buffer;
  try {
    packetBytes = readFileSync(join(root, packetRel));
  } catch {
    return {
      exitCode: ExitCode.MissingInput,
      diagnostics: [diag("record.unknown-run", `no packet for run ${runId}`, packetRel)],
    };
  }
  const json = parseJsonBytes(packetBytes, packetRel);
  const packet = json.ok ? parsePacket(json.value, packetRel) : json;
  if (!packet.ok) {
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [
        diag("packet.invalid", "the run's packet is not a valid agent-packet/v1", packetRel),
        ...packet.diagnostics,
      ],
    };
  }
  const resultRel = workspacePaths.result(runId);
  if (packet.value.result_path !== resultRel || packet.value.run_id !== runId) {
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [
        diag(
          "record.result-path-invalid",
          `the packet names result_path ${JSON.stringify(packet.value.result_path)} and run ${packet.value.run_id}; expected ${resultRel}`,
          packetRel,
        ),
      ],
    };
  }
  const state = readState(root, now.toISOString());
  if (!state.ok) return { exitCode: ExitCode.Violation, diagnostics: state.diagnostics };
  if (!state.state.active_runs.some((r) => r.run_id === runId)) {
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [diag("record.run-not-active", `run ${runId} is not active`, workspacePaths.state)],
    };
  }

  const received = receivedText(opts.text, opts.source);
  if (!received.ok) return { exitCode: ExitCode.Violation, diagnostics: received.diagnostics };
  // The root may hand over what its host gave it (Claude's hand-back frame, Codex's wait_agent object):
  // the leaf's own message inside it is what is stored.
  const unwrapped = unwrapHandBack(received.value);
  if (!unwrapped.ok)
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [diag(unwrapped.code, unwrapped.message, undefined, unwrapped.hint)],
    };
  const extracted = extractResultJson(unwrapped.text, opts.source);
  if (!extracted.ok) return { exitCode: ExitCode.Violation, diagnostics: extracted.diagnostics };
  const identity = resultIdentity(extracted.json, runId, opts.source);
  if (identity) return { exitCode: ExitCode.Violation, diagnostics: [identity] };
  const body = Buffer.from(`${extracted.json}\n`, "utf8");
  const sha256 = sha256Hex(body);

  let existing: Buffer | undefined;
  try {
    existing = readFileSync(join(root, resultRel));
  } catch {
    existing = undefined;
  }
  const differs = existing !== undefined && !existing.equals(body);
  const supersedes = differs && lastVerdictRejected(root, runId) ? sha256Hex(existing!) : undefined;
  if (differs && supersedes === undefined) {
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [
        diag("record.result-exists", `a different result is already recorded for ${runId}`, resultRel),
      ],
    };
  }
  const unchanged = existing !== undefined && !differs;
  if (!unchanged) {
    writeFileAtomic(join(root, resultRel), body);
    appendEvent(root, {
      ts: now.toISOString(),
      run_id: runId,
      type: "result.recorded",
      data: {
        result_path: resultRel,
        sha256,
        bytes: body.length,
        source: opts.source,
        ...(unwrapped.frame ? { frame: unwrapped.frame } : {}),
        ...(supersedes ? { supersedes } : {}),
      },
    });
  }
  return {
    exitCode: ExitCode.Ok,
    diagnostics: [],
    data: { run_id: runId, result_path: resultRel, sha256, bytes: body.length, unchanged },
  };
}

/**
 * Whether the stored result was checked and rejected since it was recorded: then the leaf may replace it with
 * its fix within the same run (the SubagentStop hook blocks a rejected leaf once so that it can). An accepted,
 * gated or unchecked result is never replaced.
 */
function lastVerdictRejected(root: string, runId: string): boolean {
  const events = readRunEvents(root, runId).values;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === "result.checked") return e.data?.verdict === "rejected";
    if (e.type === "result.recorded") return false;
  }
  return false;
}

/**
 * The leaf's text, read strictly: a byte-order mark (which `trim` would silently drop), invalid UTF-8 and,
 * in already-decoded text, a lone surrogate are refused with their own codes. What is accepted re-encodes to
 * exactly the bytes received, so the stored object is a byte-exact slice of them.
 */
function receivedText(text: string | Uint8Array, source: string): ParseOutcome<string> {
  if (typeof text !== "string") return decodeUtf8Strict(text, source);
  if (text.charCodeAt(0) === 0xfeff)
    return {
      ok: false,
      diagnostics: [
        diag("envelope.byte-order-mark", "the text starts with a byte-order mark (U+FEFF)", source),
      ],
    };
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  if (lone)
    return {
      ok: false,
      diagnostics: [
        diag(
          "envelope.invalid-encoding",
          `a lone surrogate at offset ${lone.index}: the text is not valid Unicode`,
          source,
        ),
      ],
    };
  return { ok: true, value: text };
}

/**
 * A stored result must at least say what it is and which run it answers: anything else (`{}`, another run's
 * result, a leaf's notes that happen to be JSON) is refused here, before it is written, so it can never sit
 * in the workspace as a result no check can tie to its run. The rest of the schema is `result check`'s to
 * judge (a result that names its run but is otherwise malformed is stored and rejected, on record).
 */
function resultIdentity(json: string, runId: string, source: string): Diagnostic | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined; // extractResultJson only returns parsed JSON; nothing to add
  }
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (v.result_version !== "agent-result/v1")
    return diag(
      "record.not-a-result",
      `the JSON from ${source} is not an agent-result/v1 (result_version is ${JSON.stringify(v.result_version ?? null)}); nothing was stored`,
      undefined,
      `store the leaf's agent-result/v1 object for ${runId}: it starts with "result_version": "agent-result/v1"`,
    );
  if (v.run_id !== runId)
    return diag(
      "record.run-mismatch",
      `the result names run ${JSON.stringify(v.run_id ?? null)}, not ${runId}; nothing was stored`,
      undefined,
      "record each leaf's result under its own run id (the packet path names it)",
    );
  return undefined;
}
