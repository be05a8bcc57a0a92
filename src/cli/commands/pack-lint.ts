import { existsSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { type Diagnostic, ExitCode, hasErrors } from "../../core/diagnostics.js";
import { PACKAGE_PACK } from "../../install/sources.js";
import { estimateTokens, lintPack, loadPack, measurePack } from "../../pack/index.js";
import { type Command, type CommandIo, str } from "../command.js";
import { commandNames } from "../registry.js";

/** The pack's source folder, relative to the repository root. */
export const DEFAULT_PACK_DIR = "pack/.claude";

/** What `--dir` defaults to, in the help texts. */
export const PACK_DIR_HELP =
  "the pack folder (default: pack/.claude when the working directory has one, as devrites' own repository does; else the pack of the installed package, the one `devrites init` installed from)";

/**
 * Resolve `--dir` against the working directory. Without it: `pack/.claude` there when it exists (the pack's
 * source repository), else the installed package's own pack, so `graph` and `pack lint` work in a user's
 * repository too.
 */
export function packDir(dirOption: string | undefined, io: CommandIo): string {
  if (dirOption !== undefined) return resolve(io.cwd, dirOption);
  const local = resolve(io.cwd, DEFAULT_PACK_DIR);
  return existsSync(local) ? local : PACKAGE_PACK;
}

/** Re-anchor pack-relative diagnostic paths so they read from the working directory. */
export function anchorDiagnostics(diagnostics: Diagnostic[], dir: string, io: CommandIo): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.path === undefined) return d;
    const abs = isAbsolute(d.path) ? d.path : join(dir, d.path);
    const rel = relative(io.cwd, abs).split("\\").join("/");
    return { ...d, path: rel === "" ? "." : rel };
  });
}

export const packLintCommand: Command = {
  name: "pack lint",
  summary: "Check the pack: frontmatter, names, sections, commands, delegation graph, context budget",
  usage: "pack lint [--dir DIR] [--json]",
  help: [
    "Options:",
    `  --dir DIR   ${PACK_DIR_HELP}`,
    "",
    "Exit codes: 0 clean (warnings allowed) · 1 errors · 5 the pack folder is missing.",
  ].join("\n"),
  options: { dir: { type: "string" } },
  positionals: [0, 0],
  async run(args, io) {
    const dir = packDir(str(args, "dir"), io);
    const loaded = await loadPack(dir);
    if (loaded.missing) {
      return { exitCode: ExitCode.MissingInput, diagnostics: anchorDiagnostics(loaded.diagnostics, dir, io) };
    }
    const diagnostics = anchorDiagnostics(
      [...loaded.diagnostics, ...lintPack(loaded.model, commandNames())],
      dir,
      io,
    );
    const budget = measurePack(loaded.model);
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.filter((d) => d.severity === "warning").length;
    const { skills, agents, hooks } = loaded.model;
    const text = [
      `${errors === 0 ? "pack ok" : "pack has errors"}: ${skills.length} skills, ${agents.length} agents, ${hooks.length} hooks`,
      `always-on: ${budget.alwaysOnChars} chars (~${budget.alwaysOnTokensEstimate} tokens); largest on invoke: ${budget.maxInvokeChars} chars (~${estimateTokens(budget.maxInvokeChars)} tokens)`,
      `${errors} errors, ${warnings} warnings`,
    ].join("\n");
    return {
      exitCode: hasErrors(diagnostics) ? ExitCode.Violation : ExitCode.Ok,
      diagnostics,
      text,
      data: {
        dir: relative(io.cwd, dir).split("\\").join("/") || ".",
        skills: skills.map((s) => s.name),
        agents: agents.map((a) => ({ name: a.name, mode: a.mode })),
        hooks: hooks.map((h) => h.event),
        budget,
      },
    };
  },
};
