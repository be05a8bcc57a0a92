import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runCapture } from "../test-io.js";

// This file imports neither the demo nor the driver: resume must find them by the names state.json records.
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "devrites-resume-builtins-")));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q", "--template=");
  for (const [p, c] of Object.entries({
    "src/math.js": "export const x = 1;\n",
    "test/math.test.js": "// t\n",
  })) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  const t = "2026-11-29T22:15:00.000Z";
  mkdirSync(join(root, ".devrites"));
  writeFileSync(
    join(root, ".devrites/state.json"),
    JSON.stringify({
      schema: "devrites-state/v1",
      active_rite: null,
      phase: null,
      active_runs: [],
      journey: {
        id: "j-20261129T221500Z-01020304",
        name: "demo",
        driver: "cli",
        status: "running",
        started_at: t,
      },
      updated_at: t,
    }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("devrites resume finds the built-in cli driver and demo journey in a fresh process", async () => {
  const r = await runCapture(["resume", "--json"], root);
  const j = JSON.parse(r.stdout);
  expect(j.diagnostics).toEqual([]);
  expect(r.code).toBe(0);
  expect(j.data).toMatchObject({
    status: "await",
    runs: [{ step_id: "rite-spec/devrites-evidence-scout#1", role: "devrites-evidence-scout" }],
  });
  expect(j.data.runs[0].instruction).toMatch(/devrites result record run-/);
});
