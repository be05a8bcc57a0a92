/**
 * `devrites validate [--staged]`: the repository-level check for pre-commit and CI. The pack lints clean (when
 * the repository has `pack/.claude`), the generated adapters are in sync (when it has any), the install
 * manifest is readable and no install was left half done, and the `.devrites/` workspace holds valid
 * envelopes tied to their packets, accepted results whose baselines still verify, and well-formed ledgers.
 *
 * With `staged`, only what the commit touches, each staged path mapped to the checks it concerns (`staged.ts`).
 * Never a vacuous pass: files staged and nothing evaluated is a failure that says why. Each check loads its
 * modules only when it runs, so a commit that touches one run does not load the pack or the adapters.
 */

import { existsSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type Diagnostic, ExitCode, error, hasErrors, info, warning } from "../core/diagnostics.js";
import { PACKAGE_ROOT } from "../install/package-root.js";
import { gitWhere, stagedPaths, unstagedAmong } from "./git.js";
import { classifyStaged, PACK_DIR, WORKSPACE } from "./staged.js";

export interface ValidateOptions {
  cwd: string;
  staged: boolean;
  /** Every CLI command name (for the pack lint). */
  knownCommands: readonly string[];
  /** The pack and hook bundles to render from when the repository has no pack of its own (default: the package's). */
  packDir?: string | undefined;
  hooksDir?: string | undefined;
  /** The devrites package root (default: the running one); the repository at it is devrites itself. */
  packageRoot?: string | undefined;
}

export type CheckName = "pack" | "adapters" | "install" | "workspace" | "active-runs";

export interface CheckView {
  name: CheckName;
  ok: boolean;
  detail: string;
  ms: number;
}

export interface ValidateOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  text: string;
  data: {
    root: string;
    checks: CheckView[];
    staged?: { paths: number; evaluated: number; unevaluated: string[] };
  };
}

const INSTALL_MANIFEST = ".devrites/install.json";
const GENERATED_MANIFEST = ".devrites-generated.json";
const WORKSPACE_RECORDS = [".devrites/state.json", ".devrites/questions.jsonl", ".devrites/decisions.jsonl"];

