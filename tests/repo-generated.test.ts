/**
 * The repository's own `.claude/`, `.codex/`, `.agents/`, `plugins/`, `.claude-plugin/`, `.devrites/hooks/` and
 * `AGENTS.md` block are produced by `devrites generate`; this fails on any drift (CI runs it with the tests).
 * It needs the built hook bundles (`npm run build`); without them it is skipped, with the reason in its name.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCapture } from "../src/cli/test-io.js";
import { loadPack } from "../src/pack/index.js";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const { model } = await loadPack(join(REPO, "pack", ".claude"));
const missing = [...new Set(model.hooks.map((h) => `hooks/${h.entry}.cjs`))].filter(
  (p) => !existsSync(join(REPO, p)),
);
const skip = missing.length > 0 ? `SKIPPED: ${missing.join(", ")} not built (npm run build)` : undefined;

describe.skipIf(skip !== undefined)(`the repository's generated files${skip ? ` — ${skip}` : ""}`, () => {
  it("devrites generate --check is clean", async () => {
    const r = await runCapture(["generate", "--check", "--target", REPO], REPO);
    expect(r.code, `${r.stdout}\n${r.stderr}\nRun \`devrites generate\` and commit the result.`).toBe(0);
  });
});
