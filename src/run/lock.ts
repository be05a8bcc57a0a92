import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Code, type Diagnostic, error } from "../core/diagnostics.js";
import { workspacePaths } from "./workspace.js";

/**
 * Pid lock files. A lock is a file created exclusively that holds its owner's pid; a lock whose process is
 * gone (killed) is taken over, a live one refuses. `.devrites/engine.lock`: one engine per workspace.
 * The installer holds its own lock (in the git folder, so an install never creates `.devrites/` just to lock).
 */
export type LockResult = { ok: true; release: () => void } | { ok: false; diagnostics: Diagnostic[] };

/** What a refusal says. */
export interface LockLabels {
  /** Diagnostic code of every refusal, e.g. `engine.locked`. */
  code: Code;
  /** The path shown in diagnostics. */
  shown: string;
  /** Message when this process already holds the lock. */
  heldHere: string;
  /** Message when another live process holds it (`{pid}` is replaced by its pid). */
  heldElsewhere: string;
  /** Hint for a lock held elsewhere. */
  hint: string;
}

/** Locks this process holds (so a second taker in the same process is refused too). */
const held = new Set<string>();

/** Take the lock file `abs` (its folder is created when missing). */
export function acquireFileLock(abs: string, labels: LockLabels, pid: number = process.pid): LockResult {
  const refuse = (message: string, hint?: string): LockResult => ({
    ok: false,
    diagnostics: [error(labels.code, message, { path: labels.shown, ...(hint ? { hint } : {}) })],
  });
  if (held.has(abs)) return refuse(labels.heldHere);
  mkdirSync(dirname(abs), { recursive: true });
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(abs, "wx", 0o644);
      try {
        writeSync(fd, `${pid}\n`);
      } finally {
        closeSync(fd);
      }
      held.add(abs);
      return {
        ok: true,
        release: () => {
          held.delete(abs);
          if (ownerOf(abs) === pid) rmSync(abs, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = ownerOf(abs);
      if (owner !== undefined && owner !== process.pid && alive(owner))
        return refuse(labels.heldElsewhere.replace("{pid}", String(owner)), labels.hint);
      // Dead owner, our own stale lock, or an unreadable lock: take it over.
      rmSync(abs, { force: true });
    }
  }
  return refuse("could not take the lock");
}

export function acquireEngineLock(root: string, pid: number = process.pid): LockResult {
  return acquireFileLock(
    join(root, workspacePaths.lock),
    {
      code: "engine.locked",
      shown: workspacePaths.lock,
      heldHere: "this process is already driving a journey in this workspace",
      heldElsewhere: "another devrites process (pid {pid}) is driving this journey",
      hint: "wait for it to finish; if no such process exists, remove the lock file",
    },
    pid,
  );
}

function ownerOf(abs: string): number | undefined {
  try {
    const n = Number.parseInt(readFileSync(abs, "utf8").trim(), 10);
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
