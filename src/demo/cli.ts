/**
 * Run one devrites command in-process through the CLI shell: the same argument parsing and exit-code mapping
 * as the binary, so the demo's exit codes are the CLI's.
 */

import type { CommandIo } from "../cli/command.js";
import type { Diagnostic } from "../core/diagnostics.js";

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
  /** The `--json` report, when asked for. */
  json?: { exitCode: number; diagnostics: Diagnostic[]; data?: unknown };
}

export async function cli(cwd: string, argv: string[], stdin?: string): Promise<CliOutput> {
  const { run } = await import("../cli/main.js"); // at call time: the command table loads this module
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { cwd, env: {}, out: (t) => out.push(t), err: (t) => err.push(t) };
  if (stdin !== undefined) io.readStdin = async () => stdin;
  const code = await run(argv, io);
  const stdout = out.join("\n");
  const result: CliOutput = { code, stdout, stderr: err.join("\n") };
  if (argv.includes("--json")) result.json = JSON.parse(stdout) as CliOutput["json"];
  return result;
}
