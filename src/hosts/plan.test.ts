import { describe, expect, it } from "vitest";
import { sha256Hex } from "../core/hash.js";
import { cardsFromPack } from "../route/cards.js";
import { cleanModel, goldenModel, planClean, testInput } from "./fixtures.js";
import { MANIFEST_NAME, parseManifest } from "./manifest.js";
import { planOutputs } from "./plan.js";

describe("planOutputs", () => {
  it("plans every host and layout file of the golden pack, sorted, with no diagnostics", async () => {
    const { plan, diagnostics } = planOutputs(await goldenModel(), testInput());
    expect(diagnostics).toEqual([]);
    const paths = plan.files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toEqual([
      ".agents/plugins/.devrites-generated.json",
      ".agents/plugins/marketplace.json",
      ".agents/skills/.devrites-generated.json",
      ".agents/skills/rite-look/SKILL.md",
      ".agents/skills/rite-look/reference/how.md",
      ".agents/skills/rite-send/SKILL.md",
      ".agents/skills/rite-send/agents/openai.yaml",
      ".claude-plugin/.devrites-generated.json",
      ".claude-plugin/marketplace.json",
      ".claude/.devrites-generated.json",
      ".claude/agents/devrites-evidence-scout.md",
      ".claude/agents/devrites-slice-wright.md",
      ".claude/settings.json",
      ".claude/skills/rite-look/SKILL.md",
      ".claude/skills/rite-look/reference/how.md",
      ".claude/skills/rite-send/SKILL.md",
      ".codex/.devrites-generated.json",
      ".codex/agents/devrites-evidence-scout.toml",
      ".codex/agents/devrites-slice-wright.toml",
      ".codex/hooks.json",
      ".devrites/hooks/.devrites-generated.json",
      ".devrites/hooks/pre-tool-use.cjs",
      ".devrites/hooks/subagent-stop.cjs",
      ".devrites/hooks/user-prompt-submit.cjs",
      "AGENTS.md",
      "plugins/claude/devrites/.claude-plugin/plugin.json",
      "plugins/claude/devrites/.devrites-generated.json",
      "plugins/claude/devrites/agents/devrites-evidence-scout.md",
      "plugins/claude/devrites/agents/devrites-slice-wright.md",
      "plugins/claude/devrites/bin/devrites",
      "plugins/claude/devrites/bin/devrites.cjs",
      "plugins/claude/devrites/bin/rite-cards.json",
      "plugins/claude/devrites/hooks/hooks.json",
      "plugins/claude/devrites/hooks/pre-tool-use.cjs",
      "plugins/claude/devrites/hooks/subagent-stop.cjs",
      "plugins/claude/devrites/hooks/user-prompt-submit.cjs",
      "plugins/claude/devrites/skills/rite-look/SKILL.md",
      "plugins/claude/devrites/skills/rite-look/reference/how.md",
      "plugins/claude/devrites/skills/rite-send/SKILL.md",
      "plugins/codex/devrites/.codex-plugin/plugin.json",
      "plugins/codex/devrites/.devrites-generated.json",
      "plugins/codex/devrites/hooks/hooks.json",
      "plugins/codex/devrites/hooks/pre-tool-use.cjs",
      "plugins/codex/devrites/hooks/subagent-stop.cjs",
      "plugins/codex/devrites/hooks/user-prompt-submit.cjs",
      "plugins/codex/devrites/skills/rite-look/SKILL.md",
      "plugins/codex/devrites/skills/rite-look/reference/how.md",
      "plugins/codex/devrites/skills/rite-send/SKILL.md",
      "plugins/codex/devrites/skills/rite-send/agents/openai.yaml",
    ]);
    const kinds = Object.fromEntries(
      plan.files.filter((f) => f.kind !== "owned").map((f) => [f.path, f.kind]),
    );
    expect(kinds).toEqual({
      ".claude/settings.json": "merged-json",
      ".codex/hooks.json": "merged-json",
      "AGENTS.md": "marked-block",
    });
  });

  it("lists every owned file of a root, with its hash, in that root's manifest (and nothing else)", () => {
    const { plan } = planClean();
    expect(plan.roots).toEqual([
      ".agents/plugins",
      ".agents/skills",
      ".claude",
      ".claude-plugin",
      ".codex",
      ".devrites/hooks",
      "plugins/claude/devrites",
      "plugins/codex/devrites",
    ]);
    for (const root of plan.roots) {
      const m = plan.files.find((f) => f.path === `${root}/${MANIFEST_NAME}`);
      const entries = parseManifest(m!.content)!;
      const owned = plan.files.filter((f) => f.kind === "owned" && f.root === root && f !== m);
      expect(entries.map((e) => `${root}/${e.path}`).sort()).toEqual(owned.map((f) => f.path).sort());
      for (const e of entries) {
        expect(e.sha256).toBe(sha256Hex(plan.files.find((f) => f.path === `${root}/${e.path}`)!.content));
      }
    }
  });

  it("renders only the hosts and layouts asked for", () => {
    const claude = planClean({ hosts: ["claude"], layouts: ["project"] }).plan;
    expect(claude.roots).toEqual([".claude", ".devrites/hooks"]);
    expect(
      claude.files.every((f) => f.path.startsWith(".claude/") || f.path.startsWith(".devrites/hooks/")),
    ).toBe(true);
    const codexPlugin = planClean({ hosts: ["codex"], layouts: ["plugin"] }).plan;
    expect(codexPlugin.roots).toEqual([".agents/plugins", "plugins/codex/devrites"]);
  });

  it("reports a missing hook bundle once per entry, with the build hint, and copies the others", () => {
    const { plan, diagnostics } = planClean({ bundles: new Map([["pre-tool-use", "x"]]) });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "generate.hook-bundle-missing",
        path: "hooks/subagent-stop.cjs",
        hint: "npm run build",
      }),
    ]);
    expect(plan.files.some((f) => f.path === ".devrites/hooks/pre-tool-use.cjs")).toBe(true);
    expect(plan.files.some((f) => f.path === ".devrites/hooks/subagent-stop.cjs")).toBe(false);
  });

  it("carries the one-file CLI in the Claude plugin: bin/devrites (executable) runs bin/devrites.cjs", () => {
    const { plan, diagnostics } = planClean({ hosts: ["claude"], layouts: ["plugin"] });
    expect(diagnostics).toEqual([]);
    const file = (p: string) => plan.files.find((f) => f.path === `plugins/claude/devrites/${p}`);
    expect(file("bin/devrites")?.mode).toBe(0o755);
    expect(file("bin/devrites")?.content).toMatch(/^#!\/bin\/sh\n# generated — do not edit/);
    expect(file("bin/devrites")?.content).toContain('exec node "$here/devrites.cjs" "$@"');
    const bundle = file("bin/devrites.cjs");
    expect(bundle?.mode).toBe(0o644);
    // the copy names the command that regenerates it, after the shebang
    expect(bundle?.content).toBe(
      "#!/usr/bin/env node\n// generated - do not edit; regenerate with devrites generate\n// stand-in for the one-file CLI\nprocess.exit(0);\n",
    );
    const cards = JSON.parse(file("bin/rite-cards.json")!.content) as { name: string }[];
    expect(cards.map((c) => c.name)).toEqual(cardsFromPack(cleanModel()).map((c) => c.name));
    // the Codex plugin has no bin/ on any PATH: it carries none
    const codex = planClean({ hosts: ["codex"], layouts: ["plugin"] }).plan;
    expect(codex.files.some((f) => f.path.includes("/bin/"))).toBe(false);
  });

  it("reports a missing one-file CLI with the build hint, and plans the rest of the plugin", () => {
    const { plan, diagnostics } = planClean({ hosts: ["claude"], layouts: ["plugin"], cli: undefined });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "generate.cli-bundle-missing",
        path: "bin/devrites.cjs",
        hint: "npm run build",
      }),
    ]);
    expect(plan.files.some((f) => f.path.endsWith("/bin/devrites"))).toBe(false);
    expect(
      plan.files.some((f) => f.path.endsWith("/skills/rite-look/SKILL.md") || f.path.endsWith("SKILL.md")),
    ).toBe(true);
  });

  it("refuses a skill name that would put a file outside its folder", () => {
    const model = cleanModel();
    const bad = { ...model, skills: [{ ...model.skills[0]!, name: "../../escape" }] };
    const { diagnostics } = planOutputs(bad, testInput({ hosts: ["claude"], layouts: ["project"] }));
    expect(diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "generate.path-unsafe",
      ".claude/skills/../../escape/SKILL.md",
    ]);
  });

  it("reports a skill asset that was not read, and copies one that was", () => {
    const model = cleanModel();
    const withAsset = {
      ...model,
      skills: [{ ...model.skills[0]!, assets: ["skills/rite-look/scripts/x.sh"] }],
    };
    const missing = planOutputs(withAsset, testInput({ hosts: ["claude"], layouts: ["project"] }));
    expect(missing.diagnostics.map((d) => d.code)).toEqual(["generate.asset-missing"]);
    const read = planOutputs(
      withAsset,
      testInput({
        hosts: ["claude"],
        layouts: ["project"],
        assets: new Map([["skills/rite-look/scripts/x.sh", "echo"]]),
      }),
    );
    expect(read.plan.files.find((f) => f.path === ".claude/skills/rite-look/scripts/x.sh")?.content).toBe(
      "echo",
    );
  });

  it("never renders a devrites-only skill file (the router's routing.json)", () => {
    const model = cleanModel();
    const withCorpus = {
      ...model,
      skills: [
        {
          ...model.skills[0]!,
          assets: ["skills/rite-look/routing.json", "skills/rite-look/data/routing.json"],
        },
      ],
    };
    const { plan, diagnostics } = planOutputs(
      withCorpus,
      testInput({ assets: new Map([["skills/rite-look/data/routing.json", "{}"]]) }),
    );
    expect(diagnostics).toEqual([]);
    const copied = plan.files.filter((f) => f.path.endsWith("routing.json")).map((f) => f.path);
    expect(copied).toContain(".claude/skills/rite-look/data/routing.json");
    expect(copied.some((p) => p.endsWith("rite-look/routing.json"))).toBe(false);
  });

  it("every Codex text of the golden pack is free of Claude-only words", async () => {
    const { diagnostics } = planOutputs(await goldenModel(), testInput());
    expect(diagnostics.filter((d) => d.code === "generate.codex-vocabulary")).toEqual([]);
  });

  it("warns about Claude-only wording the vocabulary table does not cover", () => {
    const model = cleanModel();
    const s = model.skills[0]!;
    const odd = { ...model, skills: [{ ...s, body: `${s.body}\nSet $CLAUDE_PROJECT_DIR first.\n` }] };
    const { diagnostics } = planOutputs(odd, testInput({ hosts: ["codex"], layouts: ["project"] }));
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "generate.codex-vocabulary",
        severity: "warning",
        path: ".agents/skills/rite-look/SKILL.md",
      }),
    ]);
  });
});
