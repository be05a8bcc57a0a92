import { ExitCode, error } from "../../core/diagnostics.js";
import { DEMO_HEADER, renderDemoReport, stepLines } from "../../demo/report.js";
import { type DemoReport, runDemo } from "../../demo/run.js";
import { renderMermaid } from "../../pack/index.js";
import { type Command, type CommandResult, flag } from "../command.js";

/** Map a demo report to the command's result: exit 0 only when every scripted expectation held. */
export function demoResult(report: DemoReport, opts: { stepsShown?: boolean } = {}): CommandResult {
  return {
    exitCode: report.ok ? ExitCode.Ok : ExitCode.Violation,
    diagnostics: report.failure
      ? [
          error("demo.expectation-failed", `stage ${report.failure.stage}: ${report.failure.message}`, {
            hint: "the demo is a check: this devrites does not behave as the script expects",
          }),
        ]
      : [],
    text: renderDemoReport(report, opts),
    data: { ...report, mermaid: renderMermaid(report.graph) },
  };
}

export const demoCommand: Command = {
  name: "demo",
  summary: "Run a full scripted cycle in a throwaway git repository, with no model (and check every verdict)",
  usage: "demo [--keep] [--json]",
  help: [
    "Options:",
    "  --keep  keep the temporary repository and print its path",
    "",
    "In a temporary git repository holding a tiny sample project, installs the pack and runs the demo",
    "journey through the engine with scripted leaves: a scout accepted; a scout made stale by your edit",
    "(result.stale); a malformed result retried once with the defect quoted; a human gate (devrites resume",
    "exits 3, devrites resolve, devrites resume); a wright's out-of-scope write rejected (result.out-of-scope)",
    "with your uncommitted work intact. Prints each step's verdict and codes, the guard strength, the final",
    "status and the org chart. The temporary repository is removed, also on failure, unless --keep.",
    "",
    "Exit codes: 0 every scripted expectation held · 1 one did not (demo.expectation-failed names the stage).",
  ].join("\n"),
  options: { keep: { type: "boolean" } },
  positionals: [0, 0],
  async run(args, io) {
    // Each step is printed as soon as it is done (the JSON report comes whole at the end).
    const live = !flag(args, "json");
    if (live) io.out(`${DEMO_HEADER}\n`);
    const report = await runDemo({
      keep: flag(args, "keep"),
      ...(io.env.TMPDIR ? { tmpParent: io.env.TMPDIR } : {}),
      ...(live ? { onStep: (step) => io.out(stepLines(step).join("\n")) } : {}),
    });
    return demoResult(report, { stepsShown: live });
  },
};
