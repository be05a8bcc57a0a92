/**
 * Load what the guard needs from the workspace: the active runs in `.devrites/state.json` and, for each,
 * `run_id`, `role` and `scope.allowed_repo_writes` from its `packet.json`. Nothing else is parsed (no schema
 * library on the hot path); anything inconsistent is a diagnostic and the caller fails closed for leaves.
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { isRunId } from "../envelope/ids.js";
import { isRoleName } from "../envelope/roles.js";
import type { ActivePacket } from "../guard/index.js";
import { readState, workspacePaths } from "../run/workspace.js";

/** Largest state or packet file the hook reads. Both are small JSON written by the CLI. */
export const MAX_WORKSPACE_FILE_BYTES = 1024 * 1024;

/** One active run as the guard needs it. */
export type LoadedPacket = ActivePacket;

export type PacketsLoad = { ok: true; packets: LoadedPacket[] } | { ok: false; diagnostics: Diagnostic[] };

export function loadActivePackets(root: string, now: string): PacketsLoad {
  const tooBig = checkSize(root, workspacePaths.state);
  if (tooBig) return { ok: false, diagnostics: [tooBig] };
  const state = readState(root, now);
  if (!state.ok) return state;
  const packets: LoadedPacket[] = [];
  const diagnostics: Diagnostic[] = [];
  state.state.active_runs.forEach((run: unknown, i) => {
    const loaded = loadOne(root, run, i);
    if ("diagnostic" in loaded) diagnostics.push(loaded.diagnostic);
    else packets.push(loaded);
  });
  return diagnostics.length > 0 ? { ok: false, diagnostics } : { ok: true, packets };
}

function loadOne(root: string, run: unknown, index: number): LoadedPacket | { diagnostic: Diagnostic } {
  const where = `${workspacePaths.state}: active_runs[${index}]`;
  if (run === null || typeof run !== "object") return bad(where, "is not an object", workspacePaths.state);
  const { run_id: runId, role } = run as Record<string, unknown>;
  if (!isRunId(runId)) return bad(where, `has no usable run_id (${show(runId)})`, workspacePaths.state);
  if (!isRoleName(role)) return bad(where, `names no devrites role (${show(role)})`, workspacePaths.state);
  const rel = workspacePaths.packet(runId);
  const tooBig = checkSize(root, rel);
  if (tooBig) return { diagnostic: tooBig };
  let packet: unknown;
  try {
    packet = JSON.parse(readFileSync(join(root, rel), "utf8"));
  } catch (e) {
    return bad(`the packet of active run ${runId}`, `cannot be read: ${(e as Error).message}`, rel);
  }
  if (packet === null || typeof packet !== "object") return bad("the packet", "is not a JSON object", rel);
  const p = packet as Record<string, unknown>;
  if (p.run_id !== runId) return bad("the packet", `has run_id ${show(p.run_id)}, not ${runId}`, rel);
  if (p.role !== role) return bad("the packet", `has role ${show(p.role)}, but state.json says ${role}`, rel);
  const scope = p.scope;
  const writes =
    scope !== null && typeof scope === "object"
      ? (scope as Record<string, unknown>).allowed_repo_writes
      : undefined;
  if (!Array.isArray(writes) || !writes.every((w) => typeof w === "string"))
    return bad("the packet", "has no scope.allowed_repo_writes list of strings", rel);
  return { run_id: runId, role, allowed_repo_writes: [...writes] };
}

function checkSize(root: string, rel: string): Diagnostic | undefined {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(join(root, rel), { throwIfNoEntry: false });
  } catch (e) {
    return error("workspace.unreadable", (e as Error).message, { path: rel });
  }
  if (st === undefined) return undefined; // readers report absence themselves
  if (!st.isFile()) return error("workspace.unreadable", "is not a regular file", { path: rel });
  if (st.size > MAX_WORKSPACE_FILE_BYTES)
    return error("workspace.unreadable", `is larger than ${MAX_WORKSPACE_FILE_BYTES} bytes`, { path: rel });
  return undefined;
}

function bad(what: string, message: string, path: string): { diagnostic: Diagnostic } {
  return {
    diagnostic: error("workspace.packet-invalid", `${what} ${message}`, {
      path,
      hint: "the workspace is written by the devrites CLI only; restore it or abandon the run from the root session",
    }),
  };
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
