/**
 * The records journal: how a run binds the workspace records the CLI itself writes while leaves run
 * (`state.json`, `questions.jsonl`, `decisions.jsonl`). A run's baseline leaves them out, since the root's own
 * commands change them mid-run (another packet, a question answered, a run retired); so instead every write
 * the CLI makes to one of them is journaled, as a step `{file, from, to}` (the file's SHA-256 before and
 * after, null for absent), beside the anchor of every run the write leaves active, in
 * `<run-id>.records.jsonl`. `packet new` opens a run's journal with the three files as they are, before its own
 * write of the state. A step's `from` is the digest of the bytes the command parsed, its `to` of the bytes it
 * produced (never a second read, which a FIFO or a rename race could answer differently); records are read
 * and written only as regular files, and appends go through one descriptor under `withRecordsLock`. A run
 * leaves the journal's care when it is retired: checked again after its acceptance (an anchored accepting
 * verdict), it is not judged on these records again; superseded or abandoned, it is judged as it leaves
 * (`tamperedRecordsWarning`).
 *
 * A run's check then requires, for each file, that every journaled step starts where the journal had the
 * file at some point, and that the file is now where it had it: a leaf's append of a forged answer, a
 * rewritten state, or either followed by an honest write of the CLI (which would otherwise carry the forgery
 * on), all show. Not seen: a file put back exactly to content the CLI wrote earlier in the same run (a
 * rollback), and a journal rewritten together with the file by a leaf that can write the anchor folder (the
 * sandbox keeps it read-only to leaves, as it does the anchor).
 *
 * Pure judging here (`judgeRecords`); the writers and the digests are the fs edges below it.
 */

import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.js";
import { type Diagnostic, warning } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { type AnchorHome, findAnchorHome, gitDirOf, recordsPath } from "./anchor-home.js";
import {
  appendJsonLine,
  notRegular,
  readRecordBytes,
  readState,
  workspacePaths,
  writeJsonLine,
  writeState,
} from "./workspace.js";
import type { WorkspaceState } from "./workspace-types.js";

/** The records a run's journal binds, as repository paths. */
export const JOURNALED_RECORDS = [
  workspacePaths.state,
  workspacePaths.questions,
  workspacePaths.decisions,
] as const;
export type JournaledRecord = (typeof JOURNALED_RECORDS)[number];

/** One journal line. `from` is absent on the lines that open the journal. */
export interface RecordStep {
  file: JournaledRecord;
  from?: string | null;
  to: string | null;
}

/** The largest journal a check reads: far past any run's writes, small enough to judge at once. */
export const MAX_JOURNAL_BYTES = 4 * 1024 * 1024;

/**
 * A record's digest now: SHA-256 of its bytes, null when absent, and a digest that matches nothing when it
 * cannot be read as a regular file (a symlink, a FIFO, a folder put in its place: `readRecordBytes`).
 */
export function recordDigest(root: string, file: JournaledRecord): string | null {
  try {
    const bytes = readRecordBytes(join(root, file));
    return bytes === null ? null : sha256Hex(bytes);
  } catch (e) {
    return `unreadable:${(e as NodeJS.ErrnoException).code ?? "error"}`;
  }
}

/** Every journaled record's digest now. */
export function recordDigests(root: string): Record<JournaledRecord, string | null> {
  return Object.fromEntries(JOURNALED_RECORDS.map((f) => [f, recordDigest(root, f)])) as Record<
    JournaledRecord,
    string | null
  >;
}

/** Start a run's journal with the records as they are (`packet new`, after the anchor, before the state). */
export function openRecordsJournal(home: AnchorHome, runId: string, root: string): void {
  const now = recordDigests(root);
  const lines = JOURNALED_RECORDS.map((file) => `${JSON.stringify({ file, to: now[file] })}\n`).join("");
  writeFileAtomic(recordsPath(home, runId), lines);
}

/**
 * Journal one write beside each of these runs' anchors. A run without a journal (outside git, or made by a
 * devrites before journals) is skipped, and a journal that cannot be appended to is left as it is: either
 * way that run's check rejects it and says which file, so nothing is trusted that was not journaled. The
 * lines are not fsynced (a wave of 200 active runs would pay 200 fsyncs on every write of the state): a
 * power cut that loses one makes that run's check reject, never accept.
 */
