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
  // `--version` is answered wherever it appears before a `--` (every command takes it).
  const end = argv.indexOf("--");
  const flags = end < 0 ? argv : argv.slice(0, end);
  if (argv[0] === "-v" || flags.includes("--version")) {
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
    const group = await groupOf(argv[0] ?? "");
    if (group.length > 0 && (argv.length === 1 || argv[1]?.startsWith("-"))) {
      const help = argv.includes("--help") || argv.includes("-h");
      if (json && !help)
        return emit(io, json, argv[0]!, {
          exitCode: ExitCode.Usage,
          diagnostics: [
            error("cli.usage", `\`${argv[0]}\` needs a subcommand: ${group.map((c) => c.name).join(", ")}`, {
              hint: `run \`devrites ${argv[0]} --help\``,
            }),
          ],
        });
      io.out(groupHelp(argv[0]!, group));
      return help ? ExitCode.Ok : ExitCode.Usage;
    }
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
    return { ok: false, result: usageError(command, parseErrorMessage(command, e)) };
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

/** Node's parseArgs message, said in devrites' words (never its raw text, which suggests `--` tricks). */
export function parseErrorMessage(c: Command, e: unknown): string {
  const err = e as { code?: string; message?: string };
  const msg = err?.message ?? String(e);
  const option = /'(-{1,2}[^' ]*)/.exec(msg)?.[1];
  const known = Object.keys(c.options).map((o) => `--${o}`);
  const list = known.length > 0 ? `; it takes ${known.join(", ")}` : "; it takes no options";
  switch (err?.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option ?? ""} for \`devrites ${c.name}\`${list}`.replace("  ", " ");
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take an argument/.test(msg)
        ? `option ${option ?? ""} takes no value`
        : /ambiguous/.test(msg)
          ? `option ${option ?? ""} needs a value (a value starting with "-" is written ${option ?? "--x"}=-value)`
          : `option ${option ?? ""} needs a value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument${option ? ` ${option}` : ""}`;
    default:
      return `cannot read the command line (${msg.split(".")[0]})`;
  }
}

/** The commands under a group word (`packet`, `result`, `pack`, `run`), loaded; empty when `word` is none. */
async function groupOf(word: string): Promise<Command[]> {
  const names = commandNames().filter((n) => n.startsWith(`${word} `));
  const loaded = await Promise.all(names.map((n) => commandNamed(n)));
  return loaded.filter((c): c is Command => c !== undefined);
}

function groupHelp(word: string, group: readonly Command[]): string {
  const width = Math.max(...group.map((c) => c.name.length));
  return [
    `Usage: devrites ${word} <subcommand> [options]`,
    "",
    "Subcommands:",
    ...group.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `Run \`devrites ${word} <subcommand> --help\` for its options.`,
  ].join("\n");
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

async function stdinBytes(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Process entry point used by bin/devrites.js. */
export async function main(argv: string[]): Promise<number> {
  return run(argv, {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
    readStdin: async () => (await stdinBytes()).toString("utf8"),
    readStdinBytes: stdinBytes,
  });
}
