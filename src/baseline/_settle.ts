/**
 * Settled paths: what a check can trust without reading it again (docs/tree-check.md, "Settled paths").
 *
 * The kernel sets a file's ctime on every change to it (write, truncate, chmod, link, rename) and user space
 * cannot set it back, and POSIX has every create, unlink, link and rename update the ctime of the directory
 * it happens in. So a path whose own ctime and whose every ancestor directory's ctime (up to the repository
 * root, itself pinned by device and inode) are all before an instant `cut` names the same object, unchanged,
 * that it named at `cut`. `packet new` records such an instant, taken before its snapshot read anything
 * (`takeStatMark`); at `result check` a settled dirty file keeps the hash its baseline recorded, a settled
 * ignored tree its signature, and a settled clean index entry needs no re-verification against its blob.
 * Anything not settled is read as before, so the rule can only save work, never decide a verdict alone.
 *
 * Not seen: a change on a file system whose clock runs behind the one that took the mark by more than the
 * slack (a network file system with a skewed server), or by a process that can set the clock back.
 */

import { closeSync, lstatSync, openSync, type Stats, unlinkSync } from "node:fs";
import { join } from "node:path";

/** What `packet new` fixes about the instant its snapshot began (kept in the run's anchor). */
export interface StatMark {
  /** Milliseconds since the epoch: whatever last changed before this was as the baseline recorded it. */
  settled_before_ms: number;
  /** The repository root's `<dev>:<ino>`: a root swapped for another directory settles nothing. */
  root: string;
}

/**
 * How far before the mark a ctime must be. With a probe the mark is the file system's own clock, and the
 * slack covers a clock slewed back between two calls; without one it also covers the coarsest timestamps a
 * repository may live on (FAT's 2 s).
 */
export const PROBED_SLACK_MS = 1_000;
export const CLOCK_SLACK_MS = 3_000;

/** `<dev>:<ino>` of a directory, or undefined when it cannot be read. */
export function identityOf(abs: string): string | undefined {
  try {
    const st = lstatSync(abs, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The mark for a snapshot about to start in `root`. The probe is a file created and removed in `probeDir`
 * (the workspace folder, on the repository's file system): its ctime is that file system's clock now. When it
 * cannot be written the process clock stands in, with the wider slack. Undefined when the root cannot be read.
 */
export function takeStatMark(root: string, probeDir: string, nowMs = Date.now()): StatMark | undefined {
  const id = identityOf(root);
  if (id === undefined) return undefined;
  let before = nowMs - CLOCK_SLACK_MS;
  const probe = join(probeDir, `.clock-${process.pid}-${Math.random().toString(16).slice(2)}.devrites-tmp`);
  try {
    closeSync(openSync(probe, "wx"));
    try {
      before = Math.min(nowMs, lstatSync(probe).ctimeMs) - PROBED_SLACK_MS;
    } finally {
      unlinkSync(probe);
    }
  } catch {
    // the clock above stands
  }
  return { settled_before_ms: Math.floor(before), root: id };
}

/** A mark's shape, as an anchor must carry it. */
export function isStatMark(v: unknown): v is StatMark {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    Object.keys(o).length === 2 &&
    Number.isSafeInteger(o.settled_before_ms) &&
    (o.settled_before_ms as number) > 0 &&
    typeof o.root === "string" &&
    /^[0-9]+:[0-9]+$/.test(o.root)
  );
}

/** Whether a ctime (milliseconds, fraction allowed) is before the cut. Pure. */
export function settledAt(ctimeMs: number, cutMs: number): boolean {
  return Number.isFinite(ctimeMs) && ctimeMs < cutMs;
}

/**
 * An index entry's cached ctime, in whole seconds, against the cut: git compares only the seconds when it is
 * built without nanosecond support, so the nanoseconds of a forged entry prove nothing. Pure.
 */
export function settledSeconds(ctimeS: number, cutMs: number): boolean {
  return (ctimeS + 1) * 1000 <= cutMs;
}

/**
 * The settled test for one snapshot: a cut and a root. Directory answers are remembered (one lstat per
 * folder per snapshot); a root whose identity is not the mark's settles nothing.
 */
export class SettledTree {
  private readonly dirs = new Map<string, boolean>();
  readonly cutMs: number;
  private readonly rootAbs: string;
  private readonly rootOk: boolean;

  constructor(rootAbs: string, cutMs: number, rootId: string | undefined) {
    this.rootAbs = rootAbs;
    this.cutMs = cutMs;
    // identity first, ctime second: the root is lstat'ed once either way
    this.rootOk = rootId === undefined || identityOf(rootAbs) === rootId;
  }

  /** Whether the directory at `rel` (repository-relative, `""` for the root) and all above it are settled. */
  dir(rel: string): boolean {
    const known = this.dirs.get(rel);
    if (known !== undefined) return known;
    let ok: boolean;
    // a path that is not UTF-8 is spelled `\0hex:…` (`pathFromBytes`) and names no folder to lstat
    if (rel.includes("\u0000")) ok = false;
    else if (rel === "") ok = this.rootOk && this.statSettled(this.rootAbs, true);
    else {
      const slash = rel.lastIndexOf("/");
      ok = this.dir(slash < 0 ? "" : rel.slice(0, slash)) && this.statSettled(join(this.rootAbs, rel), true);
    }
    this.dirs.set(rel, ok);
    return ok;
  }

  /** Whether every directory above the repository path `rel` is settled (the path itself is the caller's). */
  above(rel: string): boolean {
    if (rel.includes("\u0000")) return false;
    const slash = rel.lastIndexOf("/");
    return this.dir(slash < 0 ? "" : rel.slice(0, slash));
  }

  /** Whether `st` (an lstat of the path `rel`) is settled, with every directory above it. */
  stats(rel: string, st: Stats): boolean {
    return settledAt(st.ctimeMs, this.cutMs) && this.above(rel);
  }

  private statSettled(abs: string, dir: boolean): boolean {
    try {
      const st = lstatSync(abs);
      return (dir ? st.isDirectory() : true) && settledAt(st.ctimeMs, this.cutMs);
    } catch {
      return false;
    }
  }
}
