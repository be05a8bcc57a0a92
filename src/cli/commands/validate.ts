import { resolve } from "node:path";
import type { ExitCode } from "../../core/diagnostics.js";
import { type Command, flag, str } from "../command.js";
import { commandNames } from "../registry.js";

const at = (cwd: string, p: string | undefined) => (p === undefined ? undefined : resolve(cwd, p));

export const validateCommand: Command = {
  name: "validate",
  summary:
    "Check the repository for pre-commit and CI: pack lint, generated adapters in sync, the .devrites/ workspace",
  usage: "validate [--staged] [--json]",
  help: [
    "Options:",
    "  --staged   only what the commit touches (git diff --cached): pack files → lint; generated files →",
    "             drift; .devrites/ runs → their envelopes, ties and baselines; other files → not written by a",
    "             leaf whose result nobody accepted yet. Files staged and none evaluated is a failure.",
    "  --pack DIR, --hooks DIR  development: the pack and hook bundles to render from when the repository",
    "             has no pack/.claude of its own (default: this package's)",
    "",
    "Checks: pack/.claude lints clean (when the repository has it); the generated files (found by their",
    ".devrites-generated.json manifests) match what the pack renders to; .devrites/install.json is readable",
    "and no install was interrupted; every packet and result is valid, every result has its packet, every",
    "accepted result's baseline.json still hashes to what its packet claims; state and ledgers well formed.",
    "Exit codes: 0 ok (or nothing staged) · 1 a check failed, or nothing was evaluated · 2 --staged outside git.",
  ].join("\n"),
  options: { staged: { type: "boolean" }, pack: { type: "string" }, hooks: { type: "string" } },
  positionals: [0, 0],
  async run(args, io) {
    const { validateRepo } = await import("../../validate-repo/index.js");
    const outcome = await validateRepo({
      cwd: io.cwd,
      staged: flag(args, "staged"),
      knownCommands: commandNames(),
      packDir: at(io.cwd, str(args, "pack")),
      hooksDir: at(io.cwd, str(args, "hooks")),
    });
    return {
      exitCode: outcome.exitCode as ExitCode,
      diagnostics: outcome.diagnostics,
      text: outcome.text,
      data: outcome.data,
    };
  },
};
