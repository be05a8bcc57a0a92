import { describe, expect, it } from "vitest";
import { classifyStaged } from "./staged.js";

describe("classifyStaged", () => {
  it("maps each staged path to the check it concerns", () => {
    const c = classifyStaged([
      "pack/.claude/agents/devrites-slice-wright.md",
      ".claude/agents/devrites-slice-wright.md",
      ".agents/skills/rite/SKILL.md",
      ".codex/hooks.json",
      ".devrites/hooks/pre-tool-use.cjs",
      "plugins/claude/devrites/hooks/hooks.json",
      ".claude-plugin/marketplace.json",
      "AGENTS.md",
      ".devrites/runs/run-20260101T000000Z-0a1b2c3d/result.json",
      ".devrites/runs/run-20260101T000000Z-0a1b2c3d/packet.json",
      ".devrites/state.json",
      ".devrites/install.json",
      "src/app.ts",
    ]);
    expect(c.pack).toEqual(["pack/.claude/agents/devrites-slice-wright.md"]);
    expect(c.generated).toEqual([
      ".claude/agents/devrites-slice-wright.md",
      ".agents/skills/rite/SKILL.md",
      ".codex/hooks.json",
      ".devrites/hooks/pre-tool-use.cjs",
      "plugins/claude/devrites/hooks/hooks.json",
      ".claude-plugin/marketplace.json",
      "AGENTS.md",
    ]);
    expect([...c.runs]).toEqual([
      [
        "run-20260101T000000Z-0a1b2c3d",
        [
          ".devrites/runs/run-20260101T000000Z-0a1b2c3d/result.json",
          ".devrites/runs/run-20260101T000000Z-0a1b2c3d/packet.json",
        ],
      ],
    ]);
    expect(c.workspace).toEqual([".devrites/state.json", ".devrites/install.json"]);
    expect(c.other).toEqual(["src/app.ts"]);
  });

  it("near misses stay ordinary files", () => {
    const c = classifyStaged([
      "pack/claude/x.md",
      "packs/.claude/x",
      "docs/AGENTS.md",
      "my.claude/x",
      ".devrites",
      ".devritesx/a",
      "AGENTS.md.bak",
    ]);
    expect(c.other).toEqual([
      "pack/claude/x.md",
      "packs/.claude/x",
      "docs/AGENTS.md",
      "my.claude/x",
      ".devrites",
      ".devritesx/a",
      "AGENTS.md.bak",
    ]);
  });

  it("in the devrites repository itself, the renderers, hook sources and package.json feed the generated files", () => {
    const paths = [
      "src/hosts/claude/render.ts",
      "hooks-src/pre-tool-use.ts",
      "hooks/pre-tool-use.cjs",
      "package.json",
      "docs/x.md",
      "srcs/a.ts",
    ];
    expect(classifyStaged(paths, true).sources).toEqual(paths.slice(0, 4));
    expect(classifyStaged(paths, true).other).toEqual(["docs/x.md", "srcs/a.ts"]);
    expect(classifyStaged(paths).sources).toEqual([]);
    expect(classifyStaged(paths).other).toEqual(paths);
  });

  it("in any repository, customised pack files under .devrites/pack/ feed the generated files", () => {
    const c = classifyStaged([
      ".devrites/pack/skills/rite-quick/SKILL.md",
      ".devrites/packs/x",
      ".devrites/pack",
    ]);
    expect(c.sources).toEqual([".devrites/pack/skills/rite-quick/SKILL.md"]);
    // near misses: a sibling folder and the folder's own name are ordinary workspace paths
    expect(c.workspace).toEqual([".devrites/packs/x", ".devrites/pack"]);
  });

  it("a file directly in runs/ is a workspace file, not a run", () => {
    const c = classifyStaged([".devrites/runs/stray.txt"]);
    expect(c.runs.size).toBe(0);
    expect(c.workspace).toEqual([".devrites/runs/stray.txt"]);
  });
});
