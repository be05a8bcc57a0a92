import type { Command } from "../command.js";

/** One import per command module; keep sorted. */
export const allCommands: Command[] = [];
