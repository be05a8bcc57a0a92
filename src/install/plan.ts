/**
 * The installer's decision, per path: pure, over what devrites wants (`desired`), what it recorded last time
 * (`.devrites/install.json`) and what the target holds now. `init` and `update` pass the generated files;
 * `uninstall` passes none, so every recorded file is given back. The rules:
 *
 * - a file devrites owns is replaced only while it is exactly as devrites wrote it; a file the user edited,
 *   or that was never devrites', is `skip-modified` (never overwritten) unless `force`, and a file devrites
 *   takes over records the user's bytes so uninstall puts them back;
 * - a shared file (`.claude/settings.json`, `.codex/hooks.json`, `AGENTS.md`, `.codex/config.toml`) is merged,
 *   never replaced; it is restored byte for byte while unedited since devrites wrote it, and otherwise by taking
 *   devrites' part out of it (semantically for JSON, everything outside the markers for blocks);
 * - a pre-commit hook the user had is moved aside and run first by ours, and moved back on uninstall;
 * - anything unreadable, unsafe or malformed blocks the whole run: nothing is written.
 */

import { type Diagnostic, error, info, warning } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { mergeSettingsJson, removeMarkedBlock, upsertMarkedBlock } from "../hosts/merge.js";
import { isDevritesHook } from "./git-hook.js";
import type { InstallManifest, ManagedFile, ManagedKind, Original } from "./manifest.js";
import { mergeCodexConfig, removeTomlBlock } from "./toml-block.js";

export interface DesiredFile {
  path: string;
  kind: ManagedKind;
  /**
   * `owned`, `skeleton`, `git-hook`: the whole file. `merged-json`: devrites' hooks (JSON). `marked-block`: the
   * block. `toml-block`: unused (the block is fixed).
   */
  content: string;
  /** Mode of a new file. A merged file keeps its own. */
  mode: number;
}

export type CurrentFile =
  | { kind: "absent" }
  | { kind: "file"; bytes: Buffer; mode: number }
  /** A symlink (only ever read at the pre-commit hook's path: a user's hook may be a link). */
  | { kind: "link"; target: string }
  | { kind: "unsafe"; diagnostic: Diagnostic };

export type Step =
  | { op: "create" | "update" | "merge"; path: string; kind: ManagedKind; bytes: Buffer; mode: number }
  | { op: "unchanged"; path: string; kind: ManagedKind }
  | { op: "skip-modified"; path: string; kind: ManagedKind; diagnostic: Diagnostic }
  /** Delete a file devrites created. */
  | { op: "remove"; path: string; kind: ManagedKind }
  /** Put the user's content back (exact: their original bytes; else devrites' part taken out). */
  | { op: "restore"; path: string; kind: ManagedKind; bytes: Buffer; mode: number; exact: boolean }
  /** Move the user's pre-commit hook aside (`path` → `to`). */
  | { op: "chain"; path: string; kind: "git-hook"; to: string }
  /** Move it back (`path` is the moved-aside hook, `to` the hook path). */
  | { op: "unchain"; path: string; kind: "git-hook"; to: string }
  | { op: "blocked"; path: string; kind: ManagedKind; diagnostic: Diagnostic };

export interface InstallPlanInput {
  desired: readonly DesiredFile[];
  manifest: InstallManifest | null;
  /** Every desired path, every recorded path, and the recorded or planned chained hook path. */
  current: ReadonlyMap<string, CurrentFile>;
  force: boolean;
  /** Where a pre-existing pre-commit hook is moved (when a git hook is desired). */
  chainedPath?: string;
}

export interface InstallPlan {
  steps: Step[];
  /** The manifest's files after the steps are applied. */
  files: ManagedFile[];
  /** Notes for the user (a kept `[agents]` table, …). */
  diagnostics: Diagnostic[];
}

const MERGED: ReadonlySet<ManagedKind> = new Set(["merged-json", "marked-block", "toml-block"]);

function originalOf(bytes: Buffer, mode: number, exact: boolean): Original {
  return { exists: true, base64: bytes.toString("base64"), mode, exact };
}

function decode(bytes: Buffer): string | undefined {
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : undefined;
}

type Merged = { ok: true; text: string; userAgents?: boolean } | { ok: false; diagnostic: Diagnostic };

function merge(kind: ManagedKind, current: string | undefined, fragment: string): Merged {
  if (kind === "merged-json") return mergeSettingsJson(current, fragment);
  if (kind === "marked-block") return upsertMarkedBlock(current, fragment);
  return mergeCodexConfig(current);
}

