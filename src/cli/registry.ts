import type { Command } from "./command.js";

/**
 * Every CLI command, one module each under ./commands. The pack linter reads this list to check that every
 * command a rite tells the model to run exists.
 */
export const commands: Command[] = [];

export function registerCommands(list: Command[]): void {
  for (const c of list) {
    if (commands.some((x) => x.name === c.name)) throw new Error(`duplicate command ${c.name}`);
    commands.push(c);
  }
}

/** All command names, e.g. `result check`, `packet new`. */
export function commandNames(): string[] {
  return commands.map((c) => c.name).sort();
}
