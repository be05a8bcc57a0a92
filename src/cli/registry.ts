import type { Command } from "./command.js";

/**
 * Every CLI command, one module each under ./commands. The pack linter reads this list to check that every
 * command a rite tells the model to run exists.
 */
export const commands: Command[] = [];

/** A command known by name, its module loaded only when it runs (startup stays lean: see commands/catalog.ts). */
export interface CommandEntry {
  name: string;
  load: () => Promise<Command>;
}

export const catalog: CommandEntry[] = [];

export function registerCommands(list: Command[]): void {
  for (const c of list) {
    if (commands.some((x) => x.name === c.name)) throw new Error(`duplicate command ${c.name}`);
    commands.push(c);
  }
}

export function registerCatalog(list: readonly CommandEntry[]): void {
  for (const e of list) {
    if (catalog.some((x) => x.name === e.name)) throw new Error(`duplicate command ${e.name}`);
    catalog.push(e);
  }
}

/** All command names, e.g. `result check`, `packet new`. */
export function commandNames(): string[] {
  return [...new Set([...commands.map((c) => c.name), ...catalog.map((e) => e.name)])].sort();
}

/** The command called `name`: registered, or loaded from the catalog. */
export async function commandNamed(name: string): Promise<Command | undefined> {
  const known = commands.find((c) => c.name === name);
  if (known) return known;
  const entry = catalog.find((e) => e.name === name);
  return entry ? entry.load() : undefined;
}

/** Every command, loading the catalog's modules (for the full help). */
export async function allRegistered(): Promise<Command[]> {
  const loaded = await Promise.all(catalog.map((e) => e.load()));
  const byName = new Map<string, Command>();
  for (const c of [...loaded, ...commands]) byName.set(c.name, c);
  return [...byName.values()];
}
