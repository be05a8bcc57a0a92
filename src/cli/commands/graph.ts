import { relative } from "node:path";
import { ExitCode, error, hasErrors } from "../../core/diagnostics.js";
import {
  GRAPH_FORMATS,
  type GraphFormat,
  lintGraph,
  loadPack,
  renderGraph,
  renderJson,
} from "../../pack/index.js";
import { type Command, str } from "../command.js";
import { anchorDiagnostics, PACK_DIR_HELP, packDir } from "./pack-lint.js";

function isFormat(x: string): x is GraphFormat {
  return (GRAPH_FORMATS as readonly string[]).includes(x);
}

export const graphCommand: Command = {
  name: "graph",
  summary: "Print the delegation graph (rites → roles) as Mermaid, DOT or JSON",
  usage: "graph [--format mermaid|dot|json] [--dir DIR] [--json]",
  help: [
    "Options:",
    "  --format F  mermaid (default), dot or json",
    `  --dir DIR   ${PACK_DIR_HELP}`,
    "",
    "Rites are the root orchestrators; roles are depth-one leaves, marked read-only or writer.",
    "Exit codes: 0 ok · 1 a delegation rule is broken (dangling role, cycle, …) · 2 bad --format · 5 no pack.",
  ].join("\n"),
  options: { format: { type: "string" }, dir: { type: "string" } },
  positionals: [0, 0],
  async run(args, io) {
    const format = str(args, "format") ?? "mermaid";
    if (!isFormat(format)) {
      return {
        exitCode: ExitCode.Usage,
        diagnostics: [
          error("cli.usage", `unknown --format \`${format}\``, {
            hint: `use one of: ${GRAPH_FORMATS.join(", ")}`,
          }),
        ],
      };
    }
    const dir = packDir(str(args, "dir"), io);
    const loaded = await loadPack(dir);
    if (loaded.missing) {
      return { exitCode: ExitCode.MissingInput, diagnostics: anchorDiagnostics(loaded.diagnostics, dir, io) };
    }
    const diagnostics = anchorDiagnostics(
      [...loaded.diagnostics, ...lintGraph(loaded.model)],
      dir,
      io,
    ).filter((d) => d.severity === "error");
    return {
      exitCode: hasErrors(diagnostics) ? ExitCode.Violation : ExitCode.Ok,
      diagnostics,
      text: renderGraph(loaded.model.graph, format),
      data: {
        dir: relative(io.cwd, dir).split("\\").join("/") || ".",
        format,
        graph: JSON.parse(renderJson(loaded.model.graph)),
      },
    };
  },
};
