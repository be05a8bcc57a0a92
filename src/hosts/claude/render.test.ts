import { describe, expect, it } from "vitest";
import { buildPack } from "../../pack/build.js";
import { cleanFiles, edit } from "../../pack/fixtures.js";
import { applyRewrites } from "../rewrite.js";
import {
  claudeAgentDoc,
  PLUGIN_AGENT_IGNORED_KEYS,
  pluginReferenceRewrites,
  pluginRewrites,
} from "./render.js";

const rules = pluginRewrites("devrites");
/** The plugin root variable as Claude Code writes it (built so no linter takes it for a template). */
const ROOT = `$${"{"}CLAUDE_PLUGIN_ROOT}`;

const CASES: Record<string, { yes: [string, string][]; no: string[] }> = {
  "subagent-type-namespace": {
    yes: [
      ['`subagent_type: "<role>"`', '`subagent_type: "devrites:<role>"`'],
      [
        '{"subagent_type": "devrites-evidence-scout"}',
        '{"subagent_type": "devrites:devrites-evidence-scout"}',
      ],
      ["subagent_type: 'scout'", "subagent_type: 'devrites:scout'"],
    ],
    no: [
      'subagent_type: "devrites:scout"',
      'subagent_type: "other:scout"',
      "subagent_type: scout",
      "subagent_types",
    ],
  },
  "agents-path": {
    yes: [["read `.claude/agents/<role>.md`", `read \`${ROOT}/agents/<role>.md\``]],
    no: ["x/.claude/agents/a.md", "my.claude/agents/"],
  },
  "cli-path": {
    yes: [
      ["`.devrites/bin/devrites status`", `\`${ROOT}/bin/devrites status\``],
      [".devrites/bin/devrites result record r-1 <<'EOF'", `${ROOT}/bin/devrites result record r-1 <<'EOF'`],
      ["(`.devrites/bin/devrites`)", `(\`${ROOT}/bin/devrites\`)`],
    ],
    no: [
      "x/.devrites/bin/devrites status",
      ".devrites/bin/devrites-lint",
      ".devrites/bin/devrites.js",
      ".devrites/bin/other",
      "devrites status",
    ],
  },
  "skills-path": {
    yes: [[".claude/skills/rite/SKILL.md", `${ROOT}/skills/rite/SKILL.md`]],
    no: ["~/.claude/skills-old", "a/.claude/skills/"],
  },
};

describe("plugin rewrites", () => {
  it("has cases for every rule", () => {
    expect(Object.keys(CASES).sort()).toEqual(rules.map((r) => r.id).sort());
  });
  for (const [id, { yes, no }] of Object.entries(CASES)) {
    const rule = rules.find((r) => r.id === id)!;
    it.each(yes)(`${id}: rewrites %j`, (from, to) => {
      expect(applyRewrites(from, rules)).toBe(to);
      expect(applyRewrites(from, [rule])).toBe(to);
    });
    it.each(no)(`${id}: leaves %j alone`, (text) => {
      expect(applyRewrites(text, [rule])).toBe(text);
    });
  }
  it("is idempotent", () => {
    for (const { yes } of Object.values(CASES))
      for (const [, to] of yes) expect(applyRewrites(to, rules)).toBe(to);
  });
});

describe("claudeAgentDoc", () => {
  const agent = () => {
    const { model } = buildPack(cleanFiles());
    const a = model.agents[0]!;
    return {
      ...a,
      frontmatter: { ...a.frontmatter, permissionMode: "plan", hooks: { Stop: [] }, mcpServers: {} },
    };
  };

  it("keeps the frontmatter as written in a project copy", () => {
    const doc = claudeAgentDoc(agent(), (s) => s, false);
    for (const k of PLUGIN_AGENT_IGNORED_KEYS) expect(doc).toContain(`${k}:`);
  });

  it("drops the keys plugin agents ignore in a plugin copy, and keeps the others", () => {
    const doc = claudeAgentDoc(agent(), (s) => s, true);
    for (const k of PLUGIN_AGENT_IGNORED_KEYS) expect(doc).not.toContain(`${k}:`);
    expect(doc).toMatch(
      /^---\n# generated — do not edit; .*\nname: devrites-evidence-scout\ndescription: .*\ntools: Read, Grep, Glob, Bash\n---\n/,
    );
  });

  it("applies the text rules to the body", () => {
    const { model } = buildPack(
      edit("agents/devrites-evidence-scout.md", "Find facts.", "See .claude/agents/x.md."),
    );
    const doc = claudeAgentDoc(model.agents[0]!, (s) => applyRewrites(s, rules), true);
    expect(doc).toContain(`See ${ROOT}/agents/x.md.`);
  });
});

describe("plugin reference rewrites (a reference file is read, not loaded: no variable is substituted in it)", () => {
  const refRules = pluginReferenceRewrites("devrites");
  it("names the plugin's CLI by its bare name, on the Bash tool's PATH", () => {
    expect(applyRewrites("Run `.devrites/bin/devrites result check x`.", refRules)).toBe(
      "Run `devrites result check x`.",
    );
    expect(
      applyRewrites(
        "as `.devrites/bin/devrites …` (the launcher\nthe install wrote there; a bare `devrites` may not be on PATH).",
        refRules,
      ),
    ).toBe("as `devrites …` (the plugin's `bin/devrites`, which the plugin puts on the Bash tool's PATH).");
  });
  it("leaves near misses alone, and never writes the unsubstituted variable for the CLI", () => {
    for (const t of [
      "x/.devrites/bin/devrites status",
      ".devrites/bin/devrites-lint",
      ".devrites/bin/devrites.js",
    ])
      expect(applyRewrites(t, refRules)).toBe(t);
    expect(applyRewrites("`.devrites/bin/devrites status`", refRules)).not.toContain("CLAUDE_PLUGIN_ROOT");
  });
  it("keeps the other plugin rewrites", () => {
    expect(applyRewrites('`subagent_type: "<role>"`', refRules)).toBe('`subagent_type: "devrites:<role>"`');
  });
});
