/**
 * `runs/<run-id>/baseline.json`: the frozen baseline a packet was written against, stored beside the
 * packet by `devrites packet new`. It holds the dirty manifest (whose digest is the packet's
 * `baseline.dirty_sha256`) and the touched manifest (the allowlisted and input paths as they were on disk,
 * whose digest is `baseline.touched_sha256`). The validator recomputes every digest before trusting it: a
 * baseline edited after the packet was written is rejected as tampered.
 */

import { z } from "zod";
import { baselineId, type ManifestEntry, manifestDigest } from "../baseline/index.js";
import type { Diagnostic } from "../core/diagnostics.js";
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
const Digest = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/);
const Entry = z
  .object({
    path: z.string().min(1),
    type: z.enum(["file", "symlink", "missing", "submodule"]),
    exec: z.boolean(),
    sha256: Digest.nullable(),
  })
  .strict();
const Record = z
  .object({
    schema: z.literal(BASELINE_RECORD_SCHEMA),
    run_id: z.string(),
    head: z.string(),
    dirty: z.array(Entry),
    touched: z.array(Entry),
  })
  .strict();

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
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

export type BaselineRead = { ok: true; record: BaselineRecord } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Parse the stored text and prove it is the baseline the packet names: same run, same head, same path set,
 * and digests that recompute to the packet's `dirty_sha256`, `touched_sha256` and `id`.
 */
export function verifyBaselineRecord(text: string, packet: AgentPacket, path: string): BaselineRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return tampered(`not valid JSON: ${(e as Error).message}`, path);
  }
  const parsed = Record.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return tampered(
      `not a ${BASELINE_RECORD_SCHEMA} record${first ? ` (at ${first.path.join(".") || "(root)"}: ${first.message})` : ""}`,
      path,
    );
  }
  const record = parsed.data as BaselineRecord;
  const problems: string[] = [];
  const b = packet.baseline;
  if (record.run_id !== packet.run_id) problems.push(`run_id ${record.run_id} is not ${packet.run_id}`);
  if (record.head !== b.head) problems.push(`head ${record.head} is not the packet's ${b.head}`);
  const dirty = manifestDigest(record.dirty);
  if (dirty !== b.dirty_sha256)
    problems.push(`dirty manifest hashes to ${dirty}, the packet says ${b.dirty_sha256}`);
  const expectedTouched = packetTouchedPaths(packet);
  const storedTouched = record.touched.map((e) => e.path).sort(byBytes);
  if (expectedTouched.join("\0") !== storedTouched.join("\0")) {
    problems.push("the touched manifest does not cover exactly the packet's allowlisted and input paths");
  }
  const touched = manifestDigest(record.touched);
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
