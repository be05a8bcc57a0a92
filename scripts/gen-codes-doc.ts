/**
 * `npx tsx scripts/gen-codes-doc.ts`: write the docs' code tables from the diagnostics catalogue
 * (`src/core/codes/`): the whole of `docs/codes.md` and the guard's table in `docs/guard-policy.md`.
 * With `--check` it writes nothing and exits 1 when a file differs from what the catalogue renders.
 *
 * The planning is exported so a test can compare it with the committed files.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fillRegion, GUARD_TABLE, REGENERATE, renderCodesDoc } from "../src/core/codes/doc.js";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CODES_DOC = "docs/codes.md";

/** One generated file: its repository-relative path, what is on disk (undefined when absent) and what it should be. */
export interface Planned {
  path: string;
  current: string | undefined;
  want: string;
}

function read(root: string, rel: string): string | undefined {
  try {
    return readFileSync(join(root, rel), "utf8");
  } catch {
    return undefined;
  }
}

/** What each generated file should hold. Throws when a region's markers are broken (nothing is written). */
export function planCodesDocs(root: string = REPO_ROOT): Planned[] {
  const guard = read(root, GUARD_TABLE.file);
  if (guard === undefined) throw new Error(`${GUARD_TABLE.file}: missing; it carries the guard's code table`);
  const filled = fillRegion(guard, GUARD_TABLE);
  if (!filled.ok) throw new Error(`${GUARD_TABLE.file}: ${filled.why}`);
  return [
    { path: CODES_DOC, current: read(root, CODES_DOC), want: renderCodesDoc() },
    { path: GUARD_TABLE.file, current: guard, want: filled.text },
  ];
}

export function main(argv: readonly string[], root: string = REPO_ROOT): number {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    console.error(`usage: npx tsx scripts/gen-codes-doc.ts [--check]\nunexpected argument: ${unknown[0]}`);
    return 2;
  }
  const check = argv.includes("--check");
  let plan: Planned[];
  try {
    plan = planCodesDocs(root);
  } catch (e) {
    console.error(`error ${(e as Error).message}`);
    return 1;
  }
  const stale = plan.filter((p) => p.current !== p.want);
  if (check) {
    for (const p of stale)
      console.error(`error ${p.path}: ${p.current === undefined ? "missing" : "stale"}; run ${REGENERATE}`);
    if (stale.length === 0) console.log(`codes: ${plan.length} files up to date`);
    return stale.length > 0 ? 1 : 0;
  }
  for (const p of stale) {
    writeFileSync(join(root, p.path), p.want);
    console.log(`wrote ${p.path}`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.exitCode = main(process.argv.slice(2));
