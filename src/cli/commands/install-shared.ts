/**
 * What `init`, `update` and `uninstall` share: their options, and the call into `src/install` (loaded on
 * demand, so other commands do not pay for it at startup).
 */

import { resolve } from "node:path";
import { type Diagnostic, ExitCode, error } from "../../core/diagnostics.js";
import { HOSTS, type Host } from "../../hosts/types.js";
import type { InstallMode } from "../../install/run.js";
import {
  type CommandIo,
  type CommandResult,
  flag,
  type OptionSpec,
  type ParsedArgs,
  str,
  strs,
} from "../command.js";
import { commandNames } from "../registry.js";
import { VERSION } from "../version.js";

export const INSTALL_OPTIONS: OptionSpec = {
  target: { type: "string" },
  "dry-run": { type: "boolean" },
  force: { type: "boolean" },
  pack: { type: "string" },
  hooks: { type: "string" },
};

export const INSTALL_HELP_COMMON = [
  "  --target DIR  the repository (its top level; default: the one you are in)",
  "  --dry-run     print what would happen per path (create, update, merge, restore, remove, skip-modified,",
  "                blocked) and write nothing",
  "  --force       also replace or remove files you edited (uninstall still restores what was yours)",
  "  --pack DIR, --hooks DIR  development: another pack folder or hook bundle folder",
];

/** `--host claude,codex` (or repeated): the hosts, or a usage diagnostic. */
export function parseHosts(args: ParsedArgs): Host[] | undefined | Diagnostic {
  const raw = strs(args, "host").flatMap((h) => h.split(","));
  if (raw.length === 0) return undefined;
  // `none`: no host adapters, only the CLI's launcher and the workspace (for a repository that gets the rites
  // from a host plugin, which would load project skills a second time).
  if (raw.length === 1 && raw[0]?.trim() === "none") return [];
  const out: Host[] = [];
  for (const h of raw.map((x) => x.trim()).filter((x) => x !== "")) {
    if (!(HOSTS as readonly string[]).includes(h))
      return error("cli.usage", `unknown host \`${h}\``, {
        hint: `use ${HOSTS.join(", ")} (comma-separated)`,
      });
    if (!out.includes(h as Host)) out.push(h as Host);
  }
  return out.length ? out : error("cli.usage", "--host names no host", { hint: `use ${HOSTS.join(", ")}` });
}

export async function runInstallCommand(
  mode: InstallMode,
  args: ParsedArgs,
  io: CommandIo,
  extra: { hosts?: Host[] | undefined; roles?: Host[] | undefined; gitHook?: boolean } = {},
): Promise<CommandResult> {
  const { runInstall } = await import("../../install/run.js");
  const outcome = await runInstall({
    mode,
    cwd: io.cwd,
    target: str(args, "target"),
    hosts: extra.hosts,
    roles: extra.roles,
    gitHook: extra.gitHook === true,
    dryRun: flag(args, "dry-run"),
    force: flag(args, "force"),
    now: new Date(),
    knownCommands: commandNames(),
    version: VERSION,
    packDir: at(io, str(args, "pack")),
    hooksDir: at(io, str(args, "hooks")),
  });
  return {
    exitCode: outcome.exitCode,
    diagnostics: outcome.diagnostics,
    ...(outcome.text !== undefined ? { text: outcome.text } : {}),
    ...(outcome.data !== undefined ? { data: outcome.data } : {}),
  };
}

const at = (io: CommandIo, p: string | undefined) => (p === undefined ? undefined : resolve(io.cwd, p));

export const usageResult = (d: Diagnostic): CommandResult => ({ exitCode: ExitCode.Usage, diagnostics: [d] });
