/**
 * The docs' code tables, rendered from the catalogue (pure: text in, text out). `docs/codes.md` is whole
 * generated; `docs/guard-policy.md` carries the guard's table between two markers. The script
 * `scripts/gen-codes-doc.ts` writes them and, with `--check`, reports drift.
 */

import { ExitCode } from "../diagnostics.js";
import { AREAS, type CodeEntry } from "./index.js";

export const REGENERATE = "npx tsx scripts/gen-codes-doc.ts";
export const GENERATED_NOTE = `generated — do not edit; regenerate with \`${REGENERATE}\``;

const EXIT_NAMES = new Map<unknown, string>(
  Object.entries(ExitCode).map(([name, n]) => [n, `${n} (${name})`]),
);

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

function exitText(exit: CodeEntry["exit"]): string {
  if (exit === "hook") return "— (hook deny)";
  if (exit === "varies") return "varies";
  return EXIT_NAMES.get(exit) ?? String(exit);
}

function table(record: Readonly<Record<string, CodeEntry>>): string[] {
  const rows = ["| code | severity | exit | meaning | hint |", "| --- | --- | --- | --- | --- |"];
  for (const code of Object.keys(record).sort()) {
    const e = record[code]!;
    const meaning = e.reserved ? `(reserved) ${e.summary}` : e.summary;
    rows.push(`| \`${code}\` | ${e.severity} | ${exitText(e.exit)} | ${cell(meaning)} | ${cell(e.hint)} |`);
  }
  return rows;
}

const AREA_TITLES: Record<keyof typeof AREAS, string> = {
  judge: "The validator (`devrites result check`, `packet new`, `result record`)",
  cli: "The command line",
  decision: "Decision records",
  demo: "`devrites demo`",
  doctor: "`devrites doctor`",
  engine: "The journey engine",
  envelope: "Envelope parsing",
  event: "Run ledger events",
  generate: "`devrites generate` (host adapters)",
  guard: "The guard hook (see guard-policy.md)",
  install: "`devrites install` / `update` / `uninstall`",
  journey: "Journeys",
  ledger: "The run ledger",
  pack: "`devrites pack lint` (the pack)",
  packet: "Packets",
  question: "Questions and answers",
  resume: "Resuming a journey",
  rite: "Rites",
  route: "Routing",
  run: "Runs",
  scope: "Path scope (allowlists, packet paths, guard write targets)",
  validate: "`devrites validate`",
  workspace: "The `.devrites/` workspace",
};

/** The whole of `docs/codes.md`. */
export function renderCodesDoc(): string {
  const lines = [
    `<!-- ${GENERATED_NOTE} -->`,
    "",
    "# Diagnostic codes",
    "",
    "Every diagnostic devrites prints has a stable code (`area.rule`); scripts and the root rites match on",
    "them. This is the whole catalogue (`src/core/codes/`): severity, the exit code a command ends with when",
    "the code decides it, what it means and the standing hint (a site may give a more specific one).",
    "A warning or a note fails no command unless its row gives an exit code other than 0 (one does:",
    "`install.skip-modified`); `varies` means the summary says which command ends with which code; guard",
    "rules are answered to the host as hook denials.",
    "",
  ];
  for (const area of Object.keys(AREAS).sort() as (keyof typeof AREAS)[]) {
    lines.push(`## ${AREA_TITLES[area]}`, "", ...table(AREAS[area]), "");
  }
  return lines.join("\n");
}

/** A region of a hand-written doc that is generated: its markers and its body. */
export interface Region {
  file: string;
  name: string;
  render: () => string;
}

export const GUARD_TABLE: Region = {
  file: "docs/guard-policy.md",
  name: "guard-codes",
  render: () => {
    const rows = ["| code | meaning | what the leaf should do |", "| --- | --- | --- |"];
    for (const [code, e] of Object.entries(AREAS.guard) as [string, CodeEntry][])
      rows.push(`| \`${code}\` | ${cell(e.summary)} | ${cell(e.hint)} |`);
    return rows.join("\n");
  },
};

export function beginMarker(name: string): string {
  return `<!-- begin ${name}: ${GENERATED_NOTE} -->`;
}
export function endMarker(name: string): string {
  return `<!-- end ${name} -->`;
}

/** `text` with the region's body replaced, or an error naming what is wrong with its markers. */
export function fillRegion(
  text: string,
  region: Region,
): { ok: true; text: string } | { ok: false; why: string } {
  const begin = beginMarker(region.name);
  const end = endMarker(region.name);
  const b = text.indexOf(begin);
  const e = text.indexOf(end);
  if (b < 0 || e < 0 || e < b || text.indexOf(begin, b + 1) >= 0 || text.indexOf(end, e + 1) >= 0)
    return { ok: false, why: `expected one "${begin}" line followed by one "${end}" line` };
  return { ok: true, text: `${text.slice(0, b + begin.length)}\n${region.render()}\n${text.slice(e)}` };
}
