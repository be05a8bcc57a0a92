import {
  closeSync,
  constants,
  fstatSync,
  fsync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.js";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import type { RunId } from "../envelope/types.js";
import { type RunEvent, STATE_SCHEMA, type WorkspaceState } from "./workspace-types.js";

/** The workspace folder name, relative to the repository root. */
export const WORKSPACE_DIR = ".devrites";

/** Repository-relative paths inside the workspace. One place computes them. */
export const workspacePaths = {
  state: `${WORKSPACE_DIR}/state.json`,
  runs: `${WORKSPACE_DIR}/runs`,
  runDir: (runId: RunId) => `${WORKSPACE_DIR}/runs/${runId}`,
  packet: (runId: RunId) => `${WORKSPACE_DIR}/runs/${runId}/packet.json`,
  baseline: (runId: RunId) => `${WORKSPACE_DIR}/runs/${runId}/baseline.json`,
  result: (runId: RunId) => `${WORKSPACE_DIR}/runs/${runId}/result.json`,
  events: (runId: RunId) => `${WORKSPACE_DIR}/runs/${runId}/events.jsonl`,
  questions: `${WORKSPACE_DIR}/questions.jsonl`,
  decisions: `${WORKSPACE_DIR}/decisions.jsonl`,
  /** Held by the one process driving the engine; holds its pid. */
  lock: `${WORKSPACE_DIR}/engine.lock`,
  /** Held for a moment by a command appending to questions.jsonl or decisions.jsonl (`withRecordsLock`). */
  recordsLock: `${WORKSPACE_DIR}/records.lock`,
} as const;

export function emptyState(now: string): WorkspaceState {
  return { schema: STATE_SCHEMA, active_rite: null, phase: null, active_runs: [], updated_at: now };
}

export type StateRead =
  /** `sha256`: of the bytes parsed (null when absent), the `from` of the write that follows (records journal). */
  | { ok: true; state: WorkspaceState; exists: boolean; sha256: string | null }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Read one of the CLI's workspace records as it is: a regular file only, never through a symlink, never
 * waiting (a FIFO put in its place would hold the command while its records are changed under it). Absent →
 * null; anything else that is not a regular file throws with the code `ENOTREG`.
 */
export function readRecordBytes(abs: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") throw notRegular(abs, "a symlink");
    throw e;
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(abs, "not a regular file");
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The error for a record that is not a regular file (code `ENOTREG`). */
export function notRegular(abs: string, what: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(
    `${abs} is ${what}: devrites reads and writes its records only as regular files`,
  );
  e.code = "ENOTREG";
  return e;
}

/**
 * Read `.devrites/state.json`. A missing file is an empty state; an unreadable or malformed one is a
 * diagnostic (never silently replaced, so nothing of the user's is lost).
 */
export function readState(root: string, now: string): StateRead {
  const rel = workspacePaths.state;
  let bytes: Buffer | null;
  try {
    bytes = readRecordBytes(join(root, rel));
  } catch (e) {
    return { ok: false, diagnostics: [error("workspace.unreadable", (e as Error).message, { path: rel })] };
  }
  if (bytes === null) return { ok: true, state: emptyState(now), exists: false, sha256: null };
  const text = bytes.toString("utf8");
  try {
    const parsed = JSON.parse(text) as WorkspaceState;
    if (parsed?.schema !== STATE_SCHEMA || !Array.isArray(parsed.active_runs)) {
      return {
        ok: false,
        diagnostics: [
          error("workspace.state-invalid", `expected a ${STATE_SCHEMA} object`, {
            path: rel,
            hint: "restore the file from version control, or move it aside to start a fresh journey",
          }),
        ],
      };
    }
    return { ok: true, state: parsed, exists: true, sha256: sha256Hex(bytes) };
  } catch (e) {
    return {
      ok: false,
      diagnostics: [
        error("workspace.state-invalid", `not valid JSON: ${(e as Error).message}`, {
          path: rel,
          hint: "restore the file from version control, or move it aside to start a fresh journey",
        }),
      ],
    };
  }
}

/**
 * Write `state.json` as it is; returns the SHA-256 of the bytes written. Commands call `writeStateJournaled` (`./records-journal.ts`), which also tells
 * the active runs' records journals, so that their checks can tell the CLI's write from a leaf's.
 */
export function writeState(root: string, state: WorkspaceState): string {
  const text = `${JSON.stringify(state, null, 2)}\n`;
  writeFileAtomic(join(root, workspacePaths.state), text);
  return sha256Hex(text);
}

/**
 * Append one event as a single line. O_APPEND writes of one buffer are not interleaved with other appenders
 * on local filesystems, and the file is never rewritten.
 */
export function appendEvent(root: string, event: RunEvent, opts: AppendOptions = {}): void {
  appendJsonLine(join(root, workspacePaths.events(event.run_id)), event, opts);
}

export interface AppendOptions {
  /**
   * fsync the file after the write (default true). Off only for high-rate evidence written on every tool call
   * (the guard's `guard.decision`), where a power cut losing the last lines is acceptable and an fsync on
   * every call (a large share of a hook's time; see `docs/hooks.md`, Speed) is not. A crash of the process itself loses nothing either way.
   */
  durable?: boolean;
  /**
   * Owe the fsync instead of paying it now: the open file is handed to `syncLater`, whose `flush()` fsyncs it
   * together with the others (concurrently) and closes it. For a batch of appends to many files (a wave of
   * results checked at once), where one fsync after another adds up their waits. The line is visible to
   * readers at once either way; the caller must `flush()` before it reports the batch as recorded.
   */
  syncLater?: PendingSyncs;
}

/** Appended files whose fsync is still owed (see `AppendOptions.syncLater`). */
export class PendingSyncs {
  #fds: number[] = [];

  /** Files held open, waiting for `flush()`. */
  get size(): number {
    return this.#fds.length;
  }

  hold(fd: number): void {
    this.#fds.push(fd);
  }

  /** fsync every held file, concurrently, and close them all; rejects with the first failure. */
  async flush(): Promise<void> {
    const fds = this.#fds.splice(0);
    const synced = await Promise.allSettled(
      fds.map((fd) => new Promise<void>((ok, fail) => fsync(fd, (e) => (e ? fail(e) : ok())))),
    );
    const failures = synced.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    for (const fd of fds) {
      try {
        closeSync(fd);
      } catch (e) {
        failures.push(e);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}

/**
 * Append one JSON value as one line and fsync it (now, or in `opts.syncLater.flush()`). When the file ends in a torn line (a crash mid-write), the
 * new line starts on a fresh line so it is not glued to the fragment: the fragment stays (reported by the
 * reader as a corrupt line) and nothing after it is lost.
 */
export function appendJsonLine(absPath: string, value: unknown, opts: AppendOptions = {}): void {
  mkdirSync(dirname(absPath), { recursive: true });
  const fd = openSync(absPath, "a+", 0o644);
  try {
    const size = fstatSync(fd).size;
    let tornEnd = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      tornEnd = last[0] !== 0x0a;
    }
    writeJsonLine(fd, value, tornEnd);
    if (opts.durable !== false && opts.syncLater) {
      opts.syncLater.hold(fd);
      return;
    }
    if (opts.durable !== false) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  closeSync(fd);
}

/**
 * Write one JSON value as one line at the end of the open file `fd` (opened to append), starting on a fresh
 * line when the file ends in a torn one (`tornEnd`) so the new line is not glued to the fragment. Returns the
 * bytes written.
 */
export function writeJsonLine(fd: number, value: unknown, tornEnd: boolean): Buffer {
  const buf = Buffer.from(`${tornEnd ? "\n" : ""}${JSON.stringify(value)}\n`, "utf8");
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  return buf;
}

/** Read one run's event ledger (tolerant: corrupt lines become diagnostics). */
export function readRunEvents(root: string, runId: RunId): JsonLines<RunEvent> {
  const rel = workspacePaths.events(runId);
  return readJsonLines<RunEvent>(join(root, rel), rel);
}

/**
 * The names of the folders under `.devrites/runs/`, sorted (run ids sort by creation time). Anything that is
 * not a directory is ignored here; `checkWorkspace` reports it.
 */
export function listRunDirs(root: string): string[] {
  try {
    return readdirSync(join(root, workspacePaths.runs), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

export interface JsonLines<T> {
  values: T[];
  /** The 1-based file line of each value, parallel to `values`. */
  lineNumbers: number[];
  diagnostics: Diagnostic[];
}

/** Read a JSON-lines file; a corrupt line becomes a diagnostic with its line number and is skipped. */
export function readJsonLines<T>(absPath: string, relPath: string): JsonLines<T> {
  let text: string;
  try {
    text = readFileSync(absPath, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT")
      return { values: [], lineNumbers: [], diagnostics: [] };
    return {
      values: [],
      lineNumbers: [],
      diagnostics: [error("workspace.unreadable", (e as Error).message, { path: relPath })],
    };
  }
  return parseJsonLines<T>(text, relPath);
}

/** One JSON value per line (tolerant: corrupt lines become diagnostics). Pure. */
export function parseJsonLines<T>(text: string, relPath: string): JsonLines<T> {
  const values: T[] = [];
  const lineNumbers: number[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      values.push(JSON.parse(line) as T);
      lineNumbers.push(i + 1);
    } catch {
      const torn = i === lines.length - 1;
      diagnostics.push(
        error(
          "ledger.corrupt-line",
          torn ? "last line is incomplete (torn write)" : "line is not valid JSON",
          {
            path: relPath,
            line: i + 1,
            hint: "the ledger is append-only: leave the line in place; devrites skips it",
          },
        ),
      );
    }
  });
  return { values, lineNumbers, diagnostics };
}
