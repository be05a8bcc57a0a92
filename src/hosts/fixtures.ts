/**
 * Test inputs for the host adapters: stand-in hook bundles, fixed package metadata, and plans of the test
 * packs. Not shipped (the build leaves `fixtures.ts` out).
 */

import { fileURLToPath } from "node:url";
import { buildPack } from "../pack/build.js";
import { cleanFiles } from "../pack/fixtures.js";
import { loadPack } from "../pack/load.js";
import type { PackModel } from "../pack/types.js";
import { planOutputs } from "./plan.js";
import type { PackageMeta, PlanInput } from "./types.js";

/** A pack exercising every file type: two rites (one explicit-only), a reader and a writer, three hooks. */
export const GOLDEN_PACK = fileURLToPath(new URL("../../tests/fixtures/hosts/golden-pack", import.meta.url));

export const TEST_META: PackageMeta = {
  name: "devrites",
  version: "9.9.9",
  description: "Test build of devrites.",
  license: "MIT",
  author: { name: "devrites contributors" },
};

/** Stand-ins for the built hook entry points. */
export function standInBundles(
  entries = ["pre-tool-use", "subagent-stop", "user-prompt-submit"],
): Map<string, string> {
  return new Map(entries.map((e) => [e, `#!/usr/bin/env node\n// stand-in for ${e}\nprocess.exit(0);\n`]));
}

export function testInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    hosts: ["claude", "codex"],
    layouts: ["project", "plugin"],
    meta: TEST_META,
    bundles: standInBundles(),
    cli: "#!/usr/bin/env node\n// stand-in for the one-file CLI\nprocess.exit(0);\n",
    ...overrides,
  };
}

export async function goldenModel(): Promise<PackModel> {
  const loaded = await loadPack(GOLDEN_PACK);
  if (loaded.diagnostics.length > 0) throw new Error(`golden pack: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.model;
}

/** The clean in-memory pack from the pack fixtures. */
export function cleanModel(): PackModel {
  return buildPack(cleanFiles()).model;
}

export function planClean(overrides: Partial<PlanInput> = {}) {
  return planOutputs(cleanModel(), testInput(overrides));
}
