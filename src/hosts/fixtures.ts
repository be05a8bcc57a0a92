/**
 * Test inputs for the host adapters: stand-in hook bundles, fixed package metadata, and plans of the test
 * packs. Not shipped (the build leaves `fixtures.ts` out).
 */

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildPack } from "../pack/build.js";
import { cleanFiles } from "../pack/fixtures.js";
import { loadPack } from "../pack/load.js";
import type { PackModel } from "../pack/types.js";
import { hookCommand } from "./launcher.js";
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

/**
 * A stand-in bundle in the launcher's contract: CommonJS exporting `(stdin bytes) => answer`. It echoes its
 * stdin on stdout; "deny" in the input denies; the other words pick a way of failing.
 */
export const ECHO_BUNDLE = `
const ok = (s) => ({ exitCode: 0, stdout: "bundle saw " + s, stderr: "" });
module.exports = (input) => {
  const s = Buffer.from(input).toString("utf8");
  if (s.includes("deny")) return { exitCode: 2, stdout: "bundle saw " + s, stderr: "denied by bundle" };
  if (s.includes("crash")) throw new Error("boom");
  if (s.includes("garbage")) return { exitCode: 1, stdout: "", stderr: "" };
  if (s.includes("nothing")) return undefined;
  if (s.includes("async-ok")) return new Promise((r) => setTimeout(() => r(ok(s)), 10));
  if (s.includes("async-reject")) return Promise.reject(new Error("rejected"));
  if (s.includes("async-throw")) { setTimeout(() => { throw new Error("late boom"); }, 10); return new Promise(() => {}); }
  if (s.includes("hang")) return new Promise(() => { setTimeout(() => {}, 60_000); });
  return ok(s);
};
`;

/** A leaf's tool call as the launcher sees it: stdin mentions `agent_type`. */
export const LEAF_CALL = JSON.stringify({
  hook_event_name: "PreToolUse",
  agent_type: "devrites-slice-wright",
  tool_name: "Bash",
});

/** The guard's hook command (fail closed) with `extra` launcher options. */
export const guardCommand = (extra: Partial<Parameters<typeof hookCommand>[1]> = {}) =>
  hookCommand("pre-tool-use", { failClosed: true, timeoutSec: 10, ...extra });

/** Run a hook command through `/bin/sh -c` as a host would, with `env` over this process's (minus the project
 * variable and the compile cache switch, which the caller sets when it means to). */
export function runHookCommand(command: string, cwd: string, input: string, env: NodeJS.ProcessEnv) {
  const { CLAUDE_PROJECT_DIR: _drop, DEVRITES_NO_COMPILE_CACHE: _off, ...rest } = process.env;
  const r = spawnSync("/bin/sh", ["-c", command], { cwd, input, encoding: "utf8", env: { ...rest, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
