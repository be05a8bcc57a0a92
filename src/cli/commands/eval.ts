import { resolve } from "node:path";
import { ExitCode, error, hasErrors } from "../../core/diagnostics.js";
import { BUNDLED_PACK, loadRiteCards } from "../../route/cards.js";
import { type EvalReport, evaluateCorpora, loadCorpora } from "../../route/corpus.js";
import { type Command, str } from "../command.js";

export const DEFAULT_MIN_ACCURACY = 0.9;

export function renderEval(report: EvalReport): string {
  const width = Math.max(4, ...report.rites.map((r) => r.rite.length));
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const lines = report.rites.map(
    (r) =>
      `${r.rite.padEnd(width)}  ${String(r.passed).padStart(3)}/${String(r.total).padEnd(3)}  ${pct(r.accuracy)}`,
  );
  const failures = report.rites.flatMap((r) =>
    r.failures.map(
      (f) =>
        `  ${r.rite} ${f.kind}${f.active ? ` [in ${f.active}]` : ""}: "${f.text}" → ${f.got.rite ?? "none"} (${f.got.reason}), expected ${f.expected}`,
    ),
  );
  return [
    ...lines,
    `${"all".padEnd(width)}  ${String(report.passed).padStart(3)}/${String(report.total).padEnd(3)}  ${pct(report.accuracy)}`,
    ...(failures.length ? ["misses:", ...failures] : []),
  ].join("\n");
}

export const evalCommand: Command = {
  name: "eval",
  summary: "Run every rite's routing corpus through the router and print the accuracy per rite",
  usage: "eval [--pack DIR] [--min N] [--json]",
  help: [
    "Options:",
    "  --pack DIR   the pack whose skills/<rite>/routing.json corpora and route hints to use",
    "               (default: the pack shipped with devrites)",
    `  --min N      the overall accuracy below which the command fails (default ${DEFAULT_MIN_ACCURACY})`,
    "",
    "A positive case passes when the request routes to its rite; a negative case when it does not (a",
    "clarifying question passes: it is never a wrong write), and, with `expect`, goes there instead.",
    "",
    "Exit codes: 0 at or above the minimum · 1 below it, or a broken corpus · 2 bad --min · 5 no pack.",
  ].join("\n"),
  options: { pack: { type: "string" }, min: { type: "string" } },
  positionals: [0, 0],
  async run(args, io) {
    const minText = str(args, "min");
    const min = minText === undefined ? DEFAULT_MIN_ACCURACY : Number(minText);
    if (!Number.isFinite(min) || min < 0 || min > 1)
      return {
        exitCode: ExitCode.Usage,
        diagnostics: [error("cli.usage", `--min must be a number from 0 to 1, got ${minText}`)],
      };
    const pack = str(args, "pack");
    const dir = pack ? resolve(io.cwd, pack) : BUNDLED_PACK;
    const loaded = await loadRiteCards(dir);
    if (loaded.missing) return { exitCode: ExitCode.MissingInput, diagnostics: loaded.diagnostics };
    const { corpora, diagnostics } = loadCorpora(dir);
    const report = evaluateCorpora(corpora, loaded.cards);
    const all = [...loaded.diagnostics.filter((d) => d.severity === "error"), ...diagnostics];
    if (corpora.length === 0)
      all.push(error("route.no-corpus", "no skills/<rite>/routing.json corpus found", { path: dir }));
    if (report.accuracy < min)
      all.push(
        error("route.accuracy", `routing accuracy ${report.accuracy.toFixed(3)} is below ${min}`, {
          hint: "improve the rites' route hints (frontmatter devrites.route.hints), not the corpora",
        }),
      );
    return {
      exitCode: hasErrors(all) ? ExitCode.Violation : ExitCode.Ok,
      diagnostics: all,
      text: renderEval(report),
      data: report,
    };
  },
};
