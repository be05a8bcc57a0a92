/**
 * The imperative edge: read a pack folder from disk and build its model. Unreadable files are diagnostics;
 * loading never throws.
 */

import { readdirSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { buildPack, type LoadResult } from "./build.js";
import type { PackFiles } from "./types.js";

export type ReadFilesResult =
  | { ok: true; files: PackFiles; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Read every file under `dir` (dotfiles included, symlinks not followed) into a pack-relative map. A missing
 * or non-directory `dir` is `pack.dir-missing` (the CLI maps it to exit 5).
 */
export async function readPackFiles(dir: string): Promise<ReadFilesResult> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) {
      return { ok: false, diagnostics: [dirMissing(dir, "is not a directory")] };
    }
  } catch {
    return { ok: false, diagnostics: [dirMissing(dir, "does not exist")] };
  }
  const diagnostics: Diagnostic[] = [];
  let paths: string[];
  try {
    // A plain recursive listing (regular files only; a symlink is neither followed nor listed): loading a glob
    // library costs more than the walk, and `devrites validate` loads the pack in every commit.
    paths = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join("/"));
  } catch (e) {
    return {
      ok: false,
      diagnostics: [
        error("pack.read-failed", `cannot list the pack: ${(e as Error).message}`, { path: dir }),
      ],
    };
  }
  const files = new Map<string, string>();
  for (const p of paths.sort()) {
    try {
      files.set(p, await readFile(join(dir, p), "utf8"));
    } catch (e) {
      diagnostics.push(error("pack.read-failed", `cannot read: ${(e as Error).message}`, { path: p }));
    }
  }
  return { ok: true, files, diagnostics };
}

function dirMissing(dir: string, why: string): Diagnostic {
  return error("pack.dir-missing", `pack folder ${why}`, {
    path: dir,
    hint: "run from the repository root, or pass --dir <pack/.claude>",
  });
}

/**
 * Load the pack at `dir` (normally `pack/.claude`). Returns the model of every well-formed file and the
 * diagnostics of the rest; diagnostic paths are relative to `dir`. Consumers must not render a model whose
 * diagnostics (load or lint) contain errors.
 */
export async function loadPack(dir: string): Promise<LoadResult & { missing: boolean }> {
  const read = await readPackFiles(dir);
  if (!read.ok) {
    const empty = buildPack(new Map());
    return {
      model: empty.model,
      diagnostics: read.diagnostics,
      missing: read.diagnostics.some((d) => d.code === "pack.dir-missing"),
    };
  }
  const built = buildPack(read.files);
  return { model: built.model, diagnostics: [...read.diagnostics, ...built.diagnostics], missing: false };
}