export function journalRecordWrite(
  root: string,
  step: Required<RecordStep>,
  runIds: readonly string[],
): void {
  if (runIds.length === 0) return;
  const gitDir = gitDirOf(root);
  for (const runId of new Set(runIds)) {
    const path = recordsPath(findAnchorHome(gitDir, root, runId), runId);
    if (!existsSync(path)) continue;
    try {
      appendJsonLine(path, step, { durable: false });
    } catch {
      // the run's check reports the file as changed outside the CLI
    }
  }
}

/**
 * Write `state.json` and journal it for every run it leaves active (a run the write retires, supersedes or
 * abandons is past its check). `from` is the digest of the bytes the caller parsed the state it changed from
 * (`StateRead.sha256`), not of a second read: what the write is derived from is what the journal vouches for.
 * Returns the digest of the bytes written (the next write's `from` for a caller that keeps the state).
 */
export function writeStateJournaled(root: string, state: WorkspaceState, from: string | null): string {
  const to = writeState(root, state);
  journalRecordWrite(
    root,
    { file: workspacePaths.state, from, to },
    state.active_runs.map((r) => r.run_id),
  );
  return to;
}

/** How long a command waits for another to finish its records write, and when a lock counts as left behind. */
const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 10_000;

/**
 * Run `fn` holding `.devrites/records.lock`, the one lock the CLI's appends to `questions.jsonl` and
 * `decisions.jsonl` take: read, append and journal happen as one step, so two commands appending at once
 * cannot leave a journal whose steps do not chain. A lock older than `LOCK_STALE_MS` was left by a crash and
 * is taken over; waiting longer than `LOCK_WAIT_MS` throws.
 */
