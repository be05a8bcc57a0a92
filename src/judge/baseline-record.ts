/**
 * `runs/<run-id>/baseline.json`: the frozen baseline a packet was written against, stored beside the
 * packet by `devrites packet new`. It holds the dirty manifest (whose digest is the packet's
 * `baseline.dirty_sha256`) and the touched manifest (the allowlisted and input paths as they were on disk,
 * whose digest is `baseline.touched_sha256`). The validator recomputes every digest before trusting it: a
 * baseline edited after the packet was written is rejected as tampered.
 */

import { baselineId, type ManifestEntry, manifestDigest } from "../baseline/index.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { type KnownValue, parseReusing, topLevelValueText } from "../core/json-reuse.js";
import { parseJsonText } from "../envelope/parse.js";
import type { AgentPacket, RunId } from "../envelope/types.js";
import { diag } from "./codes.js";

export const BASELINE_RECORD_SCHEMA = "devrites-baseline/v1";

export interface BaselineRecord {
  schema: typeof BASELINE_RECORD_SCHEMA;
  run_id: RunId;
  /** The packet's `baseline.head`. */
  head: string;
  /** Every path that differed from HEAD (or was untracked, not ignored) at freeze time. */
  dirty: ManifestEntry[];
  /** The packet's allowlisted and input paths as they were on disk at freeze time (absent included). */
  touched: ManifestEntry[];
}

/** A content digest, or for a submodule the commit it has checked out (SHA-1 or SHA-256 repositories). */
const DIGEST = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ENTRY_TYPES: ReadonlySet<unknown> = new Set(["file", "symlink", "missing", "submodule"]);
const ENTRY_KEYS = ["exec", "path", "sha256", "type"];
const RECORD_KEYS = ["dirty", "head", "run_id", "schema", "touched"];

/**
 * The exact shape of a record, checked by hand: a baseline holds thousands of entries and this runs once
 * per result checked. Closed objects: an unknown or missing key is a defect. Returns the first defect of
 * the record itself; the manifests are checked by `manifest`.
 */
function recordDefect(raw: unknown): string | undefined {
  if (!isPlainObject(raw)) return "not an object";
  if (!sameKeys(raw, RECORD_KEYS)) return `expected exactly the fields ${RECORD_KEYS.join(", ")}`;
  if (raw.schema !== BASELINE_RECORD_SCHEMA) return `schema is not ${BASELINE_RECORD_SCHEMA}`;
  if (typeof raw.run_id !== "string" || typeof raw.head !== "string")
    return "run_id and head must be strings";
  return undefined;
}

/** A manifest's shape and digest. */
function manifest(
  field: "dirty" | "touched",
  list: unknown,
): { ok: true; digest: string } | { ok: false; defect: string } {
  if (!Array.isArray(list)) return { ok: false, defect: `${field} is not an array` };
  for (let i = 0; i < list.length; i++) {
    const defect = entryDefect(list[i]);
    if (defect) return { ok: false, defect: `${field}[${i}]: ${defect}` };
  }
  return { ok: true, digest: manifestDigest(list as ManifestEntry[]) };
}

/**
 * Dirty manifests checked recently, by their exact text, with their parse and digest. A wave of leaves
 * dispatched on one frozen candidate stores the same dirty manifest in every run, and checking the wave
 * would otherwise parse, check and hash it once per result; a record whose dirty manifest is exactly a
 * remembered text reuses all three (`parseReusing` still parses the rest of the record). The last eight
 * are kept, the oldest forgotten first. Parses are frozen: every record that reuses one shares it.
 */
const knownDirty: (KnownValue & { digest: string })[] = [];
const KNOWN_DIRTY_MAX = 8;

function rememberDirty(text: string, list: ManifestEntry[], digest: string): void {
  const dirtyText = topLevelValueText(text, "dirty");
  if (dirtyText === undefined) return;
  for (const e of list) Object.freeze(e);
  if (knownDirty.length >= KNOWN_DIRTY_MAX) knownDirty.shift();
  knownDirty.push({ text: dirtyText, value: Object.freeze(list), digest });
}

function entryDefect(e: unknown): string | undefined {
  if (!isPlainObject(e) || !sameKeys(e, ENTRY_KEYS))
    return `expected exactly the fields ${ENTRY_KEYS.join(", ")}`;
  if (typeof e.path !== "string" || e.path === "") return "path must be a non-empty string";
  if (!ENTRY_TYPES.has(e.type)) return "type must be file, symlink, missing or submodule";
  if (typeof e.exec !== "boolean") return "exec must be a boolean";
  if (e.sha256 !== null && (typeof e.sha256 !== "string" || !DIGEST.test(e.sha256)))
    return "sha256 must be null or lowercase hex";
  return undefined;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function sameKeys(o: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(o);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(o, k));
}

