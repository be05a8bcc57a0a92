import type { Command } from "../command.js";
import { flag } from "../command.js";
import {
  INSTALL_HELP_COMMON,
  INSTALL_OPTIONS,
  parseHosts,
  runInstallCommand,
  usageResult,
} from "./install-shared.js";

export const initCommand: Command = {
  name: "init",
  summary:
    "Install devrites into a repository: the generated adapters, a .devrites/ skeleton, optionally a pre-commit hook",
  usage: "init [--target DIR] [--host claude,codex|none] [--git-hook] [--dry-run] [--force] [--json]",
  help: [
    "Options:",
    "  --host H,…    claude, codex or both (default: what is installed, else both); none: only the launcher",
    "                .devrites/bin/devrites and the workspace (the rites come from a host plugin)",
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
  options: { ...INSTALL_OPTIONS, host: { type: "string", multiple: true }, "git-hook": { type: "boolean" } },
  positionals: [0, 0],
  async run(args, io) {
    const hosts = parseHosts(args);
    if (hosts !== undefined && !Array.isArray(hosts)) return usageResult(hosts);
    return runInstallCommand("init", args, io, { hosts, gitHook: flag(args, "git-hook") });
  },
};
