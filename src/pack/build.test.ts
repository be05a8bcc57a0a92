import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPack, splitTools } from "./build.js";
import { cleanFiles, edit, withFiles } from "./fixtures.js";

describe("buildPack on a clean pack", () => {
  const { model, diagnostics } = buildPack(cleanFiles());

  it("loads without diagnostics", () => {
    expect(diagnostics).toEqual([]);
  });

  it("gives the skill its host frontmatter without the devrites block, its meta and references", () => {
    const s = model.skills[0];
    expect(s).toMatchObject({
      name: "rite-look",
      dir: "skills/rite-look",
      description: "Use to look something up in the code.",
      frontmatter: { name: "rite-look", description: "Use to look something up in the code." },
      devrites: {
        phase: "spec",
        dispatches: ["devrites-evidence-scout"],
        route: { hints: ["look up", "find out"] },
      },
      references: [{ relPath: "reference/how.md", path: "skills/rite-look/reference/how.md" }],
      assets: [],
    });
    expect(s?.frontmatter).not.toHaveProperty("devrites");
  });

  it("gives the agent its tools, mode, payload and expanded body", () => {
    const a = model.agents[0];
    expect(a).toMatchObject({
      name: "devrites-evidence-scout",
      tools: ["Read", "Grep", "Glob", "Bash"],
      mode: "read-only",
      payload: "evidence-dossier",
      frontmatter: { tools: "Read, Grep, Glob, Bash" },
    });
    expect(a?.frontmatter).not.toHaveProperty("devrites");
    expect(a?.body).toContain("## Never");
  });

  it("reads the hook wiring with defaults and lines", () => {
    expect(model.hooksPath).toBe("hooks/wiring.yaml");
    expect(model.hooks).toEqual([
      { event: "PreToolUse", entry: "pre-tool-use", matcher: "*", timeout: 10, line: 2 },
      { event: "SubagentStop", entry: "subagent-stop", matcher: "*", timeout: 60, line: 6 },
    ]);
  });
});

describe("buildPack: broken files become diagnostics and are skipped", () => {
  it("reports an unknown frontmatter field with its line and skips the file", () => {
    const files = edit("skills/rite-look/SKILL.md", "description:", "colour: red\ndescription:");
    const { model, diagnostics } = buildPack(files);
    expect(diagnostics).toMatchObject([
      {
        code: "pack.unknown-field",
        path: "skills/rite-look/SKILL.md",
        line: 3,
        message: "unknown field `colour`",
      },
    ]);
    expect(model.skills).toEqual([]);
    expect(model.agents).toHaveLength(1);
  });

  it("reports an unknown key inside the devrites block by its dotted path", () => {
    const files = edit(
      "agents/devrites-evidence-scout.md",
      "  mode: read-only",
      "  mode: read-only\n  scope: all",
    );
    const { diagnostics } = buildPack(files);
    expect(diagnostics).toMatchObject([
      { code: "pack.unknown-field", line: 7, message: "unknown field `devrites.scope`" },
    ]);
  });

  it("rejects agent keys that widen a leaf or that plugin agents lose", () => {
    for (const key of [
      "hooks: {}",
      "permissionMode: plan",
      "skills: [x]",
      "disallowedTools: Edit",
      "mcpServers: {}",
    ]) {
      const files = edit("agents/devrites-evidence-scout.md", "tools:", `${key}\ntools:`);
      expect(
        buildPack(files).diagnostics.map((d) => d.code),
        key,
      ).toEqual(["pack.unknown-field"]);
    }
  });

  it("reports a missing required field", () => {
    const files = edit(
      "skills/rite-look/SKILL.md",
      "description: Use to look something up in the code.\n",
      "",
    );
    expect(buildPack(files).diagnostics).toMatchObject([
      { code: "pack.field-missing", message: "required field `description` is missing" },
    ]);
    const noHints = edit("skills/rite-look/SKILL.md", "  route:\n    hints: [look up, find out]\n", "");
    expect(buildPack(noHints).diagnostics.map((d) => d.code)).toEqual(["pack.field-missing"]);
  });

  it("reports a wrongly typed or out-of-range field with its line", () => {
    const badPhase = edit("skills/rite-look/SKILL.md", "phase: spec", "phase: deploy");
    expect(buildPack(badPhase).diagnostics).toMatchObject([{ code: "pack.field-invalid", line: 5 }]);
    const badMode = edit("agents/devrites-evidence-scout.md", "mode: read-only", "mode: sometimes");
    expect(buildPack(badMode).diagnostics).toMatchObject([{ code: "pack.field-invalid", line: 6 }]);
    const emptyHints = edit("skills/rite-look/SKILL.md", "[look up, find out]", "[]");
    expect(buildPack(emptyHints).diagnostics.map((d) => d.code)).toEqual(["pack.field-invalid"]);
  });

  it("keeps loading the rest of the pack when one file is broken", () => {
    const files = withFiles({ "agents/devrites-code-reviewer.md": "no frontmatter here\n" });
    const { model, diagnostics } = buildPack(files);
    expect(diagnostics.map((d) => d.code)).toEqual(["pack.frontmatter-missing"]);
    expect(model.agents.map((a) => a.name)).toEqual(["devrites-evidence-scout"]);
    expect(model.skills).toHaveLength(1);
  });
});