/** The file with devrites' part taken out (for JSON: an emptied `hooks` object goes too). */
export function strip(kind: ManagedKind, current: string): Merged {
  if (kind === "merged-json") {
    const r = mergeSettingsJson(current, '{"hooks":{}}');
    if (!r.ok) return r;
    const v = JSON.parse(r.text) as Record<string, unknown>;
    const hooks = v.hooks;
    if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks) || Object.keys(hooks).length > 0)
      return r;
    delete v.hooks;
    return { ok: true, text: `${JSON.stringify(v, null, 2)}\n` };
  }
  if (kind === "marked-block") return removeMarkedBlock(current);
  return removeTomlBlock(current);
}

/** True when a stripped file holds nothing of the user's. */
function isEmpty(kind: ManagedKind, text: string): boolean {
  if (kind !== "merged-json") return text.trim() === "";
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && Object.keys(v).length === 0;
  } catch {
    return false;
  }
}

function withPath(d: Diagnostic, path: string): Diagnostic {
  return d.path ? d : { ...d, path };
}

function edited(path: string, managed: boolean, hint: string): Diagnostic {
  return warning(
    "install.skip-modified",
    managed
      ? "you edited this file since devrites wrote it; it is left as it is"
      : "this file is not devrites'; it is left as it is",
    { path, hint },
  );
}

export function planInstall(input: InstallPlanInput): InstallPlan {
  const recorded = new Map((input.manifest?.files ?? []).map((f) => [f.path, f]));
  const steps: Step[] = [];
  const files: ManagedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const cur = (p: string): CurrentFile => input.current.get(p) ?? { kind: "absent" };
  const desiredPaths = new Set(input.desired.map((d) => d.path));

  for (const d of input.desired) {
    const m = recorded.get(d.path);
    const c = cur(d.path);
    if (c.kind === "unsafe") {
      steps.push({ op: "blocked", path: d.path, kind: d.kind, diagnostic: withPath(c.diagnostic, d.path) });
      continue;
    }
    if (d.kind === "git-hook") {
      planHook(d, m, c, input, steps, files);
      continue;
    }
    if (c.kind === "link") {
      steps.push({
        op: "blocked",
        path: d.path,
        kind: d.kind,
        diagnostic: error("install.path-symlink", "this path is a symlink", { path: d.path }),
      });
      continue;
    }
    if (MERGED.has(d.kind)) {
      planMerged(d, m, c, steps, files, diagnostics);
      continue;
    }
    const want = Buffer.from(d.content, "utf8");
    if (d.kind === "skeleton") {
      if (c.kind === "absent") {
        steps.push({ op: "create", path: d.path, kind: d.kind, bytes: want, mode: d.mode });
        files.push({ path: d.path, kind: d.kind, sha256: sha256Hex(want) });
      } else {
        steps.push({ op: "unchanged", path: d.path, kind: d.kind });
        if (m) files.push(m);
      }
      continue;
    }
    // owned
    if (c.kind === "absent") {
      steps.push({ op: "create", path: d.path, kind: d.kind, bytes: want, mode: d.mode });
      files.push(entry(d, want, m?.original));
      continue;
    }
    const sha = sha256Hex(c.bytes);
    if (c.bytes.equals(want)) {
      steps.push({ op: "unchanged", path: d.path, kind: d.kind });
      // A file already exactly as devrites would write it, not yet recorded: adopted, and given back as it is.
      files.push(entry(d, want, m ? m.original : originalOf(c.bytes, c.mode, true)));
      continue;
    }
    if (m && sha === m.sha256) {
      steps.push({ op: "update", path: d.path, kind: d.kind, bytes: want, mode: c.mode });
      files.push(entry(d, want, m.original));
      continue;
    }
    if (input.force) {
      steps.push({ op: "update", path: d.path, kind: d.kind, bytes: want, mode: c.mode });
      files.push(entry(d, want, m ? m.original : originalOf(c.bytes, c.mode, true)));
      diagnostics.push(
        warning("install.forced", "replaced with --force", {
          path: d.path,
          hint: m
            ? "your edit is gone; uninstall restores the file as it was before devrites"
            : "devrites uninstall puts your file back",
        }),
      );
      continue;
    }
    steps.push({
      op: "skip-modified",
      path: d.path,
      kind: d.kind,
      diagnostic: edited(
        d.path,
        m !== undefined,
        m
          ? "keep your change in the pack instead, or rerun with --force to replace it (uninstall then restores the file as it was before devrites)"
          : "move it aside and rerun, or rerun with --force to replace it (devrites uninstall puts it back)",
      ),
    });
    if (m) files.push(m);
  }

  // Recorded files devrites no longer wants (a host dropped, a role removed, or uninstall): give them back.
  for (const m of input.manifest?.files ?? []) {
    if (desiredPaths.has(m.path)) continue;
    const c = cur(m.path);
    if (c.kind === "unsafe") {
      steps.push({ op: "blocked", path: m.path, kind: m.kind, diagnostic: withPath(c.diagnostic, m.path) });
      continue;
    }
    if (m.kind === "git-hook") {
      unplanHook(m, c, input, steps, files);
      continue;
    }
    if (c.kind === "absent") {
      if (m.original?.exists && m.kind === "owned") {
        // devrites replaced a file of the user's, and it was deleted since: the user's version comes back.
        const bytes = Buffer.from(m.original.base64, "base64");
        steps.push({ op: "restore", path: m.path, kind: m.kind, bytes, mode: m.original.mode, exact: true });
      }
      continue;
    }
    if (c.kind === "link") {
      steps.push({
        op: "blocked",
        path: m.path,
        kind: m.kind,
        diagnostic: error("install.path-symlink", "this path is a symlink", { path: m.path }),
      });
      continue;
    }
    const unedited = sha256Hex(c.bytes) === m.sha256;
    if (unedited || (input.force && m.kind === "owned")) {
      steps.push(giveBack(m));
      continue;
    }
    if (m.kind === "skeleton") continue; // the workspace is in use: it is the user's now
    if (!MERGED.has(m.kind)) {
      steps.push({
        op: "skip-modified",
        path: m.path,
        kind: m.kind,
        diagnostic: edited(m.path, true, "delete it yourself if you do not need it, or rerun with --force"),
      });
      files.push(m);
      continue;
    }
    const text = decode(c.bytes);
    const stripped: Merged =
      text === undefined
        ? {
            ok: false,
            diagnostic: error("install.not-utf8", "the file is not UTF-8 text", {
              path: m.path,
              hint: "devrites merges only UTF-8 text; restore the file and rerun",
            }),
          }
        : strip(m.kind, text);
    if (!stripped.ok) {
      steps.push({
        op: "blocked",
        path: m.path,
        kind: m.kind,
        diagnostic: withPath(stripped.diagnostic, m.path),
      });
      continue;
    }
    if (stripped.text === text) continue;
    if (m.original?.exists === false && isEmpty(m.kind, stripped.text)) {
      steps.push({ op: "remove", path: m.path, kind: m.kind });
    } else {
      const bytes = Buffer.from(stripped.text, "utf8");
      steps.push({ op: "restore", path: m.path, kind: m.kind, bytes, mode: c.mode, exact: false });
    }
  }
  return { steps, files, diagnostics };
}