/** The repository paths a touched manifest covers: the allowlist and the inputs, each once, sorted by bytes. */
export function touchedPaths(allow: readonly string[], inputs: readonly string[]): string[] {
  return [...new Set([...allow, ...inputs])].sort(byBytes);
}

/** The touched paths of a packet. */
export function packetTouchedPaths(packet: Pick<AgentPacket, "scope" | "inputs">): string[] {
  return touchedPaths(
    packet.scope.allowed_repo_writes,
    packet.inputs.map((i) => i.path),
  );
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export type BaselineRead = { ok: true; record: BaselineRecord } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Parse the stored text and prove it is the baseline the packet names: same run, same head, same path set,
 * and digests that recompute to the packet's `dirty_sha256`, `touched_sha256` and `id`.
 */
export function verifyBaselineRecord(text: string, packet: AgentPacket, path: string): BaselineRead {
  let raw: unknown;
  let known: (typeof knownDirty)[number] | undefined;
  for (const k of knownDirty) {
    raw = parseReusing(text, "dirty", k);
    if (raw === undefined) continue;
    known = k;
    break;
  }
  if (known === undefined) {
    const json = parseJsonText(text, path);
    if (!json.ok) {
      // The strict reader's own refusals keep their codes; a syntax error is a tampered record.
      const strict = json.diagnostics.filter((d) => d.code !== "envelope.malformed-json");
      if (strict.length > 0) return { ok: false, diagnostics: strict };
      return tampered(`not valid JSON: ${json.diagnostics[0]!.message}`, path);
    }
    raw = json.value;
  } else {
    // The reused manifest's text was read strictly when it was remembered; the rest is read strictly here,
    // with null in its place (it is the one top-level `dirty`, so replacing its only occurrence is exact).
    const at = text.indexOf(known.text);
    const rest =
      at >= 0 && text.indexOf(known.text, at + 1) < 0
        ? `${text.slice(0, at)}null${text.slice(at + known.text.length)}`
        : text;
    const json = parseJsonText(rest, path);
    if (!json.ok) return { ok: false, diagnostics: json.diagnostics };
  }
  const defect = recordDefect(raw);
  if (defect !== undefined) return tampered(`not a ${BASELINE_RECORD_SCHEMA} record: ${defect}`, path);
  const dirtyManifest = known ?? manifest("dirty", (raw as Record<string, unknown>).dirty);
  if (!("digest" in dirtyManifest))
    return tampered(`not a ${BASELINE_RECORD_SCHEMA} record: ${dirtyManifest.defect}`, path);
  if (known === undefined) rememberDirty(text, (raw as BaselineRecord).dirty, dirtyManifest.digest);
  const touchedManifest = manifest("touched", (raw as Record<string, unknown>).touched);
  if (!touchedManifest.ok)
    return tampered(`not a ${BASELINE_RECORD_SCHEMA} record: ${touchedManifest.defect}`, path);
  const record = raw as BaselineRecord;
  const problems: string[] = [];
  const b = packet.baseline;
  if (record.run_id !== packet.run_id) problems.push(`run_id ${record.run_id} is not ${packet.run_id}`);
  if (record.head !== b.head) problems.push(`head ${record.head} is not the packet's ${b.head}`);
  const dirty = dirtyManifest.digest;
  if (dirty !== b.dirty_sha256)
    problems.push(`dirty manifest hashes to ${dirty}, the packet says ${b.dirty_sha256}`);
  const expectedTouched = packetTouchedPaths(packet);
  const storedTouched = record.touched.map((e) => e.path).sort(byBytes);
  if (expectedTouched.join("\0") !== storedTouched.join("\0")) {
    problems.push("the touched manifest does not cover exactly the packet's allowlisted and input paths");
  }
  const touched = touchedManifest.digest;
  if (touched !== b.touched_sha256) {
    problems.push(`touched manifest hashes to ${touched}, the packet says ${b.touched_sha256}`);
  }
  const id = baselineId(record.head, dirty, touched);
  if (id !== b.id) problems.push(`the identity recomputes to ${id}, the packet says ${b.id}`);
  if (problems.length > 0) return tampered(problems.join("; "), path);
  return { ok: true, record };
}

function tampered(message: string, path: string): BaselineRead {
  return { ok: false, diagnostics: [diag("result.baseline-tampered", message, path)] };
}
