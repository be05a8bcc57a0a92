/**
 * Run anchors: what `packet new` fixed about a run, kept where a leaf cannot rewrite it. The workspace
 * `.devrites/` is in the work tree, so a leaf that escapes its guard could edit `packet.json`, `baseline.json`
 * and the ledger together and keep them consistent; the git folder is kept read-only to leaves by the
 * sandbox, so `packet new` also writes `<git-dir>/devrites/anchors/<run-id>.json` with the packet (canonical
 * JSON) and its digest and the digest of `baseline.json`, and `result check` appends each verdict to
 * `<run-id>.verdicts.jsonl` beside it. A root that cannot write its git folder anchors in `.devrites/anchors/`
 * instead, which the sandbox keeps read-only to leaves too (`AnchorHome`). Every check compares the run's
 * files with the anchor and with the ledger's `packet.created` event; `devrites validate` compares the ledger's verdicts with the
 * anchored ones. Outside git (a `no-git` baseline) there is no such folder: only the ledger event binds.
 *
 * Pure comparison here; the few fs calls are the read/write edges at the bottom.
 */

import { mkdirSync, readFileSync } from "node:fs";
import { isStatMark, type StatMark } from "../baseline/index.js";
import { writeFileAtomic } from "../core/atomic-write.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { parseJsonBytes } from "../envelope/parse.js";
import type { AgentPacket } from "../envelope/types.js";
import { diag } from "../judge/codes.js";
import { type AnchorHome, anchorPath, shownAnchor, verdictsPath } from "../run/anchor-home.js";
import { type AppendOptions, appendJsonLine } from "../run/workspace.js";
import type { RunEvent } from "../run/workspace-types.js";

export const ANCHOR_SCHEMA = "devrites-anchor/v1";

export interface RunAnchor {
  schema: typeof ANCHOR_SCHEMA;
  run_id: string;
  /** SHA-256 of the packet's canonical JSON (`canonicalJson`). */
  packet_sha256: string;
  /** The packet itself, so a mismatch can name the field that changed. */
  packet: Record<string, unknown>;
  /** SHA-256 of `baseline.json`'s bytes as `packet new` wrote them. */
  baseline_sha256: string;
  /**
   * The instant the baseline's snapshot began, and the root it read (`src/baseline/_settle.ts`): a check
   * trusts what has not changed since without reading it again. Absent for runs made before marks existed.
   */
  stat_mark?: StatMark;
}

/** One anchored verdict: what `result check` decided, about which result bytes. */
export interface AnchoredVerdict {
  ts: string;
  verdict: string;
  result_sha256: string;
  codes: string[];
  changed_paths: string[];
}

/**
 * JSON with object keys sorted by UTF-16 code units at every depth, no whitespace: one spelling per value, so
 * a digest over it changes exactly when a field's value does (key order and formatting do not count).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")}}`;
}

/** The packet's digest: SHA-256 of its canonical JSON (every field: scope, budgets, expiry, baseline, …). */
export function packetDigest(packet: AgentPacket | Record<string, unknown>): string {
  return sha256Hex(canonicalJson(packet));
}

/** A packet as its JSON value (the digest is over what is stored, not what a schema made of it). */
export type PacketJson = Record<string, unknown> & { run_id: string };

export function anchorFor(packet: AgentPacket, baselineBytes: Uint8Array, mark?: StatMark): RunAnchor {
  return {
    schema: ANCHOR_SCHEMA,
    run_id: packet.run_id,
    packet_sha256: packetDigest(packet),
    packet: JSON.parse(canonicalJson(packet)) as Record<string, unknown>,
    baseline_sha256: sha256Hex(baselineBytes),
    ...(mark ? { stat_mark: mark } : {}),
  };
}

/**
 * The packet and baseline as stored, compared with the anchor: each field that differs is one
 * `result.packet-tampered` naming it (`scope.allowed_repo_writes`, `expires_at`, …); a baseline.json whose
 * bytes are not the ones written is `result.baseline-tampered`.
 */
