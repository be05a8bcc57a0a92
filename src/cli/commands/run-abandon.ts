import { locateRoot } from "../../baseline/find-repo-root.js";
import { abandonRun } from "../../run/lifecycle.js";
import { type Command, str } from "../command.js";

export const runAbandon: Command = {
  name: "run abandon",
  summary: "Take an active run out of the active set, on record (a lost leaf, a result that cannot be used)",
  usage: 'run abandon <run-id> [--reason "<why>"] [--json]',
  help: `Options:
  --reason <why>  why the run is given up, kept in its ledger

Appends run.abandoned to .devrites/runs/<run-id>/events.jsonl and removes the run from state.active_runs.
Nothing is deleted: the packet, any stored result and the ledger stay as the record. An abandoned run takes no
result (result record: record.run-not-active), and devrites validate reports, never fails, a result it left.
A new packet for the wright supersedes older active wright runs by itself (run.superseded); abandon is for
the runs nothing replaces.

Exit: 0 abandoned · 1 not active (run.not-active) · 2 usage · 5 unknown run (run.unknown)`,
  options: { reason: { type: "string" } },
  positionals: [1, 1],
  async run(args, io) {
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const out = abandonRun({
      root: where.root,
      runId: args.positionals[0]!,
      reason: str(args, "reason"),
      now: new Date(),
    });
    return {
      exitCode: out.exitCode,
      diagnostics: out.diagnostics,
      ...(out.data
        ? {
            data: out.data,
            text: `abandoned ${out.data.run_id} (${out.data.step_id}); ${out.data.active_runs} run(s) still active`,
          }
        : {}),
    };
  },
};
