/**
 * Whether devrites installed a project agent: the repository's own generated agent files (committed, drift-checked
 * output of `devrites generate`) count; anything that merely looks like one does not.
 */

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree, type Tree } from "../../tests/helpers/temp-tree.js";
import { ROLE_NAMES } from "../envelope/roles.js";
import { GENERATED_NOTE } from "../hosts/headers.js";
import {
  AGENT_GENERATED_NOTE,
  claudeAgentPath,
  codexAgentPath,
  isGeneratedClaudeAgent,
  isGeneratedCodexAgent,
  isInstalledRole,
} from "./installed.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WRIGHT = "devrites-slice-wright";
const claudeText = (role: (typeof ROLE_NAMES)[number]) =>
  readFileSync(join(REPO, claudeAgentPath(role)), "utf8");
const codexText = (role: (typeof ROLE_NAMES)[number]) =>
  readFileSync(join(REPO, codexAgentPath(role)), "utf8");

const trees: (() => void)[] = [];
afterEach(() => {
  for (const c of trees.splice(0)) c();
});
function tree(t: Tree): string {
  const made = makeTree(t);
  trees.push(made.cleanup);
  return made.base;
}

describe("isInstalledRole", () => {
  it("uses the generator's own note", () => {
    expect(AGENT_GENERATED_NOTE).toBe(GENERATED_NOTE);
  });

  it.each(ROLE_NAMES)("recognises devrites' generated Claude and Codex agent files for %s", (role) => {
    expect(isGeneratedClaudeAgent(claudeText(role), role)).toBe(true);
    expect(isGeneratedCodexAgent(codexText(role), role)).toBe(true);
    expect(isInstalledRole(tree({ [claudeAgentPath(role)]: claudeText(role) }), role)).toBe(true);
    expect(isInstalledRole(tree({ [codexAgentPath(role)]: codexText(role) }), role)).toBe(true);
  });

  it("recognises the files `devrites init` installed (their note names `devrites update`), not another command's", () => {
    const installed = (t: string) =>
      t.replace("regenerate with devrites generate", "regenerate with devrites update");
    expect(isGeneratedCodexAgent(installed(codexText(WRIGHT)), WRIGHT)).toBe(true);
    expect(isGeneratedClaudeAgent(installed(claudeText(WRIGHT)), WRIGHT)).toBe(true);
    const other = (t: string) =>
      t.replace("regenerate with devrites generate", "regenerate with devrites install");
    expect(isGeneratedCodexAgent(other(codexText(WRIGHT)), WRIGHT)).toBe(false);
    expect(isGeneratedClaudeAgent(other(claudeText(WRIGHT)), WRIGHT)).toBe(false);
  });

  it("recognises a file generated before the note moved into the frontmatter (an HTML comment above the body)", () => {
    const older = claudeText(WRIGHT)
      .replace(`# ${GENERATED_NOTE}\n`, "")
      .replace(/\n---\n/, `\n---\n<!-- ${GENERATED_NOTE} -->\n`);
    expect(older).not.toBe(claudeText(WRIGHT));
    expect(isGeneratedClaudeAgent(older, WRIGHT)).toBe(true);
  });

  it("is false with no agent files, or with another role's file (near misses)", () => {
    expect(isInstalledRole(tree({ "src/a.ts": "" }), WRIGHT)).toBe(false);
    const other = tree({
      [claudeAgentPath("devrites-evidence-scout")]: claudeText("devrites-evidence-scout"),
      [codexAgentPath("devrites-evidence-scout")]: codexText("devrites-evidence-scout"),
    });
    expect(isInstalledRole(other, WRIGHT)).toBe(false);
    expect(isInstalledRole(other, "devrites-evidence-scout")).toBe(true);
  });

  it("is false for another role's text at the wright's path (the name must match)", () => {
    const root = tree({
      [claudeAgentPath(WRIGHT)]: claudeText("devrites-evidence-scout"),
      [codexAgentPath(WRIGHT)]: codexText("devrites-evidence-scout"),
    });
    expect(isInstalledRole(root, WRIGHT)).toBe(false);
  });

  it.each<[string, (t: string) => string]>([
    ["without the generated header", (t) => t.replace(`# ${GENERATED_NOTE}\n`, "")],
    ["with the header edited", (t) => t.replace("do not edit", "edit freely")],
    [
      "with the header before the frontmatter",
      (t) => `<!-- ${GENERATED_NOTE} -->\n${t.replace(`# ${GENERATED_NOTE}\n`, "")}`,
    ],
    [
      "with the header on the frontmatter's second line",
      (t) =>
        t
          .replace(`# ${GENERATED_NOTE}\n`, "")
          .replace(`name: ${WRIGHT}\n`, `name: ${WRIGHT}\n# ${GENERATED_NOTE}\n`),
    ],
    [
      "with the header as body text, not a comment",
      (t) => t.replace(`# ${GENERATED_NOTE}\n`, "").replace("---\n\n", `---\n${GENERATED_NOTE}\n`),
    ],
    ["with a different name", (t) => t.replace(`name: ${WRIGHT}`, "name: my-wright")],
    ["with the name padded", (t) => t.replace(`name: ${WRIGHT}`, `name: ${WRIGHT} `)],
    ["with CRLF line ends", (t) => t.replaceAll("\n", "\r\n")],
    ["empty", () => ""],
  ])("a Claude agent file %s is not devrites'", (_label, edit) => {
    const text = edit(claudeText(WRIGHT));
    expect(isGeneratedClaudeAgent(text, WRIGHT)).toBe(false);
    expect(isInstalledRole(tree({ [claudeAgentPath(WRIGHT)]: text }), WRIGHT)).toBe(false);
  });

  it.each<[string, (t: string) => string]>([
    ["without the generated header", (t) => t.split("\n").slice(1).join("\n")],
    ["with a different name", (t) => t.replace(`name = "${WRIGHT}"`, 'name = "my-wright"')],
    ["with the name unquoted", (t) => t.replace(`name = "${WRIGHT}"`, `name = ${WRIGHT}`)],
    ["with a blank line first", (t) => `\n${t}`],
  ])("a Codex agent file %s is not devrites'", (_label, edit) => {
    const text = edit(codexText(WRIGHT));
    expect(isGeneratedCodexAgent(text, WRIGHT)).toBe(false);
    expect(isInstalledRole(tree({ [codexAgentPath(WRIGHT)]: text }), WRIGHT)).toBe(false);
  });

  it("does not follow a symlink, nor take a directory at the agent path", () => {
    const elsewhere = tree({ "w.md": claudeText(WRIGHT) });
    expect(
      isInstalledRole(tree({ [claudeAgentPath(WRIGHT)]: { link: join(elsewhere, "w.md") } }), WRIGHT),
    ).toBe(false);
    expect(isInstalledRole(tree({ [`${claudeAgentPath(WRIGHT)}/`]: "" }), WRIGHT)).toBe(false);
  });
});
