import type { Command } from "../command.js";
import { INSTALL_HELP_COMMON, INSTALL_OPTIONS, runInstallCommand } from "./install-shared.js";

export const updateCommand: Command = {
  name: "update",
  summary: "Bring an installed devrites up to this version, touching only managed files you did not edit",
  usage: "update [--target DIR] [--dry-run] [--force] [--json]",
  help: [
    "Options:",
    ...INSTALL_HELP_COMMON,
    "",
    "Re-plans the hosts recorded in .devrites/install.json (and the pre-commit hook, if installed): changed",
    "files are replaced while unedited, files no longer generated are removed, shared files re-merged.",
    "Exit codes: 0 ok · 1 blocked, skipped edited files, corrupt manifest or failed (rolled back) · 2 bad target",
    "· 4 another devrites is installing here · 5 devrites is not installed here.",
  ].join("\n"),
  options: INSTALL_OPTIONS,
  positionals: [0, 0],
  run: (args, io) => runInstallCommand("update", args, io),
};