export function withRecordsLock<T>(root: string, fn: () => T): T {
  const lock = join(root, workspacePaths.recordsLock);
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (lockAge(lock) > LOCK_STALE_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline)
        throw new Error(`${workspacePaths.recordsLock} is held by another devrites command; try again`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function lockAge(lock: string): number {
  try {
    return Date.now() - lstatSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

/** Open a record to append to, without following a symlink or waiting; whether it was there (O_EXCL decides). */
function openForAppend(abs: string): { fd: number; existed: boolean } {
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  try {
    return { fd: openSync(abs, flags | constants.O_CREAT | constants.O_EXCL, 0o644), existed: false };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  try {
    return { fd: openSync(abs, flags), existed: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw notRegular(abs, "a symlink");
    throw e;
  }
}

/**
 * Append one line to `questions.jsonl` or `decisions.jsonl`, built from the file's bytes as they are, and
 * journal it for every active run — all under `withRecordsLock` and through one descriptor opened without
 * following a symlink, so the bytes `build` parsed, the bytes appended to and the step's digests are the same
 * file's. `build` returns the value to append, or undefined to write nothing. Throws `ENOTREG` when the record
 * is not a regular file.
 */
export function appendRecord<T>(
  root: string,
  file: typeof workspacePaths.questions | typeof workspacePaths.decisions,
  build: (text: string) => T | undefined,
): T | undefined {
  return withRecordsLock(root, () => {
    const abs = join(root, file);
    const { fd, existed } = openForAppend(abs);
    try {
      if (!fstatSync(fd).isFile()) throw notRegular(abs, "not a regular file");
      const bytes = readFileSync(fd);
      const value = build(bytes.toString("utf8"));
      if (value === undefined) return undefined;
      const line = writeJsonLine(fd, value, bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a);
      fsyncSync(fd);
      const state = readState(root, new Date().toISOString());
      const runs = state.ok ? state.state.active_runs.map((r) => r.run_id) : [];
      const from = existed ? sha256Hex(bytes) : null;
      journalRecordWrite(root, { file, from, to: sha256Hex(Buffer.concat([bytes, line])) }, runs);
      return value;
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * The records a run's journal finds changed other than by the CLI, judged now; none when the run has no
 * readable journal (outside git, or made before journals). For a run about to leave the active set without a
 * check (superseded, abandoned: never an accepted one, which left it when it was retired), whose forgery no
 * check would otherwise report.
 */
export function tamperedRecordsOf(root: string, runId: string): JournaledRecord[] {
  const home = findAnchorHome(gitDirOf(root), root, runId);
  const read = readRecordsJournal(home, runId);
  if (!read.ok) return [];
  return judgeRecords(read.text, recordDigests(root)).flatMap((f) => (f.kind === "tampered" ? [f.file] : []));
}

/** The warning for a run leaving unchecked while its journal shows a record changed other than by the CLI. */
export function tamperedRecordsWarning(root: string, runId: string, how: string): Diagnostic[] {
  return tamperedRecordsOf(root, runId).map((file) =>
    warning(
      "workspace.records-tampered",
      `${file} was changed by something other than devrites while ${runId} was active, and the run ${how} without a check`,
      { path: file },
    ),
  );
}

/** What a journal says against the records now. */
export type RecordFinding =
  | { kind: "journal-invalid"; line: number; message: string }
  | { kind: "tampered"; file: JournaledRecord; message: string };

const DIGEST = /^[0-9a-f]{64}$/;
const isDigest = (v: unknown): v is string | null => v === null || (typeof v === "string" && DIGEST.test(v));
const isJournaled = (v: unknown): v is JournaledRecord =>
  typeof v === "string" && (JOURNALED_RECORDS as readonly string[]).includes(v);

/** One line's shape, exactly: `{file, to}` opening, `{file, from, to}` after. */
function parseStep(text: string): RecordStep | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return "is not JSON";
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "is not an object";
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort().join(",");
  if (keys !== "file,to" && keys !== "file,from,to") return `has the keys ${keys || "(none)"}`;
  if (!isJournaled(o.file)) return `names no journaled record (${JSON.stringify(o.file)})`;
  if (!isDigest(o.to) || ("from" in o && !isDigest(o.from)))
    return "carries a digest that is not SHA-256 hex or null";
  return o as unknown as RecordStep;
}

/**
 * Judge a run's journal (its text, strictly: one step per line, the three opening lines first, each file
 * opened once) against each record's digest now. Pure.
 */
export function judgeRecords(text: string, now: Record<JournaledRecord, string | null>): RecordFinding[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: RecordFinding[] = [];
  const ends = new Map<JournaledRecord, Set<string | null>>();
  const starts: { file: JournaledRecord; from: string | null; line: number }[] = [];
  for (const [i, raw] of lines.entries()) {
    const step = parseStep(raw);
    const line = i + 1;
    const opening = i < JOURNALED_RECORDS.length;
    const wrong =
      typeof step === "string"
        ? `the line ${step}`
        : opening && "from" in step
          ? "the journal does not open with the records as packet new found them"
          : !opening && !("from" in step)
            ? "a record is opened after the opening lines"
            : opening && ends.has(step.file)
              ? `${step.file} is opened twice`
              : undefined;
    if (wrong !== undefined || typeof step === "string") {
      out.push({ kind: "journal-invalid", line, message: wrong ?? "" });
      continue;
    }
    const seen = ends.get(step.file) ?? new Set<string | null>();
    seen.add(step.to);
    ends.set(step.file, seen);
    if (!opening) starts.push({ file: step.file, from: step.from ?? null, line });
  }
  if (out.length > 0) return out;
  if (ends.size !== JOURNALED_RECORDS.length)
    return [
      { kind: "journal-invalid", line: lines.length, message: "the journal does not open every record" },
    ];
  const tampered = new Set<JournaledRecord>();
  for (const s of starts)
    if (!ends.get(s.file)!.has(s.from) && !tampered.has(s.file)) {
      tampered.add(s.file);
      out.push({
        kind: "tampered",
        file: s.file,
        message: `${s.file} was changed by something other than devrites before devrites wrote it again (journal line ${s.line})`,
      });
    }
  for (const file of JOURNALED_RECORDS)
    if (!tampered.has(file) && !ends.get(file)!.has(now[file]))
      out.push({
        kind: "tampered",
        file,
        message: `${file} is not as devrites last wrote it during this run: it was changed by something other than devrites`,
      });
  return out;
}

/** A run's journal text, or why there is none to judge. */
export function readRecordsJournal(
  home: AnchorHome,
  runId: string,
): { ok: true; text: string } | { ok: false; missing: boolean; message: string } {
  const path = recordsPath(home, runId);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      missing: code === "ENOENT",
      message: code === "ENOENT" ? "no records journal" : `unreadable (${code})`,
    };
  }
  if (bytes.length > MAX_JOURNAL_BYTES)
    return { ok: false, missing: false, message: `larger than ${MAX_JOURNAL_BYTES} bytes` };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, missing: false, message: "not UTF-8" };
  }
}
