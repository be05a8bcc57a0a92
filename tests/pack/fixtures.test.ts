/**
 * Fixture packs under tests/fixtures/packs/: `valid` lints clean; each other folder is `valid` with one seeded
 * defect, and lint must report that defect with its own code, the file and the line (where one is known), plus
 * only the errors that follow from it.
 */

import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PLANNED_COMMANDS } from "../../src/pack/fixtures.js";
import { lintPack, loadPack } from "../../src/pack/index.js";

const ROOT = fileURLToPath(new URL("../fixtures/packs/", import.meta.url));

interface Expected {
  /** The seeded defect. */
  seeded: { code: string; path: string; line?: number };
  /** Every error code expected, sorted (the seeded one and its consequences). */
  errors: string[];
}

const EXPECTED: Record<string, Expected> = {
  "malformed-frontmatter": {
    seeded: { code: "pack.frontmatter-malformed", path: "agents/devrites-evidence-scout.md", line: 3 },
    errors: ["pack.dispatch-dangling", "pack.frontmatter-malformed"],
  },
  "unknown-field": {
    seeded: { code: "pack.unknown-field", path: "skills/rite-look/SKILL.md", line: 4 },
    errors: ["pack.unknown-field"],
  },
  "missing-section": {
    seeded: { code: "pack.section-missing", path: "agents/devrites-evidence-scout.md" },
    errors: ["pack.section-missing"],
  },
  "dangling-role": {
    seeded: { code: "pack.dispatch-dangling", path: "skills/rite-look/SKILL.md", line: 6 },
    errors: ["pack.dispatch-dangling"],
  },
  cycle: {
    seeded: { code: "pack.delegation-cycle", path: "skills/rite-echo/SKILL.md", line: 6 },
    errors: ["pack.delegation-cycle", "pack.dispatch-not-role", "pack.dispatch-not-role"],
  },
  "unknown-include": {
    seeded: { code: "pack.include-missing", path: "agents/devrites-evidence-scout.md", line: 34 },
    errors: ["pack.include-missing", "pack.section-missing"],
  },
  "unknown-command": {
    seeded: { code: "pack.command-unknown", path: "skills/rite-look/SKILL.md", line: 31 },
    errors: ["pack.command-unknown"],
  },
  "write-tool": {
    seeded: { code: "pack.role-tool-forbidden", path: "agents/devrites-evidence-scout.md", line: 4 },
    errors: ["pack.role-tool-forbidden"],
  },
};

async function lint(name: string) {
  const { model, diagnostics } = await loadPack(`${ROOT}${name}`);
  return [...diagnostics, ...lintPack(model, PLANNED_COMMANDS)];
}

describe("fixture packs", () => {
  it("has an expectation for every fixture folder", () => {
    const dirs = readdirSync(ROOT).sort();
    expect(dirs).toEqual(["valid", ...Object.keys(EXPECTED)].sort());
  });

  it("valid: lints clean", async () => {
    expect(await lint("valid")).toEqual([]);
  });

  for (const [name, want] of Object.entries(EXPECTED)) {
    it(`${name}: reports ${want.seeded.code} at its file and line`, async () => {
      const all = await lint(name);
      const errors = all.filter((d) => d.severity === "error");
      expect(errors.map((d) => d.code).sort()).toEqual(want.errors);
      const hit = errors.find((d) => d.code === want.seeded.code && d.path === want.seeded.path);
      expect(hit, JSON.stringify(errors)).toBeDefined();
      expect(hit?.line).toBe(want.seeded.line);
    });
  }
});
