import type { Command } from "../command.js";
import { INSTALL_HELP_COMMON, INSTALL_OPTIONS, runInstallCommand } from "./install-shared.js";

export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "Remove what devrites installed and give shared files back as they were",
  usage: "uninstall [--target DIR] [--dry-run] [--force] [--json]",
  help: [
    "Options:",
    ...INSTALL_HELP_COMMON,
    "",
    "Removes the files devrites created while unedited; restores a file that was yours byte for byte while",
    "unedited since devrites wrote it, else takes devrites' part out (JSON: semantically, so formatting may",
    "change; AGENTS.md and config.toml: everything outside the markers stays); moves a chained pre-commit hook",
    "back. Files you edited are kept and stay listed. Your runs and records in .devrites/ are never removed.",
    "Exit codes: 0 ok · 1 some edited files were kept, blocked, or failed (rolled back) · 2 bad target ·",
    "4 another devrites is installing here · 5 devrites is not installed here.",
  ].join("\n"),
  options: INSTALL_OPTIONS,
  positionals: [0, 0],
  run: (args, io) => runInstallCommand("uninstall", args, io),
};
