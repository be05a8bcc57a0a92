import { resolve } from "node:path";
import { locateRoot } from "../../baseline/find-repo-root.js";
import { ExitCode, error, warning } from "../../core/diagnostics.js";
import { BUNDLED_PACK, loadRiteCards } from "../../route/cards.js";
import { route } from "../../route/route.js";
import { readState } from "../../run/workspace.js";
import { type Command, str } from "../command.js";

export const routeCommand: Command = {
  name: "route",
  summary: "Pick the rite for a request: sticky to the active rite, a question when unsure, never a throw",
  usage: 'route "<text>" [--active RITE|none] [--pack DIR] [--json]',
  help: [
    "Options:",
    "  --active RITE   route as if RITE were active (`none`: no journey); default: state.json",
    "  --pack DIR      the pack whose rites route (default: the pack shipped with devrites)",
    "",
    "Reasons: matched (the text names or clearly describes the rite) · active (no clear shift: stay) ·",
    "start (no evidence, no journey, but it reads as work: the rite that starts the journey) ·",
    "first (no evidence, no journey, not work: the menu) · clarify (ambiguous or too weak to leave the active rite:",
    "ask the question before doing anything).",
    "",
    "Exit codes: 0 routed (including clarify) · 2 a blank request · 5 the pack is missing.",
  ].join("\n"),
  options: { active: { type: "string" }, pack: { type: "string" } },
  positionals: [1, 1],
  async run(args, io) {
    if ((args.positionals[0] ?? "").trim() === "")
      return {
        exitCode: ExitCode.Usage,
        diagnostics: [
          error("input.invalid", "the request to route is blank", {
            hint: 'pass the user\'s request, verbatim: devrites route "<the request>"',
          }),
        ],
      };
    const pack = str(args, "pack");
    const loaded = await loadRiteCards(pack ? resolve(io.cwd, pack) : BUNDLED_PACK);
    if (loaded.missing) return { exitCode: ExitCode.MissingInput, diagnostics: loaded.diagnostics };
    const diagnostics = loaded.diagnostics.filter((d) => d.severity === "error");
    let active: string | null = null;
    let phase: string | null = null;
    const flagActive = str(args, "active");
    if (flagActive !== undefined) active = flagActive === "none" ? null : flagActive;
    else {
      const where = await locateRoot(io.cwd);
      const st = where.ok ? readState(where.root, new Date().toISOString()) : undefined;
      if (st?.ok) {
        active = st.state.active_rite;
        phase = st.state.phase;
      } else
        diagnostics.push(
          warning("route.no-state", "could not read the journey state; routing as if no rite were active", {
            hint: "run `devrites status` to see what is wrong",
          }),
        );
    }
    const r = route(args.positionals[0] ?? "", loaded.cards, { active_rite: active, phase });
    const head = r.reason === "clarify" ? `clarify (from ${r.rite ?? "no rite"})` : `${r.rite} (${r.reason})`;
    return {
      exitCode: ExitCode.Ok,
      diagnostics,
      text: [`${head}, confidence ${r.confidence.toFixed(2)}`, ...(r.question ? [r.question] : [])].join(
        "\n",
      ),
      data: r,
    };
  },
};
