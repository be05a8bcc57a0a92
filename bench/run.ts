/**
 * `npm run bench [-- <section>…]`: run every benchmark section (`bench/<name>.ts` exporting
 * `run(): Promise<Row[]>`; files starting with `_` and this runner are not sections) and print one table.
 * Benchmarks are measurements, not tests: a missed target is reported, never asserted, and the exit code
 * is 0 unless a section crashes.
 */

import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Row, Section } from "./_types.js";

const here = dirname(fileURLToPath(import.meta.url));

function sections(filter: readonly string[]): string[] {
  return readdirSync(here)
    .filter((f) => f.endsWith(".ts") && !f.startsWith("_") && f !== "run.ts" && !f.endsWith(".test.ts"))
    .map((f) => basename(f, ".ts"))
    .filter((name) => filter.length === 0 || filter.includes(name))
    .sort();
}

export function formatTable(rows: readonly Row[]): string {
  const header = ["section", "metric", "value", "unit", "target", "ok", "note"];
  const body = rows.map((r) => [
    r.section,
    r.metric,
    formatValue(r.value),
    r.unit,
    r.target ?? "",
    r.ok === undefined ? "" : r.ok ? "yes" : "NO",
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
}

async function main(argv: string[]): Promise<number> {
  const names = sections(argv);
  if (names.length === 0) {
    process.stderr.write(`no benchmark section matches ${argv.join(" ")}\n`);
    return 2;
  }
  const rows: Row[] = [];
  let failed = false;
  for (const name of names) {
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as Section;
      rows.push(...(await mod.run()));
    } catch (e) {
      failed = true;
      process.stderr.write(`bench: section ${name} crashed: ${(e as Error)?.stack ?? String(e)}\n`);
    }
  }
  process.stdout.write(`${formatTable(rows)}\n`);
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
