import { locateRoot } from "../../baseline/find-repo-root.js";
import { endRite, startRite } from "../../run/rite-marks.js";
import { type Command, str } from "../command.js";

export const riteStart: Command = {
  name: "rite start",
  summary: "Record that a rite is in progress (state.active_rite and phase), for status, route and resume",
  usage: "rite start <rite> [--phase <phase>] [--json]",
  help: `Options:
  --phase <phase>  spec, plan, build, prove, review, ship or quick (default: the rite's name when it is one)

Sets state.active_rite and state.phase in .devrites/state.json. devrites packet new --rite <rite> does the
same for the rite that dispatches. Clear it with devrites rite end <rite> when the rite stops and reports.

Exit: 0 recorded · 1 state.json unreadable · 2 bad rite name or phase`,
  options: { phase: { type: "string" } },
  positionals: [1, 1],
  async run(args, io) {
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const out = startRite({
      root: where.root,
      rite: args.positionals[0]!,
      phase: str(args, "phase"),
      now: new Date(),
    });
    return {
      ...out,
      ...(out.data
        ? {
            text: `active rite: ${out.data.active_rite}${out.data.phase ? ` (phase ${out.data.phase})` : ""}`,
          }
        : {}),
    };
  },
};

export const riteEnd: Command = {
  name: "rite end",
  summary: "Record that the active rite has ended (clears state.active_rite and phase)",
  usage: "rite end [<rite>] [--json]",
  help: `Clears state.active_rite and state.phase. Given a rite, only when it is the active one (else
rite.other-active, exit 1, nothing changed). No rite active: nothing to do (exit 0).

Exit: 0 cleared or nothing active · 1 another rite is active, or state.json unreadable · 2 bad rite name`,
  options: {},
  positionals: [0, 1],
  async run(args, io) {
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const out = endRite({ root: where.root, rite: args.positionals[0], now: new Date() });
    return { ...out, ...(out.data?.changed ? { text: "no rite active" } : {}) };
  },
};
