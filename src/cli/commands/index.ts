import type { Command } from "../command.js";
import { graphCommand } from "./graph.js";
import { packLintCommand } from "./pack-lint.js";

/** One import per command module; keep sorted. */
export const allCommands: Command[] = [graphCommand, packLintCommand];