function entry(d: DesiredFile, bytes: Buffer, original: Original | undefined): ManagedFile {
  return { path: d.path, kind: d.kind, sha256: sha256Hex(bytes), ...(original ? { original } : {}) };
}

/** Uninstalling one unedited file: its original back, or gone when devrites created it. */
function giveBack(m: ManagedFile): Step {
  if (m.original?.exists) {
    const bytes = Buffer.from(m.original.base64, "base64");
    return {
      op: "restore",
      path: m.path,
      kind: m.kind,
      bytes,
      mode: m.original.mode,
      exact: m.original.exact,
    };
  }
  return { op: "remove", path: m.path, kind: m.kind };
}

function planMerged(
  d: DesiredFile,
  m: ManagedFile | undefined,
  c: Exclude<CurrentFile, { kind: "unsafe" } | { kind: "link" }>,
  steps: Step[],
  files: ManagedFile[],
  diagnostics: Diagnostic[],
): void {
  const text = c.kind === "file" ? decode(c.bytes) : undefined;
  if (c.kind === "file" && text === undefined) {
    steps.push({
      op: "blocked",
      path: d.path,
      kind: d.kind,
      diagnostic: error("install.not-utf8", "the file is not UTF-8 text", {
        path: d.path,
        hint: "devrites merges only UTF-8 text; convert the file and rerun",
      }),
    });
    return;
  }
  const merged = merge(d.kind, text, d.content);
  if (!merged.ok) {
    steps.push({
      op: "blocked",
      path: d.path,
      kind: d.kind,
      diagnostic: withPath(merged.diagnostic, d.path),
    });
    return;
  }
  if (merged.userAgents) {
    // The user has their own [agents] table: devrites sets nothing there, and stops managing the file.
    diagnostics.push(
      info("install.codex-agents-kept", "your [agents] table is kept; devrites leaves max_depth to you", {
        path: d.path,
        hint: "max_depth = 1 keeps leaves from spawning agents of their own",
      }),
    );
    if (text !== undefined && merged.text !== text)
      steps.push({
        op: "merge",
        path: d.path,
        kind: d.kind,
        bytes: Buffer.from(merged.text, "utf8"),
        mode: c.kind === "file" ? c.mode : d.mode,
      });
    else steps.push({ op: "unchanged", path: d.path, kind: d.kind });
    return;
  }
  const want = Buffer.from(merged.text, "utf8");
  let original: Original;
  if (c.kind === "absent") original = { exists: false };
  else if (!m) original = originalOf(c.bytes, c.mode, true);
  else if (sha256Hex(c.bytes) === m.sha256 && m.original) original = m.original;
  else {
    // Edited since devrites merged: what is the user's is the file without devrites' part.
    const s = strip(d.kind, text ?? "");
    const userText = s.ok ? s.text : (text ?? "");
    original =
      m.original?.exists === false && isEmpty(d.kind, userText)
        ? { exists: false }
        : originalOf(Buffer.from(userText, "utf8"), c.kind === "file" ? c.mode : d.mode, false);
  }
  if (c.kind === "absent")
    steps.push({ op: "create", path: d.path, kind: d.kind, bytes: want, mode: d.mode });
  else if (c.bytes.equals(want)) steps.push({ op: "unchanged", path: d.path, kind: d.kind });
  else steps.push({ op: "merge", path: d.path, kind: d.kind, bytes: want, mode: c.mode });
  files.push({ path: d.path, kind: d.kind, sha256: sha256Hex(want), original });
}

