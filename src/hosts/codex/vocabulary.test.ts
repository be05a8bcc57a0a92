import { describe, expect, it } from "vitest";
import { applyRewrites, findLeftovers } from "../rewrite.js";
import { CODEX_LEFTOVERS, CODEX_VOCABULARY } from "./vocabulary.js";

/** Per rule: [Claude text, Codex text] pairs, and near misses the rule must leave alone. */
const CASES: Record<string, { yes: [string, string][]; no: string[] }> = {
  "host-label": {
    yes: [["(Claude Code: `Explore`)", "(Codex: `explorer`)"]],
    no: ["Claude Code reads CLAUDE.md", "Claude Codex: x"],
  },
  "hand-back": {
    yes: [
      [
        "record the Agent tool's whole result, verbatim",
        "record the whole `wait_agent` output for this one agent, verbatim",
      ],
    ],
    no: ["the Agent tool's result", "the Agent tool's whole"],
  },
  "edit-tools": {
    yes: [
      ["Write files with Edit or Write; use", "Write files through the shell (e.g. a here-document); use"],
    ],
    no: ["Edit or Write files", "with Edit"],
  },
  "spawn-tool": {
    yes: [
      ["use the Agent tool with", "use `spawn_agent` with"],
      ["the Task tool", "`spawn_agent`"],
      ["an Agent tool call", "an `spawn_agent` call"],
    ],
    no: ["the Agent", "Agent, Task, spawn_agent or any other", "AgentTool", "a Subagent tool"],
  },
  "spawn-calls": {
    yes: [
      ["several Agent calls", "several `spawn_agent` calls"],
      ["one Task call", "one `spawn_agent` call"],
    ],
    no: ["Agents call it", "Agent caller"],
  },
  "subagent-type": {
    yes: [['`subagent_type: "<role>"`', '`agent_type: "<role>"`']],
    no: ["subagent_types_list", "my_subagent_type"],
  },
  "description-argument": {
    yes: [
      ['with `agent_type: "r"`, `description: "rite: r"`, and', 'with `agent_type: "r"`, and'],
      ['`description: ""`', ""],
    ],
    no: ["the `description` field", 'description: "x" in YAML'],
  },
  foreground: {
    yes: [
      ["in the foreground", "waited on with `wait_agent`"],
      ["in the\nforeground", "waited on with `wait_agent`"],
    ],
    no: ["the foreground colour", "in the background"],
  },
  "ask-user-question": {
    yes: [
      [
        "(Claude Code: AskUserQuestion)",
        "(Codex: `request_user_input` in Plan mode, otherwise a numbered list and end your turn)",
      ],
      [
        "use `AskUserQuestion`",
        "use `request_user_input` in Plan mode, otherwise a numbered list and end your turn",
      ],
    ],
    no: ["AskUserQuestions", "askUserQuestion"],
  },
  "explore-agent": {
    yes: [
      ["type (`Explore`)", "type (`explorer`)"],
      ["an Explore agent", "an `explorer` agent"],
    ],
    no: ["Explore the code", "explore the repository", "`Explorer`"],
  },
  "skill-tool": {
    yes: [["(Claude Code: the Skill tool)", "(Codex: read that rite's `SKILL.md` and follow it)"]],
    no: ["the Skill", "a skill tool"],
  },
  "slash-rite": {
    yes: [
      ["run /rite-build now", "run $rite-build now"],
      ["`/rite`", "`$rite`"],
      ["/rite-x", "$rite-x"],
      ["(/rite-plan)", "($rite-plan)"],
    ],
    no: ["skills/rite-build/SKILL.md", "../rite/reference/dispatch.md", "/ritex", "a/rite-build"],
  },
  "agent-path": {
    yes: [
      ["read `.claude/agents/<role>.md`", "read `.codex/agents/<role>.toml`"],
      [".claude/agents/devrites-slice-wright.md.", ".codex/agents/devrites-slice-wright.toml."],
    ],
    no: [".claude/agents/", ".claude/agents/x.mdx"],
  },
  "skills-path": {
    yes: [["in `.claude/skills/rite/`", "in `.agents/skills/rite/`"]],
    no: [".claude/skill/", "skills/rite/"],
  },
  "claude-md": {
    yes: [["project notes in CLAUDE.md", "project notes in AGENTS.md"]],
    no: ["CLAUDE.mdx", "claude.md"],
  },
};

function rule(id: string) {
  const r = CODEX_VOCABULARY.find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return r;
}

describe("the Codex vocabulary table", () => {
  it("has cases for every rule, and no cases for rules that do not exist", () => {
    expect(Object.keys(CASES).sort()).toEqual(CODEX_VOCABULARY.map((r) => r.id).sort());
  });

  for (const [id, { yes, no }] of Object.entries(CASES)) {
    describe(id, () => {
      it.each(yes)("rewrites %j (whole table)", (from, to) => {
        expect(applyRewrites(from, CODEX_VOCABULARY)).toBe(to);
      });
      it.each(yes)("the rule itself changes %j", (from) => {
        expect(applyRewrites(from, [rule(id)])).not.toBe(from);
      });
      it.each(no)("leaves the near miss %j alone", (text) => {
        expect(applyRewrites(text, [rule(id)])).toBe(text);
      });
    });
  }

  it("is idempotent: Codex text has nothing left to rewrite", () => {
    for (const { yes } of Object.values(CASES)) {
      for (const [, to] of yes) expect(applyRewrites(to, CODEX_VOCABULARY)).toBe(to);
    }
  });

  it("leaves no Claude-only word behind in any rewritten case", () => {
    for (const { yes } of Object.values(CASES)) {
      for (const [from] of yes)
        expect(findLeftovers(applyRewrites(from, CODEX_VOCABULARY), CODEX_LEFTOVERS)).toEqual([]);
    }
  });

  it("the leftover scan finds what no rule covers, with its line", () => {
    expect(findLeftovers("ok\nset $CLAUDE_PROJECT_DIR\n", CODEX_LEFTOVERS)).toEqual([
      { line: 2, what: "Claude variable" },
    ]);
    expect(findLeftovers("Claude Code only", CODEX_LEFTOVERS)).toEqual([{ line: 1, what: "Claude Code" }]);
    expect(findLeftovers("spawn_agent, agent_type, .agents/skills/", CODEX_LEFTOVERS)).toEqual([]);
  });
});
