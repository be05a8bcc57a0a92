/**
 * The real-tree rules: compare the frozen baseline with the candidate as it is now.
 *
 * - Any role: HEAD must not have moved (`result.head-moved`).
 * - Read-only roles: nothing may have changed — no dirty-manifest difference and no change to an input
 *   (`result.stale`, one per changed path).
 * - The wright: no allowlisted file may have a second hard link (`result.hard-link`); every changed path must
 *   be allowlisted (`result.out-of-scope`) and declared
 *   (`result.undeclared-write`); every declared write must really have happened (`result.phantom-write`)
 *   with the declared op (`result.op-mismatch`) and the declared hash (`result.hash-mismatch`).
 *
 * The rules end in DISALLOW: a change is accepted only when a rule positively explains it.
 */

import { diffSnapshots, type ManifestEntry } from "../baseline/index.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { ROLES } from "../envelope/roles.js";
import type { AgentPacket, RepoWrite } from "../envelope/types.js";
import type { BaselineRecord } from "./baseline-record.js";
import { diag } from "./codes.js";

/** The candidate as the edge found it now. */
export interface CurrentTree {
  /** `git rev-parse HEAD`, `unborn` or `no-git`. */
  head: string;
  /** The dirty manifest now. */
  entries: ManifestEntry[];
  /** The packet's touched paths (allowlist and inputs) as they are on disk now. */
  touched: ManifestEntry[];
  /** Allowlisted paths that are regular files with more than one hard link now, with their link count. */
  hardLinked?: { path: string; nlink: number }[];
}

export interface TreeOutcome {
  diagnostics: Diagnostic[];
  /** Every path that differs from the baseline, sorted by bytes. */
  changedPaths: string[];
}

/**
 * @param declared the result's declared repository writes, or `undefined` when the result could not be
 *   parsed (then only the checks that do not depend on the result run: HEAD, staleness, out-of-scope).
 */
export function checkTree(
  packet: AgentPacket,
  baseline: BaselineRecord,
  current: CurrentTree,
  declared: readonly RepoWrite[] | undefined,
): TreeOutcome {
  const out: Diagnostic[] = [];
  const headMoved = current.head !== baseline.head;
  if (headMoved) {
    out.push(
      diag(
        "result.head-moved",
        `HEAD moved from ${baseline.head} to ${current.head} since the packet was frozen`,
      ),
    );
  }
  const changed = changedPaths(baseline, current, headMoved);
  const readOnly = ROLES[packet.role].mode === "read-only";
  if (readOnly) {
    for (const p of changed) {
      out.push(diag("result.stale", `${p} changed after the packet was frozen`, p));
    }
    return { diagnostics: out, changedPaths: changed };
  }

  const allowed = new Set(packet.scope.allowed_repo_writes);
  for (const h of current.hardLinked ?? []) {
    if (!allowed.has(h.path)) continue;
    out.push(
      diag(
        "result.hard-link",
        `${h.path} has ${h.nlink} hard links: the same bytes live at a path outside the allowlist`,
        h.path,
      ),
    );
  }
  const declaredPaths = declared && new Set(declared.map((w) => w.path));
  for (const p of changed) {
    if (!allowed.has(p)) out.push(diag("result.out-of-scope", `${p} changed but is not on the allowlist`, p));
    if (declaredPaths && !declaredPaths.has(p)) {
      out.push(diag("result.undeclared-write", `${p} changed but the result does not declare it`, p));
    }
  }
  if (declared !== undefined) {
    const before = byPath(baseline.touched);
    const after = byPath(current.touched);
    for (const w of declared) {
      if (!allowed.has(w.path)) continue; // reported as result.write-not-allowed; never read from disk
      out.push(
        ...checkDeclaredWrite(w, before.get(w.path) ?? missing(w.path), after.get(w.path) ?? missing(w.path)),
      );
    }
  }
  return { diagnostics: out, changedPaths: changed };
}

/** in-toto style: CREATE absent→present, MODIFY present→present with a different state, DELETE present→absent. */
function checkDeclaredWrite(w: RepoWrite, before: ManifestEntry, after: ManifestEntry): Diagnostic[] {
  const out: Diagnostic[] = [];
  const existedBefore = before.type !== "missing";
  const existsAfter = after.type !== "missing";
  if (sameState(before, after)) {
    out.push(
      diag(
        "result.phantom-write",
        `declared ${w.op} of ${w.path}, but it is unchanged since the baseline`,
        w.path,
      ),
    );
  } else {
    const happened = existedBefore ? (existsAfter ? "modify" : "delete") : "create";
    if (happened !== w.op) {
      out.push(
        diag(
          "result.op-mismatch",
          `declared ${w.op} of ${w.path}, but on disk it was a ${happened} (${before.type} → ${after.type})`,
          w.path,
        ),
      );
    }
  }
  if (w.op !== "delete" && (after.type !== "file" || after.sha256 !== w.sha256_after)) {
    const disk =
      after.type === "file" ? after.sha256 : after.type === "missing" ? "absent" : `a ${after.type}`;
    out.push(
      diag(
        "result.hash-mismatch",
        `declared sha256_after ${w.sha256_after} for ${w.path}, but on disk it is ${disk}`,
        w.path,
      ),
    );
  }
  return out;
}

/**
 * Paths whose state differs from the baseline: the dirty-manifest difference (meaningless, and skipped, when
 * HEAD moved: both manifests are relative to their own HEAD) and any touched path whose on-disk state
 * changed (valid whatever HEAD did; it also covers ignored files, which no dirty manifest lists).
 */
function changedPaths(baseline: BaselineRecord, current: CurrentTree, headMoved: boolean): string[] {
  const paths = new Set<string>();
  if (!headMoved) {
    const before = { head: baseline.head, entries: baseline.dirty, stats: NO_STATS };
    const after = { head: current.head, entries: current.entries, stats: NO_STATS };
    // The index's side of a path (`.git/index/<path>`) is that path: staging a change is changing it.
    for (const c of diffSnapshots(before, after))
      paths.add(c.path.startsWith(INDEX_PREFIX) ? c.path.slice(INDEX_PREFIX.length) : c.path);
  }
  const after = byPath(current.touched);
  for (const b of baseline.touched) {
    const a = after.get(b.path) ?? missing(b.path);
    if (!sameState(a, b)) paths.add(b.path);
  }
  return [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
}

const INDEX_PREFIX = ".git/index/";

/** `diffSnapshots` takes snapshots; their work counters do not enter the comparison. */
const NO_STATS = { hashedFiles: 0, hashedBytes: 0 };

function sameState(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.type === b.type && a.exec === b.exec && a.sha256 === b.sha256;
}

function byPath(entries: readonly ManifestEntry[]): Map<string, ManifestEntry> {
  return new Map(entries.map((e) => [e.path, e]));
}

function missing(path: string): ManifestEntry {
  return { path, type: "missing", exec: false, sha256: null };
}