export function compareWithAnchor(
  anchor: RunAnchor,
  packet: PacketJson,
  baselineBytes: Uint8Array | undefined,
  paths: { packet: string; baseline: string; anchor: string },
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (anchor.run_id !== packet.run_id)
    out.push(
      diag(
        "result.anchor-invalid",
        `the anchor is for run ${anchor.run_id}, not ${packet.run_id}`,
        paths.anchor,
      ),
    );
  if (packetDigest(packet) !== anchor.packet_sha256) {
    const fields = differingFields(anchor.packet, packet);
    for (const f of fields.length > 0 ? fields : ["(the packet)"])
      out.push(
        diag(
          "result.packet-tampered",
          `${paths.packet}: field ${f} is not what packet new fixed (anchored in ${paths.anchor})`,
          paths.packet,
        ),
      );
  }
  if (baselineBytes !== undefined && sha256Hex(baselineBytes) !== anchor.baseline_sha256)
    out.push(
      diag(
        "result.baseline-tampered",
        `${paths.baseline}: its bytes hash to ${sha256Hex(baselineBytes)}, packet new wrote ${anchor.baseline_sha256} (anchored in ${paths.anchor})`,
        paths.baseline,
      ),
    );
  return out;
}

/**
 * The run's ledger against its packet: exactly one `packet.created`, for this run, carrying this packet's
 * digest (and the anchor's baseline digest when there is an anchor). Anything else is
 * `result.ledger-mismatch` naming the ledger and what disagrees.
 */
export function compareWithLedger(
  events: readonly RunEvent[],
  lineNumbers: readonly number[],
  packet: PacketJson,
  anchor: RunAnchor | undefined,
  ledgerPath: string,
): Diagnostic[] {
  const created = events.flatMap((e, i) =>
    e?.type === "packet.created" ? [{ e, line: lineNumbers[i] }] : [],
  );
  const at = (line: number | undefined, message: string): Diagnostic => {
    const d = diag("result.ledger-mismatch", message, ledgerPath);
    if (line !== undefined) d.line = line;
    return d;
  };
  if (created.length === 0) return [at(undefined, "the run's ledger has no packet.created event")];
  if (created.length > 1)
    return [
      at(
        created[1]!.line,
        `the run's ledger has ${created.length} packet.created events; a packet is created once`,
      ),
    ];
  const { e, line } = created[0]!;
  const data = (e.data ?? {}) as Record<string, unknown>;
  const out: Diagnostic[] = [];
  if (e.run_id !== packet.run_id)
    out.push(at(line, `packet.created names run ${String(e.run_id)}, not ${packet.run_id}`));
  if (data.packet_sha256 !== packetDigest(packet))
    out.push(
      at(
        line,
        typeof data.packet_sha256 === "string"
          ? "packet.created.data.packet_sha256 is not the digest of packet.json: the packet changed after it was created"
          : "packet.created.data.packet_sha256 is missing: the run was not created by this devrites",
      ),
    );
  if (anchor && data.baseline_sha256 !== anchor.baseline_sha256)
    out.push(at(line, "packet.created.data.baseline_sha256 is not the anchored digest of baseline.json"));
  if (anchor && canonicalJson(data.stat_mark) !== canonicalJson(anchor.stat_mark))
    out.push(at(line, "packet.created.data.stat_mark is not the anchored mark of the baseline's snapshot"));
  return out;
}

/** Top-level fields (and one level into objects: `scope.allowed_repo_writes`) whose values differ. */
function differingFields(a: Record<string, unknown>, b: Record<string, unknown>, prefix = ""): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const out: string[] = [];
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (canonicalJson(x) === canonicalJson(y)) continue;
    const objects = isPlain(x) && isPlain(y);
    if (objects && prefix === "") out.push(...differingFields(x, y, `${k}.`));
    else out.push(`${prefix}${k}${x === undefined ? " (added)" : y === undefined ? " (deleted)" : ""}`);
  }
  return out;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------- the edges

export function writeAnchor(home: AnchorHome, anchor: RunAnchor): void {
  mkdirSync(home.dir, { recursive: true });
  writeFileAtomic(anchorPath(home, anchor.run_id), `${JSON.stringify(anchor, null, 2)}\n`);
}

