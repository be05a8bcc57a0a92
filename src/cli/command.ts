import type { ParseArgsConfig } from "node:util";
import type { Diagnostic, ExitCode } from "../core/diagnostics.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export interface CommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Human output (ignored with --json). */
  out(text: string): void;
  err(text: string): void;
  /** The whole of standard input, for commands that read it (absent when there is none to read). */
  readStdin?(): Promise<string>;
  /** The same, as the exact bytes received (for commands that must not decode leniently). */
  readStdinBytes?(): Promise<Uint8Array>;
}

export interface CommandResult {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  /** Extra machine-readable data for --json. */
  data?: unknown;
  /** Human-readable text printed before the diagnostics (ignored with --json). */
  text?: string;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/**
 * A CLI command. `name` may have spaces (`result check`): the dispatcher matches the longest prefix of
 * argv. Options `--json` and `--help` are added by the shell to every command.
 */
export interface Command {
  name: string;
  summary: string;
  /** Usage line after `devrites `, e.g. `result check <result.json> [--packet <packet.json>] [--json]`. */
  usage: string;
  /** Longer help: option descriptions and examples. */
  help?: string;
  options: OptionSpec;
  /** Number of positionals accepted: [min, max]. */
  positionals: [number, number];
  run(args: ParsedArgs, io: CommandIo): Promise<CommandResult> | CommandResult;
}

/** Typed accessors for parsed option values. */
export function str(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === "string" ? v : undefined;
}

export function strs(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return typeof v === "string" ? [v] : [];
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}
