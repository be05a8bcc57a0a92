/**
 * Per-host instructions reach only their host, checked on the generated files of this repository (drift-checked
 * against the pack, so these are the texts the hosts are given):
 * - nothing Claude Code reads (`.claude/**`, and `AGENTS.md`, which Claude Code 2.1.328 loads as overriding
 *   project instructions) tells it to use Codex's tools or syntax;
 * - nothing Codex reads (`.agents/skills/**`, `.codex/agents/*.toml`, `AGENTS.md`) names Claude's tools;
 * - every Claude role lists only tools Claude Code 2.1.328 offers a project agent (Read, Bash, Edit, Write:
 *   one naming Grep or Glob was offered Read and Bash only).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(md|toml)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const agentsBlock = (() => {
  const t = readFileSync(join(ROOT, "AGENTS.md"), "utf8");
  return t.slice(t.indexOf("<!-- BEGIN DEVRITES"), t.indexOf("<!-- END DEVRITES"));
})();

const CODEX_WORDS =
  /\bspawn_agent\b|\bwait_agent\b|\brequest_user_input\b|\$rite\b|\.codex\/agents|\bexec_command\b/;
const CLAUDE_TOOLS =
  /\b(?:Grep|Glob|MultiEdit|NotebookEdit|AskUserQuestion|subagent_type)\b|\b(?:Agent|Task|Skill) tool\b|Edit or Write|\bBash\b|(?:^|[\s([`"'])\/rite\b/;
const OFFERED_BY_CLAUDE = new Set(["Read", "Bash", "Edit", "Write"]);

describe("what Claude Code reads", () => {
  const claude = files(".claude");
  it("has the rites and roles (not a vacuous pass)", () => {
    expect(claude.filter((f) => f.endsWith("SKILL.md")).length).toBeGreaterThanOrEqual(10);
    expect(claude.filter((f) => f.includes("/agents/")).length).toBe(6);
  });

  it.each([".claude", "AGENTS.md"])("%s never tells it to use Codex's tools or syntax", (where) => {
    const texts =
      where === "AGENTS.md"
        ? [["AGENTS.md", agentsBlock] as const]
        : claude.map((f) => [f, readFileSync(f, "utf8")] as const);
    const hits = texts.flatMap(([f, t]) =>
      t.split("\n").flatMap((line, i) => (CODEX_WORDS.test(line) ? [`${f}:${i + 1}: ${line}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it("every role's tools are ones Claude Code offers a project agent", () => {
    for (const f of claude.filter((x) => x.includes("/agents/"))) {
      const tools = /^tools: (.*)$/m.exec(readFileSync(f, "utf8"))?.[1]?.split(/,\s*/) ?? [];
      expect(tools.length, f).toBeGreaterThan(0);
      expect(
        tools.filter((t) => !OFFERED_BY_CLAUDE.has(t)),
        f,
      ).toEqual([]);
    }
  });
});

describe("what Codex reads", () => {
  const codex = [...files(".agents/skills"), ...files(".codex/agents")];
  it("has the rites and roles (not a vacuous pass)", () => {
    expect(codex.filter((f) => f.endsWith(".toml")).length).toBe(6);
  });

  it("never names Claude's tools (skills, roles, AGENTS.md)", () => {
    const texts = [
      ...codex.map((f) => [f, readFileSync(f, "utf8")] as const),
      ["AGENTS.md", agentsBlock] as const,
    ];
    const hits = texts.flatMap(([f, t]) =>
      t.split("\n").flatMap((line, i) => (CLAUDE_TOOLS.test(line) ? [`${f}:${i + 1}: ${line}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it("the check can fail: the patterns catch each host's words", () => {
    expect(CODEX_WORDS.test("then `spawn_agent` with")).toBe(true);
    expect(CODEX_WORDS.test("run `$rite`")).toBe(true);
    expect(CLAUDE_TOOLS.test("Grep/Glob where offered")).toBe(true);
    expect(CLAUDE_TOOLS.test("Bash is for reading")).toBe(true);
    expect(CLAUDE_TOOLS.test("the shell is for reading")).toBe(false);
  });
});
