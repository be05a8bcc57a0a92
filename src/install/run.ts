/**
 * `devrites init`, `update` and `uninstall`: the imperative shell around `planInstall`. Under the install lock
 * (one run per repository), after replaying any journal an interrupted run left: read the manifest, plan the
 * project-level files for the chosen hosts, read what the target holds, decide per path, and apply it all in
 * one transaction (or print it, with --dry-run).
 *
 * Only the project layout is installed: the plugin layouts (`plugins/…`, marketplaces) are how this
 * repository distributes devrites, and installing them into a user's repository would load every skill twice
 * (once as a project skill, once from the plugin) and publish devrites as a marketplace of theirs.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, ExitCode, error, hasErrors, info } from "../core/diagnostics.js";
import { MANIFEST_NAME } from "../hosts/manifest.js";
import { HOSTS, type Host, type PlannedFile } from "../hosts/types.js";
import { acquireFileLock } from "../run/lock.js";
import { emptyState } from "../run/workspace.js";
import { locatePreCommit, preCommitScript } from "./git-hook.js";
import { LAUNCHER_PATH, launcherScript } from "./launcher.js";
import {
  INSTALL_MANIFEST,
  INSTALL_SCHEMA,
  type InstallManifest,
  installManifestText,
  parseInstallManifest,
  STATE_PATH,
} from "./manifest.js";
import { anchorToOrigin, effectivePack, PACK_OVERLAY } from "./overlay.js";
import { type CurrentFile, type DesiredFile, planInstall, type Step } from "./plan.js";
import { type PathClass, readCurrent } from "./read.js";
import { INSTALLED_REGENERATE, planFor } from "./render.js";
import { loadLintedPack, PACKAGE_HOOKS, PACKAGE_PACK, PACKAGE_ROOT } from "./sources.js";
import { type InstallTarget, resolveInstallTarget } from "./target.js";
import { CODEX_CONFIG } from "./toml-block.js";
import { missingDirs, recoverJournal, runTransaction, type TxOp } from "./transaction.js";

export type InstallMode = "init" | "update" | "uninstall";

export interface InstallOptions {
  mode: InstallMode;
  cwd: string;
  target?: string | undefined;
  /** init: the hosts (default: those recorded, else both). */
  hosts?: Host[] | undefined;
  /**
   * init: hosts whose roles alone to install, for a plugin that cannot carry agents (a Codex plugin: its
   * `.codex/agents/` and the `[agents]` block); default: those recorded. A host installed in full has them.
   */
  roles?: Host[] | undefined;
  /** init: install the pre-commit hook. */
  gitHook?: boolean;
  dryRun: boolean;
  force: boolean;
  now: Date;
  /** Every CLI command name (the pack lint checks commands the pack mentions). */
  knownCommands: readonly string[];
  /** The devrites version recorded in the manifest. */
  version: string;
  packDir?: string | undefined;
  hooksDir?: string | undefined;
  /** Tests: called after each committed file operation (throw to simulate a failure midway). */
  afterOp?: (index: number, op: TxOp) => void;
}

export interface StepView {
  op: Step["op"];
  path: string;
  kind: string;
  to?: string;
  exact?: boolean;
}

export interface InstallOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  text?: string;
  data?: {
    mode: InstallMode;
    target: string;
    dryRun: boolean;
    version: string;
    hosts: Host[];
    steps: StepView[];
    changed: number;
    skipped: number;
  };
}

export const LOCK_FILE = "devrites-install.lock";
export const JOURNAL_FILE = "devrites-install.journal";

