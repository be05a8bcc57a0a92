/**
 * All or nothing on a user's repository. A transaction (1) records what every path it will touch holds now
 * (bytes, mode, symlink text, absence) and which folders it will create, in a journal written and fsynced
 * before anything changes; (2) stages every new file as a fsynced temp file beside its destination, so a full
 * disk or an unwritable folder fails before any visible change; (3) commits by renames and unlinks; and on any
 * error (4) puts every path back exactly as the journal recorded it and removes the folders it created. A
 * process killed midway leaves the journal: the next run replays it (`recoverJournal`) before doing anything.
 */

import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fsyncDir, type StagedFile, stageFile, tempPathFor, writeFileAtomic } from "../core/atomic-write.js";
import { type Diagnostic, error, warning } from "../core/diagnostics.js";

export type TxOp =
  | { op: "write"; rel: string; bytes: Buffer; mode: number; exactMode?: boolean }
  | { op: "remove"; rel: string }
  /** Move `rel` to `to` (which must be absent). */
  | { op: "rename"; rel: string; to: string }
  /** Remove the folder `rel` if it is empty (a non-empty or absent folder is left alone). */
  | { op: "rmdir"; rel: string };

export type Prior =
  | { kind: "absent" }
  | { kind: "file"; base64: string; mode: number }
  | { kind: "link"; target: string }
  | { kind: "dir"; mode: number };

export const JOURNAL_SCHEMA = "devrites-install-journal/v1";

export interface Journal {
  schema: typeof JOURNAL_SCHEMA;
  /** The target the journal belongs to (absolute). */
  root: string;
  /** Every touched path (target-relative) and what it held before. */
  entries: { path: string; prior: Prior }[];
  /** Folders the transaction creates, parents first. */
  dirs: string[];
  /** Temp files it stages. */
  temps: string[];
}

export interface TxOptions {
  /** The target (absolute); every `rel` is inside it. */
  root: string;
  /** The journal file (absolute; outside the paths the transaction touches). */
  journal: string;
  /** Tests: called after each committed op; throwing there simulates a failure midway. */
  afterOp?: (index: number, op: TxOp) => void;
}

export type TxResult =
  | { ok: true; createdDirs: string[] }
  | { ok: false; diagnostics: Diagnostic[]; rolledBack: boolean };

function priorOf(abs: string): Prior {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { kind: "absent" };
    throw e;
  }
  if (st.isSymbolicLink()) return { kind: "link", target: readlinkSync(abs) };
  if (st.isDirectory()) return { kind: "dir", mode: st.mode & 0o7777 };
  if (!st.isFile()) throw new Error(`${abs} is not a regular file`);
  return { kind: "file", base64: readFileSync(abs).toString("base64"), mode: st.mode & 0o7777 };
}

function samePrior(a: Prior, b: Prior): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function touched(op: TxOp): string[] {
  return op.op === "rename" ? [op.rel, op.to] : [op.rel];
}

/** Folders missing between `root` and each written path, parents first. */
export function missingDirs(root: string, rels: readonly string[]): string[] {
  const out = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join("/");
      if (out.has(d)) continue;
      if (!existsSync(join(root, d))) out.add(d);
    }
  }
  return [...out].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
}

export function runTransaction(ops: readonly TxOp[], opts: TxOptions): TxResult {
  const { root } = opts;
  const abs = (rel: string) => join(root, rel);
  let journal: Journal;
  try {
    const entries = new Map<string, Prior>();
    for (const op of ops)
      for (const rel of touched(op)) if (!entries.has(rel)) entries.set(rel, priorOf(abs(rel)));
    const writes = ops.filter((o): o is Extract<TxOp, { op: "write" }> => o.op === "write");
    const renames = ops.filter((o): o is Extract<TxOp, { op: "rename" }> => o.op === "rename");
    const dirs = missingDirs(root, [...writes.map((w) => w.rel), ...renames.map((r) => r.to)]);
    journal = {
      schema: JOURNAL_SCHEMA,
      root,
      entries: [...entries].map(([path, prior]) => ({ path, prior })),
      dirs,
      temps: writes.map((w) => tempPathFor(w.rel)),
    };
    writeFileAtomic(opts.journal, `${JSON.stringify(journal)}\n`);
  } catch (e) {
    return {
      ok: false,
      rolledBack: true,
      diagnostics: [
        error("install.failed", `nothing was changed: ${(e as Error).message}`, {
          hint: "fix the cause (permissions, disk space) and rerun",
        }),
      ],
    };
  }

  const staged = new Map<number, StagedFile>();
  try {
    for (const d of journal.dirs) mkdirSync(abs(d));
    let w = 0;
    ops.forEach((op, i) => {
      if (op.op !== "write") return;
      const tmp = journal.temps[w++];
      staged.set(
        i,
        stageFile(abs(op.rel), op.bytes, op.mode, { tmp: abs(tmp ?? ""), exactMode: op.exactMode === true }),
      );
    });
    ops.forEach((op, i) => {
      commitOne(root, op, staged.get(i));
      opts.afterOp?.(i, op);
    });
    for (const d of new Set(ops.map((o) => dirname(abs(o.rel))))) fsyncDir(d);
  } catch (e) {
    for (const s of staged.values()) s.discard();
    const back = rollback(root, journal);
    if (back.length === 0) rmSync(opts.journal, { force: true });
    const done = back.length === 0;
    const failed = error(
      "install.failed",
      `${(e as Error).message}; ${done ? "every change was rolled back" : "the rollback did not finish"}`,
      done ? { hint: "nothing was changed; fix the cause (permissions, disk space) and rerun" } : {},
    );
    return { ok: false, rolledBack: done, diagnostics: [failed, ...back] };
  }
  rmSync(opts.journal, { force: true });
  return { ok: true, createdDirs: journal.dirs };
}