describe("buildPack: layout", () => {
  it("flags nested or stray files under agents/ and fragments/ as errors, other strays as warnings", () => {
    const files = withFiles({
      "agents/old/devrites-x.md": "x",
      "agents/notes.txt": "x",
      "fragments/sub/x.md": "x",
      "skills/README.md": "x",
      "hooks/extra.json": "{}",
      "settings.json": "{}",
    });
    const stray = buildPack(files).diagnostics.filter((d) => d.code === "pack.stray-file");
    expect(stray.map((d) => [d.path, d.severity])).toEqual([
      ["agents/notes.txt", "error"],
      ["agents/old/devrites-x.md", "error"],
      ["fragments/sub/x.md", "error"],
      ["hooks/extra.json", "warning"],
      ["settings.json", "warning"],
      ["skills/README.md", "error"],
    ]);
  });

  it("reports a skill folder without SKILL.md, and carries other skill files as assets", () => {
    const files = withFiles({ "skills/rite-empty/reference/a.md": "x", "skills/rite-look/cases.yaml": "[]" });
    const { model, diagnostics } = buildPack(files);
    expect(diagnostics).toMatchObject([{ code: "pack.skill-file-missing", path: "skills/rite-empty" }]);
    expect(model.skills[0]?.assets).toEqual(["skills/rite-look/cases.yaml"]);
  });

  it("reports missing, malformed and ill-shaped hook wiring", () => {
    expect(buildPack(withFiles({ "hooks/wiring.yaml": undefined })).diagnostics).toMatchObject([
      { code: "pack.hooks-missing", path: "hooks/wiring.yaml" },
    ]);
    expect(buildPack(withFiles({ "hooks/wiring.yaml": "hooks: [\n" })).diagnostics[0]?.code).toBe(
      "pack.hooks-malformed",
    );
    const unknown = buildPack(edit("hooks/wiring.yaml", "timeout: 10", "timeout: 10\n    async: true"));
    expect(unknown.diagnostics).toMatchObject([{ code: "pack.unknown-field", line: 6 }]);
    expect(unknown.model.hooksPath).toBeUndefined();
    const badEvent = buildPack(edit("hooks/wiring.yaml", "event: PreToolUse", "event: PostToolUse"));
    expect(badEvent.diagnostics).toMatchObject([{ code: "pack.field-invalid", line: 2 }]);
  });
});

describe("buildPack never throws", () => {
  const pathArb = fc.oneof(
    fc.constantFrom(
      "skills/rite-look/SKILL.md",
      "agents/devrites-evidence-scout.md",
      "fragments/never.md",
      "hooks/wiring.yaml",
      "skills/rite-x/reference/a.md",
    ),
    fc.string(),
  );
  const textArb = fc.oneof(
    fc.string(),
    fc.string().map((s) => `---\n${s}\n---\n${s}`),
    fc.constantFrom(
      "---\nname: [\n---\n",
      "---\n&a [*a]\n---\n",
      "---\nname: !!binary x\n---\n",
      "---\n---\n",
    ),
  );

  it("on arbitrary files, returning diagnostics instead", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(pathArb, textArb), { maxLength: 8 }), (entries) => {
        const files = cleanFiles();
        for (const [p, t] of entries) files.set(p, t);
        const r = buildPack(files);
        expect(Array.isArray(r.diagnostics)).toBe(true);
        for (const d of r.diagnostics) expect(d.code).toMatch(/^pack\.[a-z-]+$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe("splitTools", () => {
  it("splits comma strings and trims lists", () => {
    expect(splitTools("Read, Grep ,Bash,")).toEqual(["Read", "Grep", "Bash"]);
    expect(splitTools([" Read", "Edit "])).toEqual(["Read", "Edit"]);
    expect(splitTools(undefined)).toEqual([]);
  });
});
