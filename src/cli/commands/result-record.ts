import { resolve } from "node:path";
import { locateRoot } from "../../baseline/find-repo-root.js";
import { ExitCode, error } from "../../core/diagnostics.js";
import { readInputBytes } from "../../result/fs-read.js";
import { recordResult } from "../../result/record.js";
import { type Command, str } from "../command.js";

export const resultRecord: Command = {
  name: "result record",
  summary: "Store a leaf's returned agent-result/v1 at its packet's result_path (unjudged)",
  usage: "result record <run-id> [--file <text-file>] [--json]",
  help: `Options:
  --file <text-file>  read the leaf's final message from this file (default: standard input)

The text must be UTF-8 (no byte-order mark) and be one bare JSON object, or contain exactly one
\`\`\`json fenced block; an object naming a key twice is refused. The object's text, byte for byte as
received, is written atomically to .devrites/runs/<run-id>/result.json and result.recorded is appended to the run's
events.jsonl. It is not judged here: run \`devrites result check\` next.

Exit: 0 recorded · 1 no single JSON object, run not active, or a different result already recorded ·
2 usage · 5 unknown run or missing --file`,
  options: { file: { type: "string" } },
  positionals: [1, 1],
  async run(args, io) {
    const file = str(args, "file");
    let text: string | Uint8Array;
    if (file !== undefined) {
      const read = readInputBytes(resolve(io.cwd, file), file, "the leaf's result text");
      if (!read.ok) return read;
      text = read.bytes;
    } else if (io.readStdinBytes) {
      text = await io.readStdinBytes();
    } else if (io.readStdin) {
      text = await io.readStdin();
    } else {
      return {
        exitCode: ExitCode.Usage,
        diagnostics: [
          error("input.invalid", "no --file and no standard input", {
            hint: "pipe the leaf's final message in, or give --file",
          }),
        ],
      };
    }
    const found = await locateRoot(io.cwd);
    if (!found.ok) return found;
    const root = found.root;
    const outcome = recordResult({
      root,
      runId: args.positionals[0]!,
      text,
      source: file ?? "stdin",
      now: new Date(),
    });
    return {
      exitCode: outcome.exitCode,
      diagnostics: outcome.diagnostics,
      ...(outcome.data ? { data: outcome.data, text: outcome.data.result_path } : {}),
    };
  },
};
