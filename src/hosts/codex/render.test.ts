import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { buildPack } from "../../pack/build.js";
import { cleanFiles, edit } from "../../pack/fixtures.js";
import { GENERATED_NOTE } from "../headers.js";
import { CODEX_ROLE_KEYS, codexRoleToml, codexSkillFrontmatter, explicitOnly, openaiYaml } from "./render.js";

const WRIGHT = `---
name: devrites-slice-wright
description: Use to build one planned slice.
tools: Read, Grep, Glob, Edit, Write, Bash
model: sonnet
devrites:
  mode: writer
  payload: wright-report
---

## Job

Build. Use the Agent tool never; see .claude/agents/devrites-evidence-scout.md.
`;

describe("codexRoleToml", () => {
  it("has exactly name, description, developer_instructions and sandbox_mode for a read-only role", () => {
    const { model } = buildPack(cleanFiles());
    const text = codexRoleToml(model.agents[0]!);
    expect(text.startsWith(`# ${GENERATED_NOTE}\n`)).toBe(true);
    const role = parseToml(text);
    expect(Object.keys(role)).toEqual([...CODEX_ROLE_KEYS]);
    expect(role).toMatchObject({
      name: "devrites-evidence-scout",
      description: "Use to find cited facts for a rite.",
      sandbox_mode: "read-only",
    });
    expect(role.developer_instructions).toContain("## Never");
    expect(String(role.developer_instructions).startsWith("## Job")).toBe(true);
  });

  it("near miss: a writer gets no sandbox_mode, and no Claude key (tools, model) ever reaches the file", () => {
    const { model } = buildPack(new Map([...cleanFiles(), ["agents/devrites-slice-wright.md", WRIGHT]]));
    const wright = model.agents.find((a) => a.name === "devrites-slice-wright")!;
    const role = parseToml(codexRoleToml(wright));
    expect(Object.keys(role)).toEqual(["name", "description", "developer_instructions"]);
    expect(role.developer_instructions).toContain(
      "Use `spawn_agent` never; see .codex/agents/devrites-evidence-scout.toml.",
    );
  });
});

describe("Codex skills", () => {
  const skill = (changes: [string, string]) =>
    buildPack(edit("skills/rite-look/SKILL.md", ...changes)).model.skills[0]!;

  it("keeps only Agent Skills keys in the frontmatter", () => {
    const s = skill([
      "description: Use to look something up in the code.",
      'description: Use to look something up in the code.\nargument-hint: "[q]"\nuser-invocable: true\nlicense: MIT',
    ]);
    expect(codexSkillFrontmatter(s)).toEqual({
      name: "rite-look",
      description: "Use to look something up in the code.",
      license: "MIT",
    });
  });

  it("is explicit-only exactly when the pack says disable-model-invocation: true", () => {
    const on = skill([
      "description: Use to look something up in the code.",
      "description: Use to look something up in the code.\ndisable-model-invocation: true",
    ]);
    const off = skill([
      "description: Use to look something up in the code.",
      "description: Use to look something up in the code.\ndisable-model-invocation: false",
    ]);
    expect(explicitOnly(on)).toBe(true);
    expect(explicitOnly(off)).toBe(false);
    expect(explicitOnly(buildPack(cleanFiles()).model.skills[0]!)).toBe(false);
  });

  it("openai.yaml turns implicit invocation off and says it is generated", () => {
    const text = openaiYaml();
    expect(text.startsWith(`# ${GENERATED_NOTE}\n`)).toBe(true);
    expect(parseYaml(text)).toEqual({ policy: { allow_implicit_invocation: false } });
  });
});
