import type { Command } from "../command.js";
import { askCommand } from "./ask.js";
import { evalCommand } from "./eval.js";
import { graphCommand } from "./graph.js";
import { packLintCommand } from "./pack-lint.js";
import { resolveCommand } from "./resolve.js";
import { resumeCommand } from "./resume.js";
import { routeCommand } from "./route.js";
import { statusCommand } from "./status.js";

/** One import per command module; keep sorted. */
export const allCommands: Command[] = [
  askCommand,
  evalCommand,
  graphCommand,
  packLintCommand,
  resolveCommand,
  resumeCommand,
  routeCommand,
  statusCommand,
];
