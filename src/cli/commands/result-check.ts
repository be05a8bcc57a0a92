import { runResultCheck } from "../../result/check.js";
import { type Command, str } from "../command.js";

export const resultCheck: Command = {
  name: "result check",
  summary: "Validate a leaf's agent-result/v1 against its packet and the real working tree",
  usage: "result check <result.json> [--packet <packet.json>] [--json]",
  help: `Options:
  --packet <packet.json>  the run's packet (default: packet.json beside the result)

Checks, in order, reporting every violated rule: schema → version → run id, role and baseline identity
(and that the stored baseline.json is the one the packet names) → status → budgets → payload type →
declared side effects → the real tree (read-only roles: nothing changed since the baseline; the wright:
every change allowlisted, declared and hashing as reported) → expiry.

Only a complete result is accepted. partial, failed, cannot_verify and a blocked result without a gate
are rejected with their own code (result.partial, result.failed, result.cannot-verify, result.blocked);
a valid result that raises gates (complete, or blocked on a human decision) exits 3.

The verdict is appended to the run's events.jsonl as result.checked; an accepted run leaves
state.active_runs. --json data: {verdict, run_id, role, guard_strength, changed_paths, status}.

Exit: 0 accepted · 1 rejected · 2 usage · 3 a gate needs a human decision · 5 missing input`,
  options: { packet: { type: "string" } },
  positionals: [1, 1],
  async run(args, io) {
    const outcome = await runResultCheck({
      cwd: io.cwd,
      result: args.positionals[0]!,
      packet: str(args, "packet"),
      now: new Date(),
    });
    const d = outcome.data;
    return {
      exitCode: outcome.exitCode,
      diagnostics: outcome.diagnostics,
      ...(d
        ? {
            data: d,
            text: `${d.verdict}: ${d.run_id} (${d.role}), guard ${d.guard_strength}${d.changed_paths.length ? `, ${d.changed_paths.length} changed path(s)` : ""}`,
          }
        : {}),
    };
  },
};
