/**
 * Golden files: every file the adapters render for the golden test pack, per host, layout and file type, in
 * `tests/golden/` (a leading `.` in a folder name becomes `dot-`, so no host loads the goldens as config).
 * Shared files are rendered over user content to pin the merge. Update with `npx vitest run -u`.
 */

import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { goldenModel, testInput } from "./fixtures.js";
import { mergeSettingsJson, upsertMarkedBlock } from "./merge.js";
import { planOutputs } from "./plan.js";

const GOLDEN_DIR = fileURLToPath(new URL("../../tests/golden/", import.meta.url));

/** What the user already had in the shared files. */
const USER: Record<string, string> = {
  ".claude/settings.json": `${JSON.stringify(
    {
      permissions: { allow: ["Bash(npm test)"] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh" }] }] },
    },
    null,
    2,
  )}\n`,
  ".codex/hooks.json": `${JSON.stringify(
    { hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } },
    null,
    2,
  )}\n`,
  "AGENTS.md": "# Project rules\n\nRun the tests before you commit.\n",
};

function goldenPath(path: string): string {
  return (
    GOLDEN_DIR +
    path
      .split("/")
      .map((seg) => (seg.startsWith(".") ? `dot-${seg.slice(1)}` : seg))
      .join("/")
  );
}

describe("golden files", async () => {
  const { plan, diagnostics } = planOutputs(await goldenModel(), testInput());

  it("renders the golden pack without diagnostics", () => {
    expect(diagnostics).toEqual([]);
  });

  for (const file of plan.files) {
    it(`${file.path} (${file.kind})`, async () => {
      let text = file.content;
      if (file.kind === "merged-json") {
        const r = mergeSettingsJson(USER[file.path], file.content);
        if (!r.ok) throw new Error(r.diagnostic.message);
        text = r.text;
      } else if (file.kind === "marked-block") {
        const r = upsertMarkedBlock(USER[file.path], file.content);
        if (!r.ok) throw new Error(r.diagnostic.message);
        text = r.text;
      }
      await expect(text).toMatchFileSnapshot(goldenPath(file.path));
    });
  }
});
