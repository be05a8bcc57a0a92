import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { workspacePaths } from "./workspace.js";

/**
 * One engine per workspace at a time: `.devrites/engine.lock` is created exclusively and holds the owner's
 * pid. A lock whose process is gone (the engine was killed) is taken over; a live one refuses.
 */
export type LockResult = { ok: true; release: () => void } | { ok: false; diagnostics: Diagnostic[] };

/** Locks this process holds (so a second engine in the same process is refused too). */
const held = new Set<string>();

export function acquireEngineLock(root: string, pid: number = process.pid): LockResult {
  const abs = join(root, workspacePaths.lock);
  if (held.has(abs))
    return {
      ok: false,
      diagnostics: [
        error("engine.locked", "this process is already driving a journey in this workspace", {
          path: workspacePaths.lock,
        }),
      ],
    };
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
        return {
          ok: false,
          diagnostics: [
            error("engine.locked", `another devrites process (pid ${owner}) is driving this journey`, {
              path: workspacePaths.lock,
              hint: "wait for it to finish; if no such process exists, remove the lock file",
            }),
          ],
        };
      // Dead owner, our own stale lock, or an unreadable lock: take it over.
      rmSync(abs, { force: true });
    }
  }
  return {
    ok: false,
    diagnostics: [error("engine.locked", "could not take the engine lock", { path: workspacePaths.lock })],
  };
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
