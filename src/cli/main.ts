import { parseArgs } from "node:util";
import { type Diagnostic, ExitCode, error, formatDiagnostic, sortDiagnostics } from "../core/diagnostics.js";
import type { Command, CommandIo, CommandResult, ParsedArgs } from "./command.js";
import { commandCatalog } from "./commands/catalog.js";
import { allRegistered, catalog, commandNamed, commandNames, registerCatalog } from "./registry.js";
import { VERSION } from "./version.js";

// Commands are known by name at startup and loaded when they run (a pre-commit hook pays only for its own).
if (catalog.length === 0) registerCatalog(commandCatalog);

export interface JsonReport {
  command: string;
  ok: boolean;
  exitCode: number;
  diagnostics: Diagnostic[];
  data?: unknown;
}

/** Find the command whose (space-separated) name is the longest prefix of argv, and load it. */
export async function findCommand(
  argv: readonly string[],
): Promise<{ command: Command; rest: string[] } | undefined> {
  let best: string | undefined;
  for (const name of commandNames()) {
    const words = name.split(" ");
    if (words.every((w, i) => argv[i] === w) && (!best || words.length > best.split(" ").length)) best = name;
  }
  if (best === undefined) return undefined;
  const command = await commandNamed(best);
  return command ? { command, rest: argv.slice(best.split(" ").length) } : undefined;
}

export async function topLevelHelp(): Promise<string> {
  const commands = await allRegistered();
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = [...commands]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `devrites ${VERSION} — enforcing orchestration harness for Claude Code and Codex`,
    "",
    "Usage: devrites <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Every command takes --help and --json.",
    "Exit codes: 0 ok · 1 violation · 2 usage · 3 human decision needed · 4 busy (locked) · 5 missing input",
  ].join("\n");
}

export function commandHelp(c: Command): string {
  return [`Usage: devrites ${c.usage}`, "", c.summary, ...(c.help ? ["", c.help.trimEnd()] : [])].join("\n");
}

/**
 * Run the CLI in-process. Returns the exit code; never throws (an internal error is exit 1 with a
 * diagnostic `cli.internal`).
 */
export async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const json = argv.includes("--json");
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    io.out(await topLevelHelp());
    return argv.length === 0 ? ExitCode.Usage : ExitCode.Ok;
  }
  if (argv[0] === "--version" || argv[0] === "-v") {
    io.out(VERSION);
    return ExitCode.Ok;
  }
  let found: Awaited<ReturnType<typeof findCommand>>;
  try {
    found = await findCommand(argv);
  } catch (e) {
    return emit(io, json, argv[0] ?? "", {
      exitCode: ExitCode.Violation,
      diagnostics: [
        error(
          "cli.internal",
          `internal error: cannot load the command: ${(e as Error)?.stack ?? String(e)}`,
          {
            hint: "this is a bug in devrites (or a broken install); please report it with the command you ran",
          },
        ),
      ],
    });
  }
  if (!found) {
    const name = argv.filter((a) => !a.startsWith("-")).join(" ");
    return emit(io, json, name || argv[0] || "", {
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("cli.unknown-command", `unknown command: ${name || argv.join(" ")}`, {
          hint: "run `devrites --help` for the list of commands",
        }),
      ],
    });
  }
  const { command, rest } = found;
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(commandHelp(command));
    return ExitCode.Ok;
  }
  const parsed = parseCommandArgs(command, rest);
  if (!parsed.ok) return emit(io, json, command.name, parsed.result);
  let result: CommandResult;
  try {
    result = await command.run(parsed.args, io);
  } catch (e) {
    result = {
      exitCode: ExitCode.Violation,
      diagnostics: [
        error("cli.internal", `internal error: ${(e as Error)?.stack ?? String(e)}`, {
          hint: "this is a bug in devrites; please report it with the command you ran",
        }),
      ],
    };
  }
  return emit(io, json, command.name, result);
}

/**
 * Parse a command's arguments exactly as `run` does, without running it: options (with `--json` and `--help`)
 * and the number of positionals. A refusal is a `cli.usage` result.
 */
export function parseCommandArgs(
  command: Command,
  rest: readonly string[],
): { ok: true; args: ParsedArgs } | { ok: false; result: CommandResult } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      options: { ...command.options, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    return { ok: false, result: usageError(command, (e as Error).message) };
  }
  const [min, max] = command.positionals;
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    const msg =
      parsed.positionals.length < min
        ? `missing argument (expected ${min === max ? min : `${min}–${max}`})`
        : `unexpected argument: ${parsed.positionals[max]}`;
    return { ok: false, result: usageError(command, msg) };
  }
  return { ok: true, args: { values: parsed.values, positionals: parsed.positionals } };
}

/** Parse a whole command line (after `devrites`) without running it: the command found, or why not. */
export async function parseCommandLine(
  argv: readonly string[],
): Promise<{ ok: true; command: Command; args: ParsedArgs } | { ok: false; diagnostics: Diagnostic[] }> {
  const found = await findCommand(argv);
  if (!found)
    return {
      ok: false,
      diagnostics: [error("cli.unknown-command", `unknown command: ${argv.join(" ")}`)],
    };
  const parsed = parseCommandArgs(found.command, found.rest);
  return parsed.ok
    ? { ok: true, command: found.command, args: parsed.args }
    : { ok: false, diagnostics: parsed.result.diagnostics };
}

function usageError(c: Command, message: string): CommandResult {
  return {
    exitCode: ExitCode.Usage,
    diagnostics: [error("cli.usage", message, { hint: `usage: devrites ${c.usage}` })],
  };
}

function emit(io: CommandIo, json: boolean, name: string, r: CommandResult): number {
  const diagnostics = sortDiagnostics(r.diagnostics);
  if (json) {
    const report: JsonReport = { command: name, ok: r.exitCode === 0, exitCode: r.exitCode, diagnostics };
    if (r.data !== undefined) report.data = r.data;
    io.out(JSON.stringify(report, null, 2));
  } else {
    if (r.text) io.out(r.text);
    for (const d of diagnostics) (d.severity === "error" ? io.err : io.out)(formatDiagnostic(d));
  }
  return r.exitCode;
}

/** Process entry point used by bin/devrites.js. */
export async function main(argv: string[]): Promise<number> {
  return run(argv, {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  });
}