export async function runInstall(opts: InstallOptions): Promise<InstallOutcome> {
  const found = await resolveInstallTarget(opts.cwd, opts.target);
  if (!found.ok) return { exitCode: found.exitCode, diagnostics: found.diagnostics };
  const target = found.target;
  if (opts.dryRun) return installLocked(opts, target);
  const lock = acquireFileLock(join(target.gitDir, LOCK_FILE), {
    code: "install.locked",
    shown: join(target.gitDir, LOCK_FILE),
    heldHere: "this process is already installing into this repository",
    heldElsewhere: "another devrites process (pid {pid}) is installing into this repository",
    hint: "wait for it to finish and rerun; if no such process exists, the lock is taken over automatically",
  });
  if (!lock.ok) return { exitCode: ExitCode.Busy, diagnostics: lock.diagnostics };
  try {
    return await installLocked(opts, target);
  } finally {
    lock.release();
  }
}

function classOf(path: string, kind: string): PathClass {
  if (kind === "git-hook") return "git-hook";
  if (path === STATE_PATH || path === INSTALL_MANIFEST || path === LAUNCHER_PATH) return "workspace";
  return "output";
}

async function installLocked(opts: InstallOptions, target: InstallTarget): Promise<InstallOutcome> {
  const { root } = target;
  const diagnostics: Diagnostic[] = [];
  const journal = join(target.gitDir, JOURNAL_FILE);
  if (existsSync(journal)) {
    if (opts.dryRun)
      return {
        exitCode: ExitCode.Violation,
        diagnostics: [
          error("install.interrupted", "an earlier run was interrupted midway; its journal is still there", {
            path: journal,
            hint: "run the command without --dry-run: it first puts the repository back as it was before that run",
          }),
        ],
      };
    const rec = recoverJournal(root, journal);
    diagnostics.push(...rec.diagnostics);
    if (hasErrors(rec.diagnostics)) return { exitCode: ExitCode.Violation, diagnostics };
  }

  // The manifest.
  const mf = readCurrent(root, INSTALL_MANIFEST, "workspace");
  let manifest: InstallManifest | null = null;
  if (mf.kind === "unsafe")
    return { exitCode: ExitCode.Violation, diagnostics: [...diagnostics, mf.diagnostic] };
  if (mf.kind === "file") {
    const parsed = parseInstallManifest(mf.bytes.toString("utf8"));
    if (!parsed.ok) return { exitCode: ExitCode.Violation, diagnostics: [...diagnostics, parsed.diagnostic] };
    manifest = parsed.manifest;
  }
  if (!manifest && opts.mode !== "init")
    return {
      exitCode: ExitCode.MissingInput,
      diagnostics: [
        ...diagnostics,
        error("install.not-installed", `devrites is not installed here (no ${INSTALL_MANIFEST})`, {
          path: INSTALL_MANIFEST,
          hint:
            opts.mode === "update" ? "run devrites init" : "there is nothing devrites installed to remove",
        }),
      ],
    };

  const hosts: Host[] =
    opts.mode === "uninstall"
      ? []
      : opts.mode === "update"
        ? [...(manifest?.hosts ?? [])]
        : (opts.hosts ?? manifest?.hosts ?? [...HOSTS]);
  const roles: Host[] =
    opts.mode === "uninstall"
      ? []
      : (opts.mode === "update" ? (manifest?.roles ?? []) : (opts.roles ?? manifest?.roles ?? [])).filter(
          (h) => !hosts.includes(h),
        );
  const hookRecorded = manifest?.files.find((f) => f.kind === "git-hook");
  const wantHook = opts.mode !== "uninstall" && (opts.gitHook === true || hookRecorded !== undefined);

  // What devrites wants there.
  const desired: DesiredFile[] = [];
  let chainedPath: string | undefined;
  if (opts.mode !== "uninstall") {
    // the package's pack, with the repository's customised files (.devrites/pack/) laid over it
    const effective = effectivePack(root, opts.packDir ?? PACKAGE_PACK);
    if (!effective.ok)
      return {
        exitCode: ExitCode.Violation,
        diagnostics: [...diagnostics, ...effective.diagnostics],
        text: `devrites ${opts.mode}: nothing was written`,
      };
    const packDir = effective.pack.dir;
    try {
      const pack = await loadLintedPack(packDir, opts.knownCommands);
      if (!pack.ok)
        return {
          exitCode: pack.exitCode,
          diagnostics: [
            ...diagnostics,
            ...pack.diagnostics.map((d) => anchorToOrigin(d, effective.pack)),
            error(
              "install.pack-broken",
              effective.pack.overlaid.length > 0
                ? `the devrites pack with the customised files of ${PACK_OVERLAY} does not lint; nothing was installed`
                : "the devrites pack does not lint; nothing was installed",
              {
                path: effective.pack.overlaid.length > 0 ? PACK_OVERLAY : effective.pack.base,
                hint:
                  effective.pack.overlaid.length > 0
                    ? `fix the files the errors name under ${PACK_OVERLAY}, or remove them to use devrites' own`
                    : "reinstall devrites (npm install devrites), or fix the pack",
              },
            ),
          ],
        };
      // the hosts installed in full; then the roles alone of a host whose plugin cannot carry agents (a Codex
      // plugin brings its skills and hooks, so nothing else of it is installed: nothing loads twice)
      const parts: { hosts: Host[]; keep: (path: string) => boolean }[] = [
        { hosts, keep: () => true },
        ...(roles.includes("codex") ? [{ hosts: ["codex" as Host], keep: isCodexRoleFile }] : []),
      ];
      for (const part of parts) {
        const planned = await planFor(
          pack.model,
          packDir,
          opts.hooksDir ?? PACKAGE_HOOKS,
          part.hosts,
          ["project"],
          INSTALLED_REGENERATE,
        );
        if (hasErrors(planned.diagnostics))
          return {
            exitCode: planned.diagnostics.some((d) => d.code === "generate.hook-bundle-missing")
              ? ExitCode.MissingInput
              : ExitCode.Violation,
            diagnostics: [...diagnostics, ...planned.diagnostics],
            text: `devrites ${opts.mode}: nothing was written`,
          };
        desired.push(...planned.plan.files.filter((f) => part.keep(f.path)).map(toDesired));
      }
    } finally {
      effective.pack.cleanup();
    }
    if (hosts.includes("codex") || roles.includes("codex"))
      desired.push({ path: CODEX_CONFIG, kind: "toml-block", content: "", mode: 0o644 });
    desired.push({
      path: STATE_PATH,
      kind: "skeleton",
      content: `${JSON.stringify(emptyState(opts.now.toISOString()), null, 2)}\n`,
      mode: 0o644,
    });
    const bin = join(PACKAGE_ROOT, "bin", "devrites.js");
    const fallback = existsSync(bin) ? { node: process.execPath, bin } : undefined;
    desired.push({ path: LAUNCHER_PATH, kind: "owned", content: launcherScript(fallback), mode: 0o755 });
    if (wantHook) {
      const where = await locatePreCommit(root);
      if (!where.ok) return { exitCode: ExitCode.Usage, diagnostics: [...diagnostics, where.diagnostic] };
      chainedPath = where.chainedRel;
      desired.push({ path: where.rel, kind: "git-hook", content: preCommitScript(fallback), mode: 0o755 });
    }
  }

  // What the target holds.
  const current = new Map<string, CurrentFile>();
  const look = (path: string, kind: string) => {
    if (!current.has(path)) current.set(path, readCurrent(root, path, classOf(path, kind)));
  };
  for (const d of desired) look(d.path, d.kind);
  for (const f of manifest?.files ?? []) {
    look(f.path, f.kind);
    if (f.chained) look(f.chained, "git-hook");
  }
  if (chainedPath) look(chainedPath, "git-hook");

  const plan = planInstall({
    desired,
    manifest,
    current,
    force: opts.force,
    ...(chainedPath ? { chainedPath } : {}),
  });
  diagnostics.push(...plan.diagnostics);
  const blocked = plan.steps.filter((s) => s.op === "blocked");
  const skipped = plan.steps.filter((s) => s.op === "skip-modified");
  for (const s of [...blocked, ...skipped]) if ("diagnostic" in s) diagnostics.push(s.diagnostic);
  const changes = plan.steps.filter(
    (s) => s.op !== "unchanged" && s.op !== "skip-modified" && s.op !== "blocked",
  );

  // The manifest after this run.
  const writes = changes.flatMap((s) =>
    s.op === "create" || s.op === "update" || s.op === "merge" || s.op === "restore"
      ? [s.path]
      : s.op === "chain"
        ? [s.to]
        : [],
  );
  const residual = plan.files;
  const keepManifest = opts.mode !== "uninstall" || residual.length > 0;
  const nextDirs = [
    ...new Set([
      ...(manifest?.dirs ?? []),
      ...missingDirs(root, keepManifest ? [...writes, INSTALL_MANIFEST] : writes),
    ]),
  ];
  const recordedRoles = opts.mode === "uninstall" ? [...(manifest?.roles ?? [])] : roles;
  const next: InstallManifest = {
    schema: INSTALL_SCHEMA,
    version: opts.version,
    hosts: opts.mode === "uninstall" ? (manifest?.hosts ?? []) : hosts,
    ...(recordedRoles.length > 0 ? { roles: recordedRoles } : {}),
    files: residual,
    dirs: nextDirs,
    installed_at: manifest?.installed_at ?? opts.now.toISOString(),
    updated_at: opts.now.toISOString(),
  };
  const manifestChanged =
    !manifest ||
    installManifestText({ ...next, updated_at: "" }) !== installManifestText({ ...manifest, updated_at: "" });

  const ops: TxOp[] = [];
  if (blocked.length === 0) {
    ops.push(...toOps(changes));
    if (keepManifest && (changes.length > 0 || manifestChanged))
      ops.push({
        op: "write",
        rel: INSTALL_MANIFEST,
        bytes: Buffer.from(installManifestText(next)),
        mode: 0o644,
      });
    if (!keepManifest && manifest) {
      ops.push({ op: "remove", rel: INSTALL_MANIFEST });
      for (const d of [...(manifest.dirs ?? [])].sort(
        (a, b) => b.split("/").length - a.split("/").length || (a < b ? 1 : -1),
      ))
        ops.push({ op: "rmdir", rel: d });
    }
  }

  const views = plan.steps.map(view).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const data = {
    mode: opts.mode,
    target: root,
    dryRun: opts.dryRun,
    version: opts.version,
    hosts,
    steps: views,
    changed: changes.length,
    skipped: skipped.length,
  };
  const listing = (all: boolean) =>
    views
      .filter((v) => all || v.op !== "unchanged")
      .map(
        (v) =>
          `  ${v.op.padEnd(13)} ${v.path}${v.to ? ` → ${v.to}` : ""}${v.exact === false ? " (your content, devrites' part taken out)" : ""}`,
      );

  if (blocked.length > 0)
    return {
      exitCode: ExitCode.Violation,
      diagnostics,
      data,
      text: [
        `devrites ${opts.mode}: refused, nothing was written (${blocked.length} path(s) blocked)`,
        ...listing(false),
      ].join("\n"),
    };
  const exitCode = skipped.length > 0 ? ExitCode.Violation : ExitCode.Ok;
  if (opts.dryRun)
    return {
      exitCode,
      diagnostics,
      data,
      text: [
        `devrites ${opts.mode} --dry-run: ${summary(plan.steps)}; nothing was written`,
        ...listing(false),
      ].join("\n"),
    };
  if (ops.length === 0)
    return {
      exitCode,
      diagnostics,
      data,
      text: `devrites ${opts.mode}: nothing to do (${summary(plan.steps)})`,
    };
  const tx = runTransaction(ops, { root, journal, ...(opts.afterOp ? { afterOp: opts.afterOp } : {}) });
  if (!tx.ok)
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [...diagnostics, ...tx.diagnostics],
      data,
      text: `devrites ${opts.mode}: failed`,
    };
  if (opts.mode === "uninstall" && keepManifest)
    diagnostics.push(
      error(
        "install.uninstall-incomplete",
        `${residual.length} file(s) you edited were kept and stay listed`,
        {
          path: INSTALL_MANIFEST,
          hint: "rerun devrites uninstall after you restore or delete them, or with --force",
        },
      ),
    );
  if (opts.mode === "uninstall" && !keepManifest && manifest?.dirs.some((d) => existsSync(join(root, d))))
    diagnostics.push(
      info("install.kept-dirs", "folders that now hold your files were kept", {
        hint: "for example .devrites/ with your runs",
      }),
    );
  return {
    exitCode: opts.mode === "uninstall" && keepManifest ? ExitCode.Violation : exitCode,
    diagnostics,
    data,
    text: [
      `devrites ${opts.mode}: ${summary(plan.steps)}${hosts.length ? ` (${hosts.join(", ")}, devrites ${opts.version})` : ""}`,
      ...listing(false).filter((l) => !/^\s+(create|update) /.test(l)),
      ...(opts.mode === "init" ? nextSteps(hosts) : []),
    ].join("\n"),
  };
}