function planHook(
  d: DesiredFile,
  m: ManagedFile | undefined,
  c: Exclude<CurrentFile, { kind: "unsafe" }>,
  input: InstallPlanInput,
  steps: Step[],
  files: ManagedFile[],
): void {
  const want = Buffer.from(d.content, "utf8");
  const chainedPath = m?.chained ?? input.chainedPath;
  const chainedNow =
    chainedPath !== undefined && (input.current.get(chainedPath)?.kind ?? "absent") !== "absent";
  const record = (chained: boolean) =>
    files.push({
      path: d.path,
      kind: "git-hook",
      sha256: sha256Hex(want),
      ...(chained && chainedPath ? { chained: chainedPath } : {}),
    });
  const ours = c.kind === "file" && isDevritesHook(c.bytes.toString("utf8"));
  if (c.kind === "absent") {
    steps.push({ op: "create", path: d.path, kind: "git-hook", bytes: want, mode: d.mode });
    record(chainedNow);
    return;
  }
  if (ours && c.kind === "file") {
    const unedited = !m || sha256Hex(c.bytes) === m.sha256;
    if (c.bytes.equals(want)) steps.push({ op: "unchanged", path: d.path, kind: "git-hook" });
    else if (unedited || input.force)
      steps.push({ op: "update", path: d.path, kind: "git-hook", bytes: want, mode: c.mode });
    else {
      steps.push({
        op: "skip-modified",
        path: d.path,
        kind: "git-hook",
        diagnostic: edited(d.path, true, "rerun with --force to replace your edit of the devrites hook"),
      });
      if (m) files.push(m);
      return;
    }
    record(chainedNow);
    return;
  }
  // The user's own hook: moved aside and run first by ours.
  if (!input.chainedPath || chainedNow) {
    steps.push({
      op: "blocked",
      path: d.path,
      kind: "git-hook",
      diagnostic: error(
        "install.hook-chain-occupied",
        `a pre-commit hook exists and ${chainedPath ?? "the place to move it"} is taken`,
        {
          path: d.path,
          hint: `move ${chainedPath ?? "it"} away (it may be left from an earlier install), then rerun`,
        },
      ),
    });
    return;
  }
  steps.push({ op: "chain", path: d.path, kind: "git-hook", to: input.chainedPath });
  steps.push({ op: "create", path: d.path, kind: "git-hook", bytes: want, mode: d.mode });
  files.push({ path: d.path, kind: "git-hook", sha256: sha256Hex(want), chained: input.chainedPath });
}

function unplanHook(
  m: ManagedFile,
  c: Exclude<CurrentFile, { kind: "unsafe" }>,
  input: InstallPlanInput,
  steps: Step[],
  files: ManagedFile[],
): void {
  const chained = m.chained;
  const chainedHere = chained !== undefined && (input.current.get(chained)?.kind ?? "absent") !== "absent";
  const unedited = c.kind === "file" && sha256Hex(c.bytes) === m.sha256;
  const forcedOurs = input.force && c.kind === "file" && isDevritesHook(c.bytes.toString("utf8"));
  if (c.kind === "absent" || unedited || forcedOurs) {
    if (c.kind !== "absent") steps.push({ op: "remove", path: m.path, kind: "git-hook" });
    if (chainedHere && chained) steps.push({ op: "unchain", path: chained, kind: "git-hook", to: m.path });
    return;
  }
  steps.push({
    op: "skip-modified",
    path: m.path,
    kind: "git-hook",
    diagnostic: edited(
      m.path,
      true,
      chained
        ? `your previous hook is at ${chained}; put it back by hand, or rerun with --force to remove the devrites hook`
        : "rerun with --force to remove it",
    ),
  });
  files.push(m);
}