/**
 * Write the anchor into the first home that takes it (git folder, then workspace). Returns the home used, or
 * each home's error code when neither could be written.
 */
export function writeAnchorSomewhere(
  homes: readonly AnchorHome[],
  anchor: RunAnchor,
): { ok: true; home: AnchorHome } | { ok: false; failures: { home: AnchorHome; code: string }[] } {
  const failures: { home: AnchorHome; code: string }[] = [];
  for (const home of homes) {
    try {
      writeAnchor(home, anchor);
      return { ok: true, home };
    } catch (e) {
      failures.push({ home, code: (e as NodeJS.ErrnoException).code ?? "error" });
    }
  }
  return { ok: false, failures };
}

export type AnchorRead = { ok: true; anchor: RunAnchor } | { ok: false; diagnostics: Diagnostic[] };

/** Read and shape-check an anchor. Missing → `result.anchor-missing`; unreadable or malformed → `result.anchor-invalid`. */
export function readAnchor(home: AnchorHome, runId: string): AnchorRead {
  const shown = shownAnchor(home, runId).anchor;
  let bytes: Buffer;
  try {
    bytes = readFileSync(anchorPath(home, runId));
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    return {
      ok: false,
      diagnostics: [
        missing
          ? diag(
              "result.anchor-missing",
              `run ${runId} has no anchor; packet new writes one for every run`,
              shown,
            )
          : diag("result.anchor-invalid", `the anchor cannot be read: ${(e as Error).message}`, shown),
      ],
    };
  }
  const json = parseJsonBytes(bytes, shown);
  if (!json.ok)
    return {
      ok: false,
      diagnostics: json.diagnostics.map((d) => diag("result.anchor-invalid", d.message, shown)),
    };
  const v = json.value as Partial<RunAnchor>;
  const hex = (s: unknown) => typeof s === "string" && /^[0-9a-f]{64}$/.test(s);
  if (
    !isPlain(v) ||
    v.schema !== ANCHOR_SCHEMA ||
    typeof v.run_id !== "string" ||
    !hex(v.packet_sha256) ||
    !hex(v.baseline_sha256) ||
    !isPlain(v.packet) ||
    (v.stat_mark !== undefined && !isStatMark(v.stat_mark))
  )
    return {
      ok: false,
      diagnostics: [diag("result.anchor-invalid", `not a ${ANCHOR_SCHEMA} record`, shown)],
    };
  if (packetDigest(v.packet) !== v.packet_sha256)
    return {
      ok: false,
      diagnostics: [
        diag("result.anchor-invalid", "the anchor's packet does not hash to its packet_sha256", shown),
      ],
    };
  return { ok: true, anchor: v as RunAnchor };
}

export function appendAnchoredVerdict(
  home: AnchorHome,
  runId: string,
  verdict: AnchoredVerdict,
  opts: AppendOptions = {},
): void {
  mkdirSync(home.dir, { recursive: true });
  appendJsonLine(verdictsPath(home, runId), verdict, opts);
}

/** The anchored verdicts of a run (strictly read; a line that does not parse is skipped and reported). */
export function readAnchoredVerdicts(
  home: AnchorHome,
  runId: string,
): { verdicts: AnchoredVerdict[]; diagnostics: Diagnostic[] } {
  const shown = shownAnchor(home, runId).verdicts;
  let bytes: Buffer;
  try {
    bytes = readFileSync(verdictsPath(home, runId));
  } catch {
    return { verdicts: [], diagnostics: [] };
  }
  const verdicts: AnchoredVerdict[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = bytes.toString("latin1").split("\n");
  let offset = 0;
  lines.forEach((l, i) => {
    const chunk = bytes.subarray(offset, offset + l.length);
    offset += l.length + 1;
    if (l.trim() === "") return;
    const json = parseJsonBytes(chunk, shown);
    if (json.ok && isPlain(json.value)) verdicts.push(json.value as unknown as AnchoredVerdict);
    else {
      const d = diag("result.anchor-invalid", `line ${i + 1} of the anchored verdicts does not parse`, shown);
      d.line = i + 1;
      diagnostics.push(d);
    }
  });
  return { verdicts, diagnostics };
}
