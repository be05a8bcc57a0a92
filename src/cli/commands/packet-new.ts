import { runPacketNew } from "../../packet/create.js";
import { type Command, str, strs } from "../command.js";

export const packetNew: Command = {
  name: "packet new",
  summary: "Freeze the baseline and write an agent-packet/v1 for one leaf run",
  usage:
    'packet new --role <role> --rite <rite> --objective "<text>" [--phase <phase>] [--allow <path>]… [--input <path>]… [--expires-in <minutes>] [--json]',
  help: `Options:
  --role <role>           the leaf role (devrites-evidence-scout, devrites-plan-drafter, devrites-proof-runner,
                          devrites-spec-reviewer, devrites-code-reviewer, devrites-slice-wright)
  --rite <rite>           the dispatching rite, e.g. rite-build
  --objective <text>      the leaf's one bounded job
  --phase <phase>         spec, plan, build, prove, review, ship or quick (default: the workspace phase,
                          else the rite's name when it is a phase)
  --allow <path>          a file the wright may write, repository-relative and exact (repeat; wright only,
                          and required for it)
  --input <path>          a file the leaf reads first, repository-relative (repeat)
  --expires-in <minutes>  reject a result checked after this many minutes

Writes .devrites/runs/<run-id>/baseline.json, the run's anchor (<git-dir>/devrites/anchors/, or
.devrites/anchors/ when the git folder is read-only), then packet.json, appends packet.created and adds
the run to state.active_runs. Prints the packet path (--json: the whole packet).

The writer (devrites-slice-wright) is refused (dispatch.doctor-failed, exit 1) while the last
\`devrites doctor\` for the host version this runs under failed (docs/doctor.md).

Exit: 0 written · 1 refused (doctor failed, or no anchor folder writable) · 2 bad option or path (named,
with what was expected) · 5 missing repository or input`,
  options: {
    role: { type: "string" },
    rite: { type: "string" },
    objective: { type: "string" },
    phase: { type: "string" },
    allow: { type: "string", multiple: true },
    input: { type: "string", multiple: true },
    "expires-in": { type: "string" },
  },
  positionals: [0, 0],
  async run(args, io) {
    const outcome = await runPacketNew({
      cwd: io.cwd,
      role: str(args, "role"),
      rite: str(args, "rite"),
      objective: str(args, "objective"),
      phase: str(args, "phase"),
      allow: strs(args, "allow"),
      inputs: strs(args, "input"),
      expiresIn: str(args, "expires-in"),
      now: new Date(),
      env: io.env,
    });
    return {
      exitCode: outcome.exitCode,
      diagnostics: outcome.diagnostics,
      ...(outcome.data ? { data: outcome.data, text: outcome.data.packet_path } : {}),
    };
  },
};
