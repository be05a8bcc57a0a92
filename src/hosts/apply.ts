/**
 * The only writer of generated files. Reads the target, reconciles it with the plan, and only when nothing is
 * blocked writes every created or changed file atomically (in parallel; manifests last), deletes orphans that
 * are still as devrites wrote them, and removes folders that deleting left empty.
 */

import { readdir, rmdir, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { type FileToWrite, writeFilesAtomic } from "../core/atomic-write.js";
import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { MANIFEST_NAME } from "./manifest.js";
import { checkOutputOnDisk, outputPath } from "./output-path.js";
import { type Action, readTarget, reconcile } from "./reconcile.js";
import type { Plan } from "./types.js";

export interface ApplyReport {
  written: string[];
  deleted: string[];
  /** Orphans edited since devrites wrote them: left on disk, no longer tracked. */
  kept: string[];
  unchanged: number;
  diagnostics: Diagnostic[];
}

/** Write `plan` into `target`. Writes nothing when any path is blocked (unsafe, unreadable or unmergeable). */
export async function applyPlan(target: string, plan: Plan): Promise<ApplyReport> {
  const state = await readTarget(target, plan);
  const actions = reconcile(plan, state);
  const report: ApplyReport = {
    written: [],
    deleted: [],
    kept: [],
    unchanged: 0,
    diagnostics: [...state.diagnostics],
  };
  const blocked = actions.filter((a): a is Extract<Action, { op: "blocked" }> => a.op === "blocked");
  if (blocked.length > 0 || state.diagnostics.some((d) => d.severity === "error")) {
    report.diagnostics.push(...blocked.map((a) => a.diagnostic));
    return report;
  }
  const writes = actions.filter(
    (a): a is Extract<Action, { op: "create" | "update" }> => a.op === "create" || a.op === "update",
  );
  // Manifests last: a crash midway leaves the old manifest, which still describes what is on disk.
  const isManifest = (a: { path: string }) => a.path.endsWith(`/${MANIFEST_NAME}`);
  for (const batch of [writes.filter((a) => !isManifest(a)), writes.filter(isManifest)]) {
    const failure = await writeBatch(target, batch);
    if (failure) {
      report.diagnostics.push(failure);
      return report;
    }
    report.written.push(...batch.map((a) => a.path));
  }
  for (const a of writes) {
    if (a.op === "update" && a.handEdited) {
      report.diagnostics.push(
        warning("generate.hand-edit-overwritten", "a hand edit to a generated file was replaced", {
          path: a.path,
          hint: "make the change in the pack (pack/.claude) so it survives generation",
        }),
      );
    }
  }
  for (const a of actions) {
    if (a.op === "unchanged") report.unchanged++;
    if (a.op === "keep-orphan") {
      report.kept.push(a.path);
      report.diagnostics.push(
        warning(
          "generate.orphan-kept",
          "a file devrites no longer generates was edited; it is kept, untracked",
          {
            path: a.path,
            hint: "delete it if you do not need it",
          },
        ),
      );
    }
    if (a.op === "delete") {
      const where = outputPath(target, a.path);
      if (!where.ok) {
        report.diagnostics.push(where.diagnostic);
        continue;
      }
      try {
        await unlink(where.abs);
        report.deleted.push(a.path);
        await pruneEmpty(target, dirname(a.path));
      } catch (e) {
        report.diagnostics.push(
          error("generate.delete-failed", `cannot delete: ${(e as Error).message}`, { path: a.path }),
        );
      }
    }
  }
  return report;
}

/** Write `batch` atomically (each file old or new, never torn), every path re-checked right before. */
async function writeBatch(
  target: string,
  batch: readonly { path: string; content: string; mode: number }[],
): Promise<Diagnostic | null> {
  const files: FileToWrite[] = [];
  const relOf = new Map<string, string>();
  for (const a of batch) {
    const where = outputPath(target, a.path);
    if (!where.ok) return where.diagnostic;
    const unsafe = await checkOutputOnDisk(target, a.path);
    if (unsafe) return unsafe;
    files.push({ path: where.abs, data: a.content, mode: a.mode });
    relOf.set(where.abs, a.path);
  }
  try {
    await writeFilesAtomic(files);
    return null;
  } catch (e) {
    const path = relOf.get((e as { path?: string }).path ?? "");
    return error("generate.write-failed", `cannot write: ${(e as Error).message}`, path ? { path } : {});
  }
}

/** Remove `dir` and its parents while they are empty, never the target itself. */
async function pruneEmpty(target: string, dir: string): Promise<void> {
  for (let d = dir; d !== "." && d !== ""; d = dirname(d)) {
    const where = outputPath(target, d);
    if (!where.ok) return;
    try {
      if ((await readdir(where.abs)).length > 0) return;
      await rmdir(where.abs);
    } catch {
      return;
    }
  }
}
