import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findRepoRoot } from "../../baseline/find-repo-root.js";
import { type Code, type Diagnostic, ExitCode, error, hasErrors } from "../../core/diagnostics.js";
import { hostAssets } from "../../hosts/files.js";
import {
  applyPlan,
  checkPlan,
  HOSTS,
  type Host,
  LAYOUTS,
  packageMeta,
  planOutputs,
} from "../../hosts/index.js";
import { HOOK_BUNDLE_EXT } from "../../hosts/output-path.js";
import { readCliBundle } from "../../install/render.js";
import { lintPack, loadPack, type PackModel } from "../../pack/index.js";
import { type Command, type CommandIo, flag, str } from "../command.js";
import { commandNames } from "../registry.js";
import { anchorDiagnostics } from "./pack-lint.js";

/** The devrites package root (three levels up from both src/cli/commands and dist/cli/commands). */
const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Diagnostic codes that mean the command line or the target is wrong (exit 2). */
const USAGE_CODES = new Set([
  "generate.path-unsafe",
  "generate.path-outside",
  "generate.path-symlink",
  "generate.path-not-dir",
  "generate.path-not-file",
]);

function usage(code: Code, message: string, path?: string, hint?: string): Diagnostic {
  return error(code, message, { ...(path ? { path } : {}), ...(hint ? { hint } : {}) });
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function resolveTarget(option: string | undefined, io: CommandIo): Promise<string | Diagnostic> {
  if (option !== undefined) {
    const abs = resolve(io.cwd, option);
    return (await isDir(abs))
      ? abs
      : usage("generate.target-invalid", "the target is not a directory", abs, "pass --target DIR");
  }
  try {
    return (await findRepoRoot(io.cwd)).root;
  } catch (e) {
    return usage("generate.target-invalid", (e as Error).message, io.cwd, "pass --target DIR");
  }
}

/** Read the hook bundles the wiring names; absent ones are left out (the plan reports them). */
async function readBundles(dir: string, model: PackModel): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of new Set(model.hooks.map((h) => h.entry))) {
    try {
      out.set(entry, await readFile(join(dir, `${entry}${HOOK_BUNDLE_EXT}`), "utf8"));
    } catch {
      // reported by the plan as generate.hook-bundle-missing
    }
  }
  return out;
}

async function readAssets(packDir: string, model: PackModel): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const s of model.skills) {
    for (const a of hostAssets(s)) {
      try {
        out.set(a, await readFile(join(packDir, a), "utf8"));
      } catch {
        // reported by the plan as generate.asset-missing
      }
    }
  }
  return out;
}

function exitFor(diagnostics: readonly Diagnostic[]): ExitCode {
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.some((d) => USAGE_CODES.has(d.code))) return ExitCode.Usage;
  if (errors.some((d) => d.code === "generate.hook-bundle-missing")) return ExitCode.MissingInput;
  return errors.length > 0 ? ExitCode.Violation : ExitCode.Ok;
}

