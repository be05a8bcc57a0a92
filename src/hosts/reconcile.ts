/**
 * Compare a plan with what a target holds and decide, per path, what applying the plan would do. `readTarget`
 * is the read-only edge (every path through `outputPath`); `reconcile` is pure. `check` reports the actions,
 * `apply` performs them.
 */

import { readFile } from "node:fs/promises";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { MANIFEST_NAME, type ManifestEntry, parseManifest } from "./manifest.js";
import { mergeSettingsJson, upsertMarkedBlock } from "./merge.js";
import { checkOutputOnDisk, outputPath } from "./output-path.js";
import type { Plan, PlannedFile, PlannedFileKind } from "./types.js";

export type FileState =
  | { kind: "absent" }
  | { kind: "file"; text: string }
  | { kind: "unsafe"; diagnostic: Diagnostic };

export interface TargetState {
  /** Every planned path and every path a root manifest lists. */
  files: Map<string, FileState>;
  /** Each covered root's manifest on disk, when it exists and parses. */
  manifests: Map<string, ManifestEntry[]>;
  /** Manifests that exist but cannot be read, and manifest entries that name unsafe paths. */
  diagnostics: Diagnostic[];
}

async function readState(target: string, path: string): Promise<FileState> {
  const where = outputPath(target, path);
  if (!where.ok) return { kind: "unsafe", diagnostic: where.diagnostic };
  const unsafe = await checkOutputOnDisk(target, path);
  if (unsafe) return { kind: "unsafe", diagnostic: unsafe };
  try {
    return { kind: "file", text: await readFile(where.abs, "utf8") };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { kind: "absent" };
    return {
      kind: "unsafe",
      diagnostic: error("generate.read-failed", `cannot read: ${(e as Error).message}`, { path }),
    };
  }
}

/** Read what the target holds for `plan`: its planned files, its roots' manifests and the files they list. */
export async function readTarget(target: string, plan: Plan): Promise<TargetState> {
  const files = new Map<string, FileState>();
  const manifests = new Map<string, ManifestEntry[]>();
  const diagnostics: Diagnostic[] = [];
  const states = await Promise.all(plan.files.map((f) => readState(target, f.path)));
  plan.files.forEach((f, i) => {
    files.set(f.path, states[i]!);
  });
  for (const root of plan.roots) {
    const path = `${root}/${MANIFEST_NAME}`;
    const state = files.get(path) ?? (await readState(target, path));
    if (state.kind !== "file") continue;
    const entries = parseManifest(state.text);
    if (!entries) {
      diagnostics.push(
        error("generate.manifest-malformed", "the generated-files manifest cannot be read", {
          path,
          hint: `delete ${path} and the files it listed, then generate again`,
        }),
      );
      continue;
    }
    manifests.set(root, entries);
    const listed = entries.map((e) => `${root}/${e.path}`).filter((p) => !files.has(p));
    const read = await Promise.all(listed.map((p) => readState(target, p)));
    listed.forEach((p, i) => {
      files.set(p, read[i]!);
    });
  }
  return { files, manifests, diagnostics };
}

export type Action =
  | { op: "create"; path: string; content: string; kind: PlannedFileKind; mode: number }
  | {
      op: "update";
      path: string;
      content: string;
      current: string;
      kind: PlannedFileKind;
      mode: number;
      /** An owned file whose bytes differ from what its manifest recorded: someone edited it. */
      handEdited: boolean;
      /** An owned file no manifest lists (written by someone else, or before manifests existed). */
      unmanaged: boolean;
    }
  | { op: "unchanged"; path: string }
  /** A file a root's manifest lists that the plan no longer produces, as devrites wrote it. */
  | { op: "delete"; path: string; current: string }
  /** Same, but edited since: kept on disk and dropped from the manifest. */
  | { op: "keep-orphan"; path: string; current: string }
  | { op: "blocked"; path: string; diagnostic: Diagnostic };

function desired(f: PlannedFile, current: string | undefined): { ok: true; text: string } | Diagnostic {
  if (f.kind === "owned") return { ok: true, text: f.content };
  const merged =
    f.kind === "merged-json" ? mergeSettingsJson(current, f.content) : upsertMarkedBlock(current, f.content);
  return merged.ok ? merged : { ...merged.diagnostic, path: f.path };
}

/** Per path, what applying `plan` to a target in `state` does. Sorted by path. */
export function reconcile(plan: Plan, state: TargetState): Action[] {
  const recorded = new Map<string, string>();
  for (const [root, entries] of state.manifests)
    for (const e of entries) recorded.set(`${root}/${e.path}`, e.sha256);
  const actions: Action[] = [];
  const planned = new Set<string>();
  for (const f of plan.files) {
    planned.add(f.path);
    const s = state.files.get(f.path) ?? { kind: "absent" };
    if (s.kind === "unsafe") {
      actions.push({ op: "blocked", path: f.path, diagnostic: s.diagnostic });
      continue;
    }
    const current = s.kind === "file" ? s.text : undefined;
    const want = desired(f, current);
    if (!("ok" in want)) {
      actions.push({ op: "blocked", path: f.path, diagnostic: want });
      continue;
    }
    if (current === undefined) {
      actions.push({ op: "create", path: f.path, content: want.text, kind: f.kind, mode: f.mode });
    } else if (current === want.text) {
      actions.push({ op: "unchanged", path: f.path });
    } else {
      const sha = recorded.get(f.path);
      const isOwned = f.kind === "owned" && !f.path.endsWith(`/${MANIFEST_NAME}`);
      actions.push({
        op: "update",
        path: f.path,
        content: want.text,
        current,
        kind: f.kind,
        mode: f.mode,
        handEdited: isOwned && sha !== undefined && sha !== sha256Hex(current),
        unmanaged: isOwned && sha === undefined,
      });
    }
  }
  for (const path of recorded.keys()) {
    if (planned.has(path)) continue;
    const s = state.files.get(path) ?? { kind: "absent" };
    if (s.kind === "unsafe") actions.push({ op: "blocked", path, diagnostic: s.diagnostic });
    else if (s.kind === "file") {
      const op = sha256Hex(s.text) === recorded.get(path) ? "delete" : "keep-orphan";
      actions.push({ op, path, current: s.text });
    }
  }
  return actions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
