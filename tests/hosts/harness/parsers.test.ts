/** The pure parsers of the offline helpers, on texts shaped like the pinned hosts' output. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePluginDetails, parseTokenValue } from "./run-claude.js";
import { rolesFromDescription, rolesFromTools, skillsFromText } from "./run-codex.js";

const DETAILS = `myplug 0.1.0
  Description: A plugin.
  Source: myplug@inline

Component inventory
  Skills (2)  rite, rite-status
  Agents (1)  scout
  Hooks (1)  PreToolUse  (harness-only — no model context cost)
  MCP servers (0)
  LSP servers (0)

Projected token cost
  Always-on:   ~130 tok   added to every session

Per-component (rounded)
  component    always-on  on-invoke
  rite               ~60      ~1.2k
  rite-status       < 20       ~2.7k
  scout             < 20       < 20

  On-invoke cost is paid each time a skill or agent fires.
`;

describe("parseTokenValue", () => {
  it("reads ~N, < N, k and M suffixes", () => {
    expect(parseTokenValue("~130")).toBe(130);
    expect(parseTokenValue("< 20")).toBe(20);
    expect(parseTokenValue("~2.7k")).toBe(2700);
    expect(parseTokenValue("~1.2M")).toBe(1_200_000);
    expect(parseTokenValue("47")).toBe(47);
  });

  it("is NaN for anything else", () => {
    for (const bad of ["", "~", "about 20", "~2.7kk", "20 tok", "-5"]) expect(parseTokenValue(bad)).toBeNaN();
  });

  it("round-trips integers and thousands", () => {
    fc.assert(fc.property(fc.nat(1_000_000), (n) => parseTokenValue(`~${n}`) === n));
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 999 }), (d) => parseTokenValue(`~${d / 10}k`) === d * 100),
    );
  });
});

describe("parsePluginDetails", () => {
  it("reads always-on, every per-component row and the inventory", () => {
    const d = parsePluginDetails(DETAILS)!;
    expect(d.title).toBe("myplug 0.1.0");
    expect(d.alwaysOn).toBe(130);
    expect(d.alwaysOnRaw).toBe("~130");
    expect(d.components.map((c) => [c.name, c.alwaysOn, c.onInvoke])).toEqual([
      ["rite", 60, 1200],
      ["rite-status", 20, 2700],
      ["scout", 20, 20],
    ]);
    expect(d.components[1]?.raw).toEqual({ alwaysOn: "< 20", onInvoke: "~2.7k" });
    expect(d.inventory.Skills).toEqual({ count: 2, names: ["rite", "rite-status"] });
    expect(d.inventory.Agents).toEqual({ count: 1, names: ["scout"] });
    expect(d.inventory.Hooks).toEqual({ count: 1, names: ["PreToolUse"] });
    expect(d.inventory["MCP servers"]).toEqual({ count: 0, names: [] });
  });

  it("is undefined without a cost section (plugin not found)", () => {
    expect(parsePluginDetails('Plugin "x" not found')).toBeUndefined();
    expect(parsePluginDetails(DETAILS.replace(/Always-on:.*\n/, ""))).toBeUndefined();
  });

  it("skips the header row and the footer notes", () => {
    const names = parsePluginDetails(DETAILS)!.components.map((c) => c.name);
    expect(names).not.toContain("component");
    expect(names).not.toContain("On-invoke");
  });
});

const SKILLS = `<skills_instructions>
## Skills
A skill is a set of local instructions.
### Skill roots
- \`r0\` = \`/h/.codex/skills/.system\`
- \`r1\` = \`/p/.agents/skills\`
### Available skills
- imagegen: Generate images (bitmap), not vectors. (file: r0/imagegen/SKILL.md)
- probe-skill: Fixture skill: proves discovery. (file: r1/probe-skill/SKILL.md)
</skills_instructions>`;

describe("skillsFromText", () => {
  it("lists each skill with description and file", () => {
    expect(skillsFromText(SKILLS)).toEqual([
      {
        name: "imagegen",
        description: "Generate images (bitmap), not vectors.",
        file: "r0/imagegen/SKILL.md",
      },
      {
        name: "probe-skill",
        description: "Fixture skill: proves discovery.",
        file: "r1/probe-skill/SKILL.md",
      },
    ]);
  });

  it("ignores the roots table and texts without the skills heading", () => {
    expect(skillsFromText(SKILLS).map((s) => s.name)).not.toContain("`r0` = `/h/.codex/skills/.system`");
    expect(skillsFromText("- x: y (file: r1/x/SKILL.md)")).toEqual([]);
  });
});

const ROLES = `Agent type override for the new agent. Omit unless explicitly asked.
Available roles:
scout: {
Scout the repo.
}
default: {
Default agent.
}
explorer: {
Use \`explorer\` for specific codebase questions.
Rules:
- be quick
}`;

describe("rolesFromDescription / rolesFromTools", () => {
  it("lists custom and built-in roles with multi-line descriptions", () => {
    expect(rolesFromDescription(ROLES)).toEqual([
      { name: "scout", description: "Scout the repo." },
      { name: "default", description: "Default agent." },
      {
        name: "explorer",
        description: "Use `explorer` for specific codebase questions.\nRules:\n- be quick",
      },
    ]);
  });

  it("is empty without the Available roles: marker", () => {
    expect(rolesFromDescription(ROLES.replace("Available roles:", "Roles:"))).toEqual([]);
  });

  it("finds spawn_agent at top level or inside a namespace", () => {
    const spawn = {
      type: "function",
      name: "spawn_agent",
      parameters: { properties: { agent_type: { description: ROLES } } },
    };
    expect(
      rolesFromTools([{ type: "namespace", name: "collaboration", tools: [spawn] }]).map((r) => r.name),
    ).toEqual(["scout", "default", "explorer"]);
    expect(rolesFromTools([spawn])).toHaveLength(3);
    const noParam = { ...spawn, parameters: { properties: {} } };
    expect(rolesFromTools([{ type: "namespace", name: "collaboration", tools: [noParam] }])).toEqual([]);
    expect(rolesFromTools(undefined)).toEqual([]);
  });
});
