import { resolve } from "node:path";
import { type Diagnostic, error } from "../../core/diagnostics.js";
import type { Host } from "../../hosts/types.js";
import { checkSandbox, type SandboxCheck } from "../../sandbox/check.js";
import { nodeProbe } from "../../sandbox/node-fs.js";
import type { Command, CommandResult, ParsedArgs } from "../command.js";
import { flag, str, strs } from "../command.js";
import {
  INSTALL_HELP_COMMON,
  INSTALL_OPTIONS,
  parseHosts,
  runInstallCommand,
  usageResult,
} from "./install-shared.js";

/**
 * Adds to init's answer whether a leaf's shell calls can run sandboxed here (a sandbox is started to know): a
 * line of text and `data.sandbox`. Not a diagnostic: a missing sandbox lowers the guard's strength but does not
 * make the install fail or warn on every later command.
 */
/** Init's pointer to `devrites doctor` (its last line). */
export const DOCTOR_LINE =
  "doctor: run `devrites doctor` to prove on your installed Claude Code and Codex that they run these hooks in subagents, honour a deny and start the sandbox (docs/doctor.md); the writer is refused on a host version whose last doctor run failed";

export function withSandboxCheck(result: CommandResult, check: SandboxCheck): CommandResult {
  const line = check.ok
    ? `sandbox: bubblewrap works here (${check.bwrap}); leaf shell calls run sandboxed${check.copyOnWrite ? "" : " (the proof runner's repository read-only: no copy-on-write without the native helper or unshare, and overlayfs)"}`
    : `sandbox: none here: ${check.why}; ${check.hint}`;
  const next = `${line}\n${DOCTOR_LINE}`;
  const data =
    result.data !== undefined &&
    typeof result.data === "object" &&
    result.data !== null &&
    !Array.isArray(result.data)
      ? { ...(result.data as Record<string, unknown>), sandbox: check }
      : result.data;
  return {
    ...result,
    ...(result.text !== undefined ? { text: `${result.text}\n${next}` } : {}),
    ...(data !== undefined ? { data } : {}),
  };
}

export const initCommand: Command = {
  name: "init",
  summary:
    "Install devrites into a repository: the generated adapters, a .devrites/ skeleton, optionally a pre-commit hook",
  usage:
    "init [--target DIR] [--host claude,codex|none] [--roles codex] [--git-hook] [--dry-run] [--force] [--json]",
  help: [
    "Options:",
    "  --host H,…    claude, codex or both (default: what is installed, else both); none: only the launcher",
    "                .devrites/bin/devrites and the workspace (the rites come from a host plugin)",
    "  --roles codex with --host none, for the Codex plugin: also its roles (.codex/agents/) and the [agents]",
    "                block, which a Codex plugin cannot carry",
    "  --git-hook    also install a pre-commit hook running `devrites validate --staged` (an existing hook is",
    "                kept, moved aside and run first; core.hooksPath is honoured)",
    ...INSTALL_HELP_COMMON,
    "",
    "Installs the project-level files (.claude/, .agents/skills/, .codex/, AGENTS.md block, .devrites/hooks/,",
    "the [agents] block in .codex/config.toml, .devrites/state.json) and records them with their SHA-256 in",
    ".devrites/install.json. Shared files are merged, never replaced; a file you edited is never overwritten",
    "without --force. All or nothing: a failure midway leaves the repository exactly as it was.",
    "Exit codes: 0 ok · 1 blocked, skipped files you edited, or failed (rolled back) · 2 not a git repository,",
    "not its top level, or a bad option · 4 another devrites is installing here · 5 the package lacks its hook",
    "bundles.",
  ].join("\n"),
  options: {
    ...INSTALL_OPTIONS,
    host: { type: "string", multiple: true },
    roles: { type: "string", multiple: true },
    "git-hook": { type: "boolean" },
  },
  positionals: [0, 0],
  async run(args, io) {
    const hosts = parseHosts(args);
    if (hosts !== undefined && !Array.isArray(hosts)) return usageResult(hosts);
    const roles = parseRoles(args, hosts);
    if (roles !== undefined && !Array.isArray(roles)) return usageResult(roles);
    const result = await runInstallCommand("init", args, io, {
      hosts,
      roles,
      gitHook: flag(args, "git-hook"),
    });
    if (result.exitCode === 2 || result.exitCode === 4 || result.exitCode === 5) return result;
    // the copy-on-write view is tried on this repository, as the proof runner's calls will get it
    const target = resolve(io.cwd, str(args, "target") ?? ".");
    return withSandboxCheck(
      result,
      checkSandbox(process.env, undefined, { root: nodeProbe.realpath(target) ?? target }),
    );
  },
};

/**
 * `--roles codex`: the roles of a host whose plugin cannot carry agents (only Codex's), with `--host none` (a host
 * installed in full has its roles already).
 */
function parseRoles(args: ParsedArgs, hosts: Host[] | undefined): Host[] | undefined | Diagnostic {
  const raw = strs(args, "roles")
    .flatMap((h) => h.split(","))
    .map((h) => h.trim())
    .filter((h) => h !== "");
  if (raw.length === 0) return undefined;
  const bad = raw.find((h) => h !== "codex");
  if (bad !== undefined)
    return error("cli.usage", `--roles ${bad}: only codex`, {
      hint: "a Claude Code plugin carries its agents; --roles codex installs the roles a Codex plugin cannot",
    });
  if (hosts === undefined || hosts.length > 0)
    return error("cli.usage", "--roles goes with --host none", {
      hint: "a host installed in full has its roles already; for the Codex plugin: --host none --roles codex",
    });
  return ["codex"];
}
