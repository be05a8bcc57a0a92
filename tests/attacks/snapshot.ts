/**
 * Byte-for-byte snapshots of a directory tree, and the differences between two of them, for the attack corpus.
 *
 * A snapshot walks everything under its root without following symlinks: ignored folders, `.git/` and
 * `.devrites/` included. Each entry records its kind, permission bits, link count, size, the SHA-256 of a
 * regular file's content (and its mtime, so a `touch` counts) or a symlink's target. Directories are compared by
 * their entries and their mode; their own mtime is not compared (a temporary file made and removed inside a
 * directory is no effect).
 */

import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join } from "node:path";

export type EntryKind = "file" | "dir" | "symlink" | "other";

export interface Entry {
  kind: EntryKind;
  /** Permission bits and set-id bits (`mode & 0o7777`). */
  mode: number;
  nlink: number;
  size: number;
  /** Regular files: SHA-256 of the content. Symlinks: the target. */
  content: string;
  /** Regular files only (milliseconds); 0 otherwise. */
  mtimeMs: number;
}

export type Snapshot = Map<string, Entry>;

function kindOf(st: Stats): EntryKind {
  if (st.isSymbolicLink()) return "symlink";
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "dir";
  return "other";
}

/** Snapshot `root` (absent root: an empty snapshot). Paths are relative, `/`-separated; the root itself is `.`. */
export function snapshotTree(root: string): Snapshot {
  const out: Snapshot = new Map();
  const visit = (abs: string, rel: string): void => {
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch {
      return;
    }
    const kind = kindOf(st);
    let content = "";
    if (kind === "file") {
      try {
        content = createHash("sha256").update(readFileSync(abs)).digest("hex");
      } catch (e) {
        content = `unreadable: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
      }
    } else if (kind === "symlink") {
      content = readlinkSync(abs);
    }
    out.set(rel, {
      kind,
      mode: Number(st.mode) & 0o7777,
      nlink: Number(st.nlink),
      size: kind === "dir" ? 0 : Number(st.size),
      content,
      mtimeMs: kind === "file" ? Number(st.mtimeMs) : 0,
    });
    if (kind === "dir") {
      let names: string[] = [];
      try {
        names = readdirSync(abs);
      } catch {
        names = [];
      }
      for (const name of names.sort()) visit(join(abs, name), rel === "." ? name : `${rel}/${name}`);
    }
  };
  visit(root, ".");
  return out;
}

export interface Change {
  path: string;
  /** e.g. `created file`, `deleted`, `content`, `mode 644 -> 755`, `nlink 1 -> 2`, `symlink -> x`. */
  what: string[];
}

const oct = (n: number) => n.toString(8);

function describeEntry(e: Entry): string {
  if (e.kind === "symlink") return `symlink -> ${e.content}`;
  return `${e.kind} (mode ${oct(e.mode)}${e.nlink > 1 && e.kind !== "dir" ? `, ${e.nlink} links` : ""})`;
}

/** Every difference between two snapshots, in path order. */
export function diffSnapshots(before: Snapshot, after: Snapshot): Change[] {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: Change[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    const what: string[] = [];
    if (!a && b) what.push(`created ${describeEntry(b)}`);
    else if (a && !b) what.push(`deleted ${a.kind}`);
    else if (a && b) {
      if (a.kind !== b.kind) what.push(`type ${a.kind} -> ${describeEntry(b)}`);
      else {
        if (a.content !== b.content) what.push(a.kind === "symlink" ? `symlink -> ${b.content}` : "content");
        if (a.mode !== b.mode) what.push(`mode ${oct(a.mode)} -> ${oct(b.mode)}`);
        if (a.kind !== "dir" && a.nlink !== b.nlink) what.push(`nlink ${a.nlink} -> ${b.nlink}`);
        if (a.content === b.content && a.mtimeMs !== b.mtimeMs) what.push("mtime");
      }
    }
    if (what.length > 0) changes.push({ path, what });
  }
  return changes;
}

/**
 * The changes outside `scope` (exact relative paths a role may write). A path in scope may change content,
 * appear or disappear, but must stay a regular file with one link: a symlink or a hard link on an allowlisted
 * path is a way to write somewhere else later, so it counts.
 */
export function outOfScope(changes: Change[], after: Snapshot, scope: readonly string[]): Change[] {
  const allowed = new Set(scope);
  const out: Change[] = [];
  for (const c of changes) {
    if (!allowed.has(c.path)) {
      out.push(c);
      continue;
    }
    const b = after.get(c.path);
    if (b && (b.kind !== "file" || b.nlink > 1)) {
      out.push({ path: c.path, what: [`allowlisted path is now ${describeEntry(b)}`] });
    }
  }
  return out;
}

export function renderChanges(prefix: string, changes: Change[]): string[] {
  return changes.map((c) => `${prefix}${c.path}: ${c.what.join(", ")}`);
}
