import { locateRoot } from "../../baseline/find-repo-root.js";
import { ExitCode } from "../../core/diagnostics.js";
import { type RunSummary, readStatus, type StatusView } from "../../run/status.js";
import type { Command } from "../command.js";

function runLine(r: RunSummary): string {
  const what = [r.role, r.step_id, r.attempt ? `attempt ${r.attempt}` : undefined].filter(Boolean).join(" ");
  const verdict = r.verdict ? `, verdict ${r.verdict}` : "";
  const guard = r.guard_strength ? `, guard ${r.guard_strength}` : "";
  const blocker = r.blocker ? ` — ${r.blocker}` : "";
  return `  ${r.run_id}  ${what || "(no step recorded)"}: ${r.state}${verdict}${guard}${blocker}`;
}

/** The human rendering of a status view. */
export function renderStatus(v: StatusView): string {
  const lines: string[] = [];
  const journey = v.journey ? `${v.journey.name} (${v.journey.id}), ${v.journey.status}` : "none";
  lines.push(`rite: ${v.active_rite ?? "none"}${v.phase ? `, phase ${v.phase}` : ""}`);
  lines.push(`journey: ${journey}`);
  lines.push(v.active_runs.length ? "active runs:" : "active runs: none");
  lines.push(...v.active_runs.map(runLine));
  if (v.recent_runs.length) lines.push("recent runs:", ...v.recent_runs.map(runLine));
  lines.push(v.pending_questions.length ? "pending questions:" : "pending questions: none");
  for (const q of v.pending_questions)
    lines.push(
      `  ${q.qid} [${q.kind}] ${q.question}${q.options.length ? ` (options: ${q.options.join(" | ")})` : ""}${q.step_id ? ` — step ${q.step_id}` : ""}`,
    );
  const cmd = "command" in v.next && v.next.command ? ` → ${v.next.command}` : "";
  lines.push(`next: ${v.next.text}${cmd}`);
  return lines.join("\n");
}

export const statusCommand: Command = {
  name: "status",
  summary: "Show the journey: phase, active and recent runs, pending questions, the next action",
  usage: "status [--json]",
  help: [
    "Reads .devrites/ and changes nothing. Runs show the verdict and guard strength of their last check.",
    "A corrupt ledger line is reported as a warning and skipped; the ledger is never rewritten.",
    "",
    "Exit codes: 0 ok · 1 state.json is unreadable or malformed.",
  ].join("\n"),
  options: {},
  positionals: [0, 0],
  async run(_args, io) {
    const where = await locateRoot(io.cwd);
    if (!where.ok) return { exitCode: where.exitCode, diagnostics: where.diagnostics };
    const s = readStatus(where.root);
    if (!s.ok) return { exitCode: ExitCode.Violation, diagnostics: s.diagnostics };
    return { exitCode: ExitCode.Ok, diagnostics: s.diagnostics, text: renderStatus(s.view), data: s.view };
  },
};