/** What a user does after init, once. */
function nextSteps(hosts: readonly Host[]): string[] {
  const steps = [
    "next: commit the installed files; `devrites validate` checks them (add --git-hook for every commit)",
  ];
  if (hosts.includes("codex"))
    steps.push(
      "Codex: trust the project, then open /hooks once and trust the devrites hooks (untrusted hooks never run)",
    );
  return steps;
}

function toDesired(f: PlannedFile): DesiredFile {
  return { path: f.path, kind: f.kind, content: f.content, mode: f.mode };
}

/** Transaction order: hooks moved aside, removals, files, sidecar manifests, hooks moved back, then the manifest. */
function toOps(steps: readonly Step[]): TxOp[] {
  const rank = (s: Step): number => {
    if (s.op === "chain") return 0;
    if (s.op === "remove") return 1;
    if (s.op === "unchain") return 4;
    return s.path.endsWith(`/${MANIFEST_NAME}`) ? 3 : 2;
  };
  const ops: TxOp[] = [];
  for (const s of [...steps].sort((a, b) => rank(a) - rank(b))) {
    switch (s.op) {
      case "chain":
      case "unchain":
        ops.push({ op: "rename", rel: s.path, to: s.to });
        break;
      case "remove":
        ops.push({ op: "remove", rel: s.path });
        break;
      case "create":
        ops.push({ op: "write", rel: s.path, bytes: s.bytes, mode: s.mode });
        break;
      case "update":
      case "merge":
      case "restore":
        ops.push({ op: "write", rel: s.path, bytes: s.bytes, mode: s.mode, exactMode: true });
        break;
      default:
        break;
    }
  }
  return ops;
}

function view(s: Step): StepView {
  return {
    op: s.op,
    path: s.path,
    kind: s.kind,
    ...(s.op === "chain" || s.op === "unchain" ? { to: s.to } : {}),
    ...(s.op === "restore" ? { exact: s.exact } : {}),
  };
}

function summary(steps: readonly Step[]): string {
  const n = new Map<string, number>();
  for (const s of steps) n.set(s.op, (n.get(s.op) ?? 0) + 1);
  const order = [
    "create",
    "update",
    "merge",
    "restore",
    "remove",
    "chain",
    "unchain",
    "unchanged",
    "skip-modified",
    "blocked",
  ];
  const parts = order.filter((o) => n.has(o)).map((o) => `${n.get(o)} ${o}`);
  return parts.length ? parts.join(", ") : "no files";
}

/** A Codex role file of the project layout (`.codex/agents/<role>.toml`), not its folder's sidecar manifest. */
function isCodexRoleFile(path: string): boolean {
  return /^\.codex\/agents\/[^/]+\.toml$/.test(path);
}