export async function validateRepo(opts: ValidateOptions): Promise<ValidateOutcome> {
  const where = gitWhere(opts.cwd);
  const top = where?.top;
  const root = top ?? opts.cwd;
  const checks: CheckView[] = [];
  const diagnostics: Diagnostic[] = [];
  /** Extra human output after the summary (drift diffs). */
  const details: string[] = [];
  const done = (
    exitCode: ExitCode,
    text: string,
    extra: Partial<ValidateOutcome["data"]> = {},
  ): ValidateOutcome => ({
    exitCode,
    diagnostics,
    text: details.length ? `${text}\n\n${details.join("\n\n")}` : text,
    data: { root, checks, ...extra },
  });

  let staged: string[] | undefined;
  if (opts.staged) {
    if (!top) {
      diagnostics.push(
        error("validate.not-git", "--staged needs a git repository", {
          path: opts.cwd,
          hint: "run it inside the repository, or drop --staged",
        }),
      );
      return done(ExitCode.Usage, "validate --staged: not a git repository");
    }
    const s = stagedPaths(root);
    if (!s.ok) {
      diagnostics.push(
        error("validate.git-failed", `git cannot list the staged files: ${s.message}`, {
          hint: "check the repository with git status",
        }),
      );
      return done(ExitCode.Violation, "validate --staged: git failed");
    }
    if (s.paths.length === 0)
      return done(ExitCode.Ok, "validate --staged: nothing is staged; nothing to check");
    staged = s.paths;
  }
  const self = samePath(root, opts.packageRoot ?? PACKAGE_ROOT);
  const classes = staged ? classifyStaged(staged, self) : undefined;
  const evaluated = new Set<string>();
  const mark = (paths: Iterable<string>) => {
    for (const p of paths) evaluated.add(p);
  };
  const timed = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const t = performance.now();
    const value = await fn();
    return { value, ms: performance.now() - t };
  };

  const hasPack = existsSync(join(root, PACK_DIR));
  // A workspace with records to check (a `.devrites/` holding only generated hooks has none).
  const hasWorkspace =
    existsSync(join(root, WORKSPACE, "runs")) || WORKSPACE_RECORDS.some((f) => existsSync(join(root, f)));
  const installed = existsSync(join(root, INSTALL_MANIFEST));
  const packTouched = classes ? classes.pack.length + classes.sources.length > 0 : true;
  const genTouched = classes ? classes.generated.length > 0 : true;

  // ---------------------------------------------------------------- pack lint (and the model for drift)
  let model: import("../pack/types.js").PackModel | undefined;
  let modelDir: string | undefined;
  /** Removes the effective pack built from `.devrites/pack/`, once the adapters are compared. */
  let overlayCleanup: (() => void) | undefined;
  if (hasPack && packTouched) {
    const { value, ms } = await timed(async () => {
      const { loadLintedPack } = await import("../install/sources.js");
      return loadLintedPack(join(root, PACK_DIR), opts.knownCommands);
    });
    const anchored = value.diagnostics.map((d) => ({
      ...d,
      path: d.path ? `${PACK_DIR}/${d.path}` : PACK_DIR,
    }));
    diagnostics.push(...anchored);
    checks.push({
      name: "pack",
      ok: value.ok,
      detail: value.ok
        ? `${value.model.skills.length} skills, ${value.model.agents.length} agents lint clean`
        : "lint errors",
      ms,
    });
    if (value.ok) {
      model = value.model;
      modelDir = join(root, PACK_DIR);
    }
    if (classes) mark([...classes.pack, ...classes.sources]);
  } else if (classes && classes.pack.length > 0) {
    diagnostics.push(
      info("validate.pack-removed", `${PACK_DIR} is gone; nothing left to lint`, { path: PACK_DIR }),
    );
    mark(classes.pack);
  }

  // ---------------------------------------------------------------- generated adapters in sync
  if ((packTouched || genTouched) && hasGeneratedManifest(root)) {
    const t = performance.now();
    const sources = await import("../install/sources.js");
    if (!hasPack) {
      // the installed package's pack, with this repository's customised files (.devrites/pack/) over it
      const { anchorToOrigin, effectivePack, PACK_OVERLAY } = await import("../install/overlay.js");
      const effective = effectivePack(root, opts.packDir ?? sources.PACKAGE_PACK);
      if (!effective.ok) diagnostics.push(...effective.diagnostics);
      else {
        overlayCleanup = effective.pack.cleanup;
        modelDir = effective.pack.dir;
        const loaded = await sources.loadLintedPack(modelDir, opts.knownCommands);
        if (loaded.ok) model = loaded.model;
        else if (effective.pack.overlaid.length > 0)
          diagnostics.push(
            ...loaded.diagnostics.map((d) => anchorToOrigin(d, effective.pack)),
            error(
              "validate.overlay-broken",
              `the devrites pack with the customised files of ${PACK_OVERLAY} does not lint; drift was not checked`,
              { path: PACK_OVERLAY, hint: `fix the files the errors name under ${PACK_OVERLAY}` },
            ),
          );
        else
          diagnostics.push(
            error(
              "validate.package-pack-broken",
              "the installed devrites' own pack does not lint; drift was not checked",
              {
                path: modelDir,
                hint: "reinstall devrites",
              },
            ),
          );
      }
    }
    if (model && modelDir) {
      const { checkAdapters } = await import("./adapters.js");
      const r = await checkAdapters(
        root,
        model,
        modelDir,
        opts.hooksDir ?? sources.PACKAGE_HOOKS,
        installed,
      ).finally(() => overlayCleanup?.());
      if (r.layouts.length > 0) {
        const onlyStaged = classes && !packTouched ? new Set(classes.generated) : undefined;
        const manifestsStaged = onlyStaged
          ? [...onlyStaged]
              .filter((p) => p.endsWith(`/${GENERATED_MANIFEST}`))
              .map((p) => p.slice(0, -GENERATED_MANIFEST.length))
          : [];
        const relevant = onlyStaged
          ? r.diagnostics.filter(
              (d) => !d.path || onlyStaged.has(d.path) || manifestsStaged.some((m) => d.path?.startsWith(m)),
            )
          : r.diagnostics;
        const found = [...r.planning, ...relevant];
        const shownDrift = onlyStaged
          ? r.drift.filter((d) => onlyStaged.has(d.path) || manifestsStaged.some((m) => d.path.startsWith(m)))
          : r.drift;
        details.push(...shownDrift.flatMap((d) => (d.diff ? [clip(d.diff)] : [`${d.state} ${d.path}`])));
        diagnostics.push(...found);
        const planned = !hasErrors(r.planning);
        const ok = !hasErrors(found);
        checks.push({
          name: "adapters",
          ok,
          detail: !planned
            ? `not compared: the generated files could not be planned (${r.layouts.join(", ")})`
            : ok
              ? `${r.files} files in sync (${r.layouts.join(", ")})`
              : `${r.drifted} of ${r.files} files drifted (${r.layouts.join(", ")})`,
          ms: performance.now() - t,
        });
        if (classes) mark([...classes.generated.filter((p) => r.covered.has(p)), ...classes.sources]);
      }
    } else if (hasPack && packTouched) {
      diagnostics.push(
        info(
          "validate.adapters-unchecked",
          "the pack has lint errors, so the generated files were not compared",
          { path: PACK_DIR },
        ),
      );
    }
  }

  overlayCleanup?.(); // also when the effective pack did not lint and nothing was compared

  // ---------------------------------------------------------------- install manifest and interrupted installs
  let manifest: import("../install/manifest.js").InstallManifest | undefined;
  let manifestProblem: Diagnostic | undefined;
  if (installed) {
    const { readFileSync } = await import("node:fs");
    const { parseInstallManifest } = await import("../install/manifest.js");
    const parsed = parseInstallManifest(readFileSync(join(root, INSTALL_MANIFEST), "utf8"));
    if (parsed.ok) manifest = parsed.manifest;
    else manifestProblem = parsed.diagnostic;
  }
  // With --staged: the manifest itself, or any file it manages, staged.
  const managedStaged =
    staged && manifest ? staged.filter((p) => manifest.files.some((f) => f.path === p)) : [];
  const installTouched = classes
    ? classes.workspace.includes(INSTALL_MANIFEST) || managedStaged.length > 0
    : true;
  let installDetail = "manifest readable";
  if ((installed && installTouched) || !classes) {
    const t = performance.now();
    const problems: Diagnostic[] = [];
    if (manifestProblem) problems.push(manifestProblem);
    if (manifest) {
      const { checkInstalledFiles } = await import("./install-files.js");
      const onlyManaged =
        classes && !classes.workspace.includes(INSTALL_MANIFEST) ? new Set(managedStaged) : undefined;
      const files = checkInstalledFiles(root, manifest, onlyManaged);
      problems.push(...files.diagnostics);
      installDetail = `manifest readable; ${files.compared} managed file(s) compared with it`;
      if (classes) mark(managedStaged);
    }
    const gitDir = where?.gitDir;
    if (gitDir && existsSync(join(gitDir, "devrites-install.journal")))
      problems.push(
        error("install.interrupted", "an install, update or uninstall was interrupted midway", {
          path: join(gitDir, "devrites-install.journal"),
          hint: "run devrites update (or uninstall): it first puts every file back as it was before that run",
        }),
      );
    if (installed || problems.length > 0) {
      diagnostics.push(...problems);
      checks.push({
        name: "install",
        ok: !hasErrors(problems),
        detail: !hasErrors(problems) ? installDetail : "problems",
        ms: performance.now() - t,
      });
    }
    if (classes && installed) mark([INSTALL_MANIFEST]);
  }

  // ---------------------------------------------------------------- the workspace
  const touchedRuns = classes ? new Set(classes.runs.keys()) : undefined;
  // The workspace files a check reads; other `.devrites/` files (spec.md, plan.md, …) are ordinary files here.
  const wsFiles = classes ? classes.workspace.filter((p) => WORKSPACE_RECORDS.includes(p)) : [];
  if (hasWorkspace && (!classes || (touchedRuns && touchedRuns.size > 0) || wsFiles.length > 0)) {
    const t = performance.now();
    const [{ checkWorkspace }, { checkRuns }] = await Promise.all([
      import("../run/workspace-check.js"),
      import("./runs.js"),
    ]);
    const all = checkWorkspace(root);
    const relevant = classes
      ? all.filter(
          (d) =>
            !d.path ||
            wsFiles.includes(d.path) ||
            [...(touchedRuns ?? [])].some(
              (id) => d.path === `${WORKSPACE}/runs/${id}` || d.path?.startsWith(`${WORKSPACE}/runs/${id}/`),
            ),
        )
      : all;
    const runs =
      touchedRuns?.size || !classes
        ? checkRuns(root, classes ? touchedRuns : undefined, where?.gitDir)
        : { diagnostics: [], runs: 0, accepted: 0 };
    const found = [...relevant, ...runs.diagnostics];
    diagnostics.push(...found);
    const ok = !hasErrors(found);
    checks.push({
      name: "workspace",
      ok,
      detail: `${runs.runs} run(s), ${runs.accepted} accepted result(s) re-verified${ok ? "" : "; problems found"}`,
      ms: performance.now() - t,
    });
    if (classes) {
      mark(wsFiles);
      for (const paths of classes.runs.values()) mark(paths);
    }
  } else if (classes && (classes.runs.size > 0 || wsFiles.length > 0) && !hasWorkspace) {
    // Every staged workspace file is a deletion: nothing left to check, and that is an evaluation.
    mark(wsFiles);
    for (const paths of classes.runs.values()) mark(paths);
  }

  // ---------------------------------------------------------------- staged files a leaf may still be writing
  if (classes && staged) {
    const rest = [
      ...classes.other,
      ...classes.generated.filter((p) => !evaluated.has(p)),
      ...classes.workspace.filter((p) => !evaluated.has(p)),
    ];
    if (rest.length > 0) {
      const t = performance.now();
      const { checkActiveRuns } = await import("./runs.js");
      const r = checkActiveRuns(root, rest);
      if (r) {
        diagnostics.push(...r.diagnostics);
        checks.push({
          name: "active-runs",
          ok: r.diagnostics.length === 0,
          detail: `${rest.length} staged file(s) checked against ${r.active} active run(s)`,
          ms: performance.now() - t,
        });
        mark(rest);
      }
    }
    const unevaluated = staged.filter((p) => !evaluated.has(p));
    if (evaluated.size === 0) {
      diagnostics.push(
        error(
          "validate.nothing-evaluated",
          `${staged.length} file(s) staged, and none of them is anything devrites checks`,
          {
            path: unevaluated.slice(0, 5).join(", ") + (unevaluated.length > 5 ? ", …" : ""),
            hint:
              hasPack || hasGeneratedManifest(root) || installed
                ? "devrites checks pack files, generated files and .devrites/ records here; other files only against " +
                  "active runs, which needs .devrites/state.json (devrites init creates it)"
                : "devrites is not set up in this repository (no pack/.claude, no generated adapters, no " +
                  ".devrites/): run devrites init, or remove the hook",
          },
        ),
      );
      return done(ExitCode.Violation, "validate --staged: failed: nothing was evaluated", {
        staged: { paths: staged.length, evaluated: 0, unevaluated },
      });
    }
    const partly = unstagedAmong(root, [...evaluated]);
    if (partly.length > 0)
      diagnostics.push(
        warning(
          "validate.partially-staged",
          `${partly.length} staged file(s) also have unstaged changes; the working-tree version was checked`,
          {
            path: partly.slice(0, 5).join(", ") + (partly.length > 5 ? ", …" : ""),
            hint: "stage them fully (or stash the rest) so what is checked is what is committed",
          },
        ),
      );
    const failed = hasErrors(diagnostics);
    return done(
      failed ? ExitCode.Violation : ExitCode.Ok,
      summaryText(
        `validate --staged: ${evaluated.size} of ${staged.length} staged file(s) evaluated`,
        checks,
        failed,
      ),
      { staged: { paths: staged.length, evaluated: evaluated.size, unevaluated } },
    );
  }

  if (checks.length === 0) {
    diagnostics.push(
      error("validate.nothing-to-check", "nothing here for devrites to check", {
        path: root,
        hint: "no pack/.claude, no generated adapters, no .devrites/ workspace: run devrites init first",
      }),
    );
    return done(ExitCode.Violation, "validate: nothing was evaluated");
  }
  const failed = hasErrors(diagnostics);
  return done(failed ? ExitCode.Violation : ExitCode.Ok, summaryText("validate", checks, failed));
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Whether any root a layout writes holds a sidecar manifest (cheap: a handful of stats, no planning). */
function hasGeneratedManifest(root: string): boolean {
  const fixed = [".claude", ".agents/skills", ".codex", ".claude-plugin", ".agents/plugins"];
  if (fixed.some((r) => existsSync(join(root, r, GENERATED_MANIFEST)))) return true;
  for (const host of ["claude", "codex"]) {
    let names: string[] = [];
    try {
      names = readdirSync(join(root, "plugins", host));
    } catch {
      continue;
    }
    if (names.some((n) => existsSync(join(root, "plugins", host, n, GENERATED_MANIFEST)))) return true;
  }
  return false;
}

/** A diff cut to its first 40 lines. */
function clip(diff: string): string {
  const lines = diff.trimEnd().split("\n");
  return lines.length <= 40
    ? lines.join("\n")
    : [...lines.slice(0, 40), `… (${lines.length - 40} more lines)`].join("\n");
}

function summaryText(head: string, checks: readonly CheckView[], failed: boolean): string {
  return [
    `${head}: ${failed ? "FAILED" : "ok"}`,
    ...checks.map((c) => `  ${c.name.padEnd(11)} ${c.ok ? "ok    " : "FAILED"} ${c.detail}`),
  ].join("\n");
}