function commitOne(root: string, op: TxOp, staged: StagedFile | undefined): void {
  const abs = join(root, op.rel);
  switch (op.op) {
    case "write":
      if (!staged) throw new Error(`internal: ${op.rel} was not staged`);
      staged.commit();
      return;
    case "remove":
      unlinkSync(abs);
      return;
    case "rename":
      if (priorOf(join(root, op.to)).kind !== "absent") throw new Error(`${op.to} appeared while installing`);
      renameSync(abs, join(root, op.to));
      return;
    case "rmdir":
      try {
        if (readdirSync(abs).length === 0) rmdirSync(abs);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST") throw e;
      }
      return;
  }
}

/** Put every journal entry back as it was and remove the folders the transaction created. Returns problems. */
function rollback(root: string, journal: Journal): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const t of journal.temps) rmSync(join(root, t), { force: true });
  // Folders that existed and were removed come back first, so the files inside them can.
  const ordered = [...journal.entries].sort(
    (a, b) => Number(b.prior.kind === "dir") - Number(a.prior.kind === "dir"),
  );
  for (const { path, prior } of ordered) {
    try {
      restore(join(root, path), prior);
    } catch (e) {
      problems.push(
        error("install.rollback-failed", `cannot put back: ${(e as Error).message}`, {
          path,
          hint: "the journal is kept; the next devrites init, update or uninstall replays it",
        }),
      );
    }
  }
  for (const d of [...journal.dirs].reverse()) {
    try {
      rmdirSync(join(root, d));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST")
        problems.push(
          error("install.rollback-failed", `cannot remove a folder it created: ${(e as Error).message}`, {
            path: d,
          }),
        );
    }
  }
  return problems;
}

function restore(abs: string, prior: Prior): void {
  const now = priorOf(abs);
  if (samePrior(now, prior)) return;
  if (prior.kind === "dir") {
    if (now.kind !== "absent") unlinkSync(abs);
    mkdirSync(abs, { mode: prior.mode });
    return;
  }
  if (now.kind === "dir") throw new Error(`${abs} is now a folder`);
  if (prior.kind === "absent") {
    if (now.kind !== "absent") unlinkSync(abs);
    return;
  }
  if (prior.kind === "link") {
    if (now.kind !== "absent") unlinkSync(abs);
    symlinkSync(prior.target, abs);
    return;
  }
  if (now.kind === "link") unlinkSync(abs);
  mkdirSync(dirname(abs), { recursive: true });
  const staged = stageFile(abs, Buffer.from(prior.base64, "base64"), prior.mode, { exactMode: true });
  try {
    staged.commit();
  } catch (e) {
    staged.discard();
    throw e;
  }
}

function parseJournal(text: string, root: string): Journal | undefined {
  try {
    const j = JSON.parse(text) as Journal;
    if (
      j?.schema !== JOURNAL_SCHEMA ||
      j.root !== root ||
      !Array.isArray(j.entries) ||
      !Array.isArray(j.dirs) ||
      !Array.isArray(j.temps)
    )
      return undefined;
    return j;
  } catch {
    return undefined;
  }
}

/**
 * A journal left by a run that did not finish (killed, power loss): put the target back as it was before that
 * run. `recovered` is false when there was no journal.
 */
export function recoverJournal(
  root: string,
  journalPath: string,
): { recovered: boolean; diagnostics: Diagnostic[] } {
  let text: string;
  try {
    text = readFileSync(journalPath, "utf8");
  } catch {
    return { recovered: false, diagnostics: [] };
  }
  const journal = parseJournal(text, root);
  if (!journal)
    return {
      recovered: false,
      diagnostics: [
        error("install.journal-corrupt", "an interrupted install left a journal that cannot be read", {
          path: journalPath,
          hint: "check the files devrites manages with git status, then delete the journal and rerun",
        }),
      ],
    };
  const problems = rollback(root, journal);
  if (problems.length > 0) return { recovered: false, diagnostics: problems };
  rmSync(journalPath, { force: true });
  return {
    recovered: true,
    diagnostics: [
      warning(
        "install.recovered",
        "an earlier run was interrupted midway; its changes were rolled back first",
        {
          hint: "nothing of yours was lost; the target is as it was before that run",
        },
      ),
    ],
  };
}
