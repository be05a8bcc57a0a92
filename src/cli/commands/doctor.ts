import { type Diagnostic, ExitCode, error } from "../../core/diagnostics.js";
import { type Command, str, strs } from "../command.js";

const HOSTS = ["claude", "codex"] as const;
type Host = (typeof HOSTS)[number];

/** `--host` values → the hosts, or a usage diagnostic (pure). */
export function parseDoctorHosts(raw: readonly string[]): Host[] | undefined | Diagnostic {
  const names = raw.flatMap((h) => h.split(",")).map((h) => h.trim());
  if (names.length === 0) return undefined;
  const out: Host[] = [];
  for (const h of names) {
    if (!(HOSTS as readonly string[]).includes(h)) {
      return error("cli.usage", `--host ${JSON.stringify(h)} is not a host doctor knows`, {
        hint: "use --host claude or --host codex (or leave it out for every host found)",
      });
    }
    if (!out.includes(h as Host)) out.push(h as Host);
  }
  return out;
}

export const doctorCommand: Command = {
  name: "doctor",
  summary:
    "Prove on your installed hosts what devrites relies on (hooks in subagents, deny, sandbox, SubagentStop, Codex hook trust)",
  usage: "doctor [--host claude|codex] [--claude PATH] [--codex PATH] [--json]",
  help: [
    "Options:",
    "  --host H      probe only this host (claude or codex; default: every one found on PATH)",
    "  --claude PATH the Claude Code executable to probe (default: `claude` on PATH)",
    "  --codex PATH  the Codex CLI executable to probe (default: `codex` on PATH)",
    "",
    "Each host runs offline in a scratch repository (devrites installed as `devrites init` does it, a HOME and",
    "config folder of its own, under ~/.cache/devrites/doctor) against a fake model on 127.0.0.1: no network,",
    "no tokens, nothing of yours read or written, except that Codex's trust of the hooks in the repository you",
    "run doctor in is read from a copy of your config.toml. Prints one row per probe (host, version, probe,",
    "result, what to do) and keeps the result per host version in ~/.local/state/devrites/doctor.json:",
    "`devrites packet new` refuses the writer role while the last doctor run for the running host's version",
    "failed. See docs/doctor.md.",
    "",
    "Exit codes: 0 every guarantee holds · 1 a guarantee failed, or a host asked for is missing · 2 a bad option",
    "· 5 no host found at all.",
  ].join("\n"),
  options: {
    host: { type: "string", multiple: true },
    claude: { type: "string" },
    codex: { type: "string" },
  },
  positionals: [0, 0],
  async run(args, io) {
    const hosts = parseDoctorHosts(strs(args, "host"));
    if (hosts !== undefined && !Array.isArray(hosts))
      return { exitCode: ExitCode.Usage, diagnostics: [hosts] };
    const bins: Partial<Record<Host, string>> = {};
    for (const h of HOSTS) {
      const given = str(args, h);
      if (given === undefined) continue;
      if (given.trim() === "") {
        return {
          exitCode: ExitCode.Usage,
          diagnostics: [
            error("cli.usage", `--${h} needs a path`, { hint: `e.g. --${h} "$(command -v ${h})"` }),
          ],
        };
      }
      if (hosts && !hosts.includes(h)) {
        return {
          exitCode: ExitCode.Usage,
          diagnostics: [
            error("cli.usage", `--${h} ${given} given, but --host ${hosts.join(",")} leaves ${h} out`, {
              hint: `add --host ${h}, or drop --${h}`,
            }),
          ],
        };
      }
      bins[h] = given;
    }
    const { runDoctor } = await import("../../doctor/run.js");
    const { renderMatrix } = await import("../../doctor/matrix.js");
    const outcome = await runDoctor({ hosts, bins, cwd: io.cwd, env: io.env, now: () => new Date() });
    const text =
      outcome.reports.length > 0
        ? `${renderMatrix(outcome.reports)}${outcome.statePath ? `\nresult kept in ${outcome.statePath}` : ""}`
        : undefined;
    return {
      exitCode: outcome.exitCode,
      diagnostics: outcome.diagnostics,
      data: { reports: outcome.reports, ...(outcome.statePath ? { state_path: outcome.statePath } : {}) },
      ...(text !== undefined ? { text } : {}),
    };
  },
};