export const generateCommand: Command = {
  name: "generate",
  summary: "Render the pack for Claude Code and Codex (project files, plugins, marketplaces), or check drift",
  usage: "generate [--check] [--host claude|codex] [--target DIR] [--pack DIR] [--hooks DIR] [--json]",
  help: [
    "Options:",
    "  --check       write nothing; exit 1 listing missing, stale, hand-edited and orphaned files (with diffs)",
    "  --host H      claude or codex (default: both)",
    "  --target DIR  where to write (default: the repository root of the working directory)",
    "  --pack DIR    the pack folder (default: this package's pack/.claude)",
    "  --hooks DIR   the bundled hook entry points (default: this package's hooks/, built by npm run build)",
    "",
    "Writes .claude/ (skills, agents, hooks merged into settings.json), .agents/skills/, .codex/ (roles,",
    "hooks.json), the devrites block in AGENTS.md, .devrites/hooks/, the Claude Code and Codex plugins under",
    "plugins/ and their marketplaces. A pack that fails lint is not rendered.",
    "Exit codes: 0 ok · 1 lint errors or drift · 2 bad target or unsafe output path · 5 missing pack or bundle.",
  ].join("\n"),
  options: {
    check: { type: "boolean" },
    host: { type: "string" },
    target: { type: "string" },
    pack: { type: "string" },
    hooks: { type: "string" },
  },
  positionals: [0, 0],
  async run(args, io) {
    const hostOption = str(args, "host");
    if (hostOption !== undefined && !(HOSTS as readonly string[]).includes(hostOption)) {
      return {
        exitCode: ExitCode.Usage,
        diagnostics: [
          usage("cli.usage", `unknown --host \`${hostOption}\``, undefined, `use ${HOSTS.join(" or ")}`),
        ],
      };
    }
    const hosts: Host[] = hostOption ? [hostOption as Host] : [...HOSTS];
    const target = await resolveTarget(str(args, "target"), io);
    if (typeof target !== "string") return { exitCode: ExitCode.Usage, diagnostics: [target] };

    const packDir = resolve(io.cwd, str(args, "pack") ?? join(PACKAGE_ROOT, "pack", ".claude"));
    const loaded = await loadPack(packDir);
    if (loaded.missing) {
      return {
        exitCode: ExitCode.MissingInput,
        diagnostics: anchorDiagnostics(loaded.diagnostics, packDir, io),
      };
    }
    const lint = anchorDiagnostics(
      [...loaded.diagnostics, ...lintPack(loaded.model, commandNames())],
      packDir,
      io,
    );
    if (hasErrors(lint)) {
      return {
        exitCode: ExitCode.Violation,
        diagnostics: lint,
        text: "generate: the pack has lint errors; nothing was rendered",
      };
    }

    const hooksDir = resolve(io.cwd, str(args, "hooks") ?? join(PACKAGE_ROOT, "hooks"));
    let pkg: unknown = {};
    try {
      pkg = JSON.parse(await readFile(join(PACKAGE_ROOT, "package.json"), "utf8"));
    } catch {
      // packageMeta falls back to neutral defaults
    }
    const { plan, diagnostics: planned } = planOutputs(loaded.model, {
      hosts,
      layouts: [...LAYOUTS],
      meta: packageMeta(pkg),
      bundles: await readBundles(hooksDir, loaded.model),
      assets: await readAssets(packDir, loaded.model),
      ...(await readCliBundle()),
    });
    const warnings = [...lint, ...anchorBundles(planned, hooksDir, io)];
    if (hasErrors(planned)) {
      return { exitCode: exitFor(planned), diagnostics: warnings, text: "generate: nothing was written" };
    }

    if (flag(args, "check")) {
      const report = await checkPlan(target, plan);
      const diagnostics = [...warnings, ...report.diagnostics];
      const text =
        report.drift.length === 0
          ? `generate --check: ${plan.files.length} files up to date (${hosts.join(", ")})`
          : [
              `generate --check: ${report.drift.length} of ${plan.files.length} files drifted`,
              ...report.drift.map((d) => `  ${d.state.padEnd(11)} ${d.path}`),
              ...report.drift.flatMap((d) => (d.diff ? ["", d.diff.trimEnd()] : [])),
            ].join("\n");
      return {
        exitCode: exitFor(diagnostics),
        diagnostics,
        text,
        data: { target, hosts, files: plan.files.length, drift: report.drift },
      };
    }

    const report = await applyPlan(target, plan);
    const diagnostics = [...warnings, ...report.diagnostics];
    return {
      exitCode: exitFor(diagnostics),
      diagnostics,
      text:
        `generate: ${plan.files.length} files for ${hosts.join(", ")}: ${report.written.length} written, ` +
        `${report.deleted.length} removed, ${report.unchanged} unchanged`,
      data: {
        target,
        hosts,
        files: plan.files.map((f) => f.path),
        written: report.written,
        deleted: report.deleted,
        kept: report.kept,
        unchanged: report.unchanged,
      },
    };
  },
};

/** Bundle diagnostics name `hooks/<entry>.cjs`; point them at the folder that was read. */
function anchorBundles(diagnostics: readonly Diagnostic[], hooksDir: string, io: CommandIo): Diagnostic[] {
  return diagnostics.map((d) =>
    d.code === "generate.hook-bundle-missing" && d.path
      ? anchorDiagnostics([{ ...d, path: join(hooksDir, d.path.replace(/^hooks\//, "")) }], io.cwd, io)[0]!
      : d,
  );
}
