import { describe, expect, it } from "vitest";
import { ALWAYS_ON_CHAR_BUDGET, DESCRIPTION_MAX_CHARS, INVOKE_CHAR_BUDGET } from "./budget.js";
import { buildPack } from "./build.js";
import { check, cleanFiles, edit, errorCodes, PLANNED_COMMANDS, RITE, ROLE, withFiles } from "./fixtures.js";
import { lintPack } from "./lint.js";

const SKILL = "skills/rite-look/SKILL.md";
const AGENT = "agents/devrites-evidence-scout.md";

/** Every diagnostic (load + lint) with this code. */
const found = (files: Map<string, string>, code: string, known: readonly string[] = PLANNED_COMMANDS) =>
  check(files, known).all.filter((d) => d.code === code);

describe("the clean pack", () => {
  it("has no diagnostics at all", () => {
    expect(check(cleanFiles()).all).toEqual([]);
  });
});

describe("names", () => {
  it("rejects a name that is not kebab-case, or longer than 64", () => {
    for (const bad of ["Rite-Look", "rite_look", "rite--look", "-rite", "rite-"]) {
      const files = withFiles({
        [`skills/${bad}/SKILL.md`]: RITE.replace("name: rite-look", `name: ${bad}`),
      });
      expect(found(files, "pack.name-invalid"), bad).toHaveLength(1);
    }
    const long = `rite-${"a".repeat(60)}`;
    const files = withFiles({
      [`skills/${long}/SKILL.md`]: RITE.replace("name: rite-look", `name: ${long}`),
    });
    expect(found(files, "pack.name-invalid")).toHaveLength(1);
    const ok64 = `rite-${"a".repeat(59)}`;
    const okFiles = withFiles({
      [`skills/${ok64}/SKILL.md`]: RITE.replace("name: rite-look", `name: ${ok64}`),
    });
    expect(found(okFiles, "pack.name-invalid")).toEqual([]);
  });

  it("rejects a name that differs from its folder or file, with the name's line", () => {
    expect(found(edit(SKILL, "name: rite-look", "name: rite-peek"), "pack.name-mismatch")).toMatchObject([
      { path: SKILL, line: 2 },
    ]);
    const agent = found(
      edit(AGENT, "name: devrites-evidence-scout", "name: devrites-plan-drafter"),
      "pack.name-mismatch",
    );
    expect(agent).toMatchObject([{ path: AGENT, line: 2 }]);
  });

  it("rejects the reserved words in any case, but not look-alikes", () => {
    for (const bad of ["rite-claude", "anthropic-rite", "rite-ClAuDe"]) {
      const files = withFiles({
        [`skills/${bad}/SKILL.md`]: RITE.replace("name: rite-look", `name: ${bad}`),
      });
      expect(found(files, "pack.name-reserved"), bad).toHaveLength(1);
    }
    const near = withFiles({
      "skills/rite-clause/SKILL.md": RITE.replace("name: rite-look", "name: rite-clause"),
    });
    expect(found(near, "pack.name-reserved")).toEqual([]);
  });

  it("rejects a skill and an agent with the same name", () => {
    const files = withFiles({
      "skills/devrites-evidence-scout/SKILL.md": RITE.replace(
        "name: rite-look",
        "name: devrites-evidence-scout",
      )
        .replace("dispatches: [devrites-evidence-scout]", "dispatches: []")
        .replace("[look up, find out]", "[scout]"),
    });
    expect(found(files, "pack.name-duplicate")).toHaveLength(1);
  });
});

describe("descriptions", () => {
  const desc = (d: string) =>
    edit(SKILL, "description: Use to look something up in the code.", `description: ${d}`);

  it("accepts the allowed openings", () => {
    for (const d of [
      "Use when x.",
      "Use to x.",
      "Use for x.",
      "Use with x.",
      "Use after x.",
      "Use before x.",
    ]) {
      expect(found(desc(d), "pack.description-no-when"), d).toEqual([]);
    }
  });

  it("rejects one that does not say when to use it", () => {
    for (const d of ["Builds the next slice.", "use to build.", "Used to build.", "Useful to build."]) {
      expect(found(desc(d), "pack.description-no-when"), d).toMatchObject([{ path: SKILL, line: 3 }]);
    }
  });

  it("rejects one over the limit, and accepts one exactly at it", () => {
    const at = `Use to ${"x".repeat(DESCRIPTION_MAX_CHARS - 7)}`;
    expect(found(desc(at), "pack.description-too-long")).toEqual([]);
    expect(found(desc(`${at}y`), "pack.description-too-long")).toHaveLength(1);
  });

  it("rejects a multi-line description and markup", () => {
    expect(found(desc('"Use to look.\\nThen more."'), "pack.description-multiline")).toHaveLength(1);
    expect(found(desc("Use to look at <b>code</b>."), "pack.description-markup")).toHaveLength(1);
  });
});

describe("sections", () => {
  it("reports each missing rite section by name", () => {
    const d = found(edit(SKILL, "## Gates\n", "## Gate\n"), "pack.section-missing");
    expect(d).toMatchObject([{ path: SKILL, message: "required section `## Gates` is missing" }]);
  });

  it("needs Dispatch only when the rite dispatches", () => {
    const noDispatch = edit(SKILL, "## Dispatch\n", "## Delegation\n");
    expect(found(noDispatch, "pack.section-missing")).toHaveLength(1);
    const files = withFiles({
      [SKILL]: RITE.replace("dispatches: [devrites-evidence-scout]", "dispatches: []")
        .replace("## Dispatch\n", "## Notes\n")
        .replace("--role devrites-evidence-scout ", ""),
    });
    expect(found(files, "pack.section-missing")).toEqual([]);
  });

  it("counts sections a fragment provides, not headings inside code or at another level", () => {
    expect(found(withFiles({ "fragments/never.md": "# Never\n" }), "pack.section-missing")).toMatchObject([
      { message: "required section `## Never` is missing" },
    ]);
    const fenced = edit(AGENT, "## Escalate\n", "```\n## Escalate\n```\n");
    expect(found(fenced, "pack.section-missing")).toHaveLength(1);
    expect(found(edit(AGENT, "## Escalate\n", "## escalate ##\n"), "pack.section-missing")).toEqual([]);
  });
});

describe("rites", () => {
  it("requires a phase when the rite dispatches", () => {
    expect(found(edit(SKILL, "  phase: spec\n", ""), "pack.phase-missing")).toMatchObject([{ line: 4 }]);
  });

  it("requires a dispatching skill to be named rite or rite-…", () => {
    const files = withFiles({
      [SKILL]: undefined,
      "skills/look/SKILL.md": RITE.replace("name: rite-look", "name: look"),
    });
    expect(found(files, "pack.rite-name")).toHaveLength(1);
    expect(found(cleanFiles(), "pack.rite-name")).toEqual([]);
  });

  it("checks route hints: lowercase, trimmed, one rite each", () => {
    expect(found(edit(SKILL, "[look up, find out]", "[Look Up]"), "pack.route-hint-invalid")).toMatchObject([
      { line: 8 },
    ]);
    const twin = RITE.replaceAll("rite-look", "rite-seek").replace("[look up, find out]", "[look up, seek]");
    const d = found(withFiles({ "skills/rite-seek/SKILL.md": twin }), "pack.route-hint-duplicate");
    expect(d).toMatchObject([{ severity: "warning", path: "skills/rite-seek/SKILL.md" }]);
    expect(d[0]?.message).toContain("`rite-look`");
  });
});

describe("roles", () => {
  it("rejects an agent that is not a devrites role", () => {
    const files = withFiles({
      "agents/devrites-helper.md": ROLE.replace("devrites-evidence-scout", "devrites-helper"),
    });
    expect(found(files, "pack.role-unknown")).toMatchObject([{ path: "agents/devrites-helper.md", line: 2 }]);
  });

  it("requires mode and payload to agree with the role table", () => {
    expect(found(edit(AGENT, "mode: read-only", "mode: writer"), "pack.role-mode-mismatch")).toMatchObject([
      { line: 6 },
    ]);
    expect(
      found(edit(AGENT, "payload: evidence-dossier", "payload: proof-report"), "pack.role-payload-mismatch"),
    ).toMatchObject([{ line: 7 }]);
  });

  it("requires a tools allowlist", () => {
    expect(found(edit(AGENT, "tools: Read, Grep, Glob, Bash\n", ""), "pack.role-tools-missing")).toHaveLength(
      1,
    );
  });

  it("forbids write tools on a read-only role and spawn tools on every role", () => {
    for (const t of ["Edit", "Write", "MultiEdit", "NotebookEdit", "Agent", "Task"]) {
      const d = found(edit(AGENT, "Glob, Bash", `Glob, Bash, ${t}`), "pack.role-tool-forbidden");
      expect(d, t).toMatchObject([{ line: 4 }]);
    }
  });

  it("lets the writer have Edit, Write and MultiEdit but not NotebookEdit or Agent", () => {
    const wright = ROLE.replaceAll("devrites-evidence-scout", "devrites-slice-wright")
      .replace("mode: read-only", "mode: writer")
      .replace("payload: evidence-dossier", "payload: wright-report");
    const base = {
      [AGENT]: undefined,
      [SKILL]: RITE.replaceAll("devrites-evidence-scout", "devrites-slice-wright"),
    };
    const ok = withFiles({
      ...base,
      "agents/devrites-slice-wright.md": wright.replace("Glob, Bash", "Glob, Edit, Write, MultiEdit, Bash"),
    });
    expect(errorCodes(check(ok).all)).toEqual([]);
    for (const t of ["NotebookEdit", "Agent"]) {
      const bad = withFiles({
        ...base,
        "agents/devrites-slice-wright.md": wright.replace("Glob, Bash", `Glob, Bash, ${t}`),
      });
      expect(errorCodes(check(bad).all), t).toEqual(["pack.role-tool-forbidden"]);
    }
  });

  it("fails closed on a tool it does not know", () => {
    for (const t of ["mcp__db__write", "Shell", "read"]) {
      expect(found(edit(AGENT, "Glob, Bash", `Glob, Bash, ${t}`), "pack.role-tool-unknown"), t).toHaveLength(
        1,
      );
    }
  });

  it("warns about a role no rite dispatches", () => {
    const files = edit(SKILL, "dispatches: [devrites-evidence-scout]", "dispatches: []");
    expect(found(files, "pack.role-undispatched")).toMatchObject([{ severity: "warning", path: AGENT }]);
  });
});

describe("commands", () => {
  it("accepts every command the pack mentions when the CLI has it", () => {
    expect(found(cleanFiles(), "pack.command-unknown")).toEqual([]);
  });

  it("reports a command the CLI does not have, with the file and line", () => {
    const d = found(cleanFiles(), "pack.command-unknown", ["packet new"]);
    expect(d).toMatchObject([
      { path: SKILL, line: 32, message: "`.devrites/bin/devrites status` is not a devrites command" },
    ]);
  });

  it("requires the launcher: a known command by its bare name is pack.command-bare", () => {
    const files = withFiles({
      "skills/rite-look/reference/how.md":
        "# How\n\nRun `devrites status`, then `.devrites/bin/devrites status`; `.devrites/runs/` is a path.\n",
    });
    expect(found(files, "pack.command-bare")).toMatchObject([
      {
        path: "skills/rite-look/reference/how.md",
        line: 3,
        message: "`devrites status` runs devrites by its bare name",
        hint: expect.stringContaining("`.devrites/bin/devrites status`"),
      },
    ]);
    // an unknown command by its bare name is reported as unknown, once
    const unknown = withFiles({ "skills/rite-look/reference/how.md": "# How\n\nRun `devrites frob`.\n" });
    expect(found(unknown, "pack.command-bare")).toEqual([]);
    expect(found(unknown, "pack.command-unknown")).toHaveLength(1);
  });

  it("checks references, fragments and roles too, at their own lines", () => {
    const files = withFiles({
      "skills/rite-look/reference/how.md": "# How\n\nThen run `.devrites/bin/devrites frobnicate`.\n",
      "fragments/never.md": "## Never\n\n- Run `.devrites/bin/devrites push`.\n",
    });
    expect(found(files, "pack.command-unknown").map((d) => `${d.path}:${d.line}`)).toEqual([
      "fragments/never.md:3",
      "skills/rite-look/reference/how.md:3",
    ]);
  });
});

describe("references", () => {
  it("accepts existing relative references", () => {
    const files = withFiles({
      "skills/rite-peek/SKILL.md": RITE.replaceAll("rite-look", "rite-peek")
        .replace("[look up, find out]", "[peek]")
        .replace(
          "`reference/how.md`",
          "`../rite-look/reference/how.md` and [how](../rite-look/reference/how.md#top)",
        ),
    });
    expect(found(files, "pack.reference-missing")).toEqual([]);
  });

  it("reports a missing file, with its line", () => {
    expect(
      found(edit(SKILL, "`reference/how.md`", "`reference/why.md`"), "pack.reference-missing"),
    ).toMatchObject([{ path: SKILL, line: 28 }]);
    expect(
      found(edit(SKILL, "`reference/how.md`", "[how](reference/hwo.md)"), "pack.reference-missing"),
    ).toHaveLength(1);
  });

  it("reports a reference that leaves the skills", () => {
    for (const target of ["`../../agents/x.md`", "`../../../README.md`"]) {
      expect(found(edit(SKILL, "`reference/how.md`", target), "pack.reference-outside"), target).toHaveLength(
        1,
      );
    }
  });

  it("ignores URLs, anchors and non-relative code spans", () => {
    const text = "[site](https://example.com/a.md) [top](#x) `docs/a.md` `/abs/a.md`";
    expect(found(edit(SKILL, "`reference/how.md`", text), "pack.reference-missing")).toEqual([]);
  });
});

describe("dispatch declarations", () => {
  it("reports a role the rite spawns without declaring it", () => {
    const files = edit(SKILL, "then follow", 'then `subagent_type: "devrites-plan-drafter"`, then follow');
    expect(found(files, "pack.dispatch-undeclared")).toMatchObject([{ path: SKILL, line: 27 }]);
  });

  it("warns about a declared role the rite never mentions", () => {
    const files = edit(SKILL, "--role devrites-evidence-scout ", "");
    expect(found(files, "pack.dispatch-unused")).toMatchObject([{ severity: "warning" }]);
  });
});

describe("fragments", () => {
  it("warns about a fragment nothing includes", () => {
    const d = found(withFiles({ "fragments/spare.md": "x\n" }), "pack.fragment-unused");
    expect(d).toMatchObject([{ severity: "warning", path: "fragments/spare.md" }]);
  });
});

describe("hooks", () => {
  const WIRING = "hooks/wiring.yaml";
  it("pairs each event with its entry point", () => {
    expect(
      found(edit(WIRING, "entry: pre-tool-use", "entry: subagent-stop"), "pack.hook-entry-mismatch"),
    ).toMatchObject([{ path: WIRING, line: 2 }]);
  });

  it("rejects a narrowed guard matcher, but not a narrowed matcher elsewhere", () => {
    expect(
      found(
        edit(WIRING, 'matcher: "*"\n    timeout: 10', 'matcher: "Edit|Write"\n    timeout: 10'),
        "pack.hook-matcher-narrow",
      ),
    ).toHaveLength(1);
    expect(
      found(
        edit(WIRING, 'matcher: "*"\n    timeout: 60', 'matcher: "x"\n    timeout: 60'),
        "pack.hook-matcher-narrow",
      ),
    ).toEqual([]);
  });

  it("rejects an event wired twice, and requires the guard and the result check", () => {
    const twice = edit(
      WIRING,
      "event: SubagentStop\n    entry: subagent-stop",
      "event: PreToolUse\n    entry: pre-tool-use",
    );
    expect(errorCodes(check(twice).all)).toEqual(["pack.hook-duplicate", "pack.hook-result-check-missing"]);
    const noGuard = edit(
      WIRING,
      "event: PreToolUse\n    entry: pre-tool-use",
      "event: UserPromptSubmit\n    entry: user-prompt-submit",
    );
    expect(errorCodes(check(noGuard).all)).toEqual(["pack.hook-guard-missing"]);
  });
});

describe("budget", () => {
  it("rejects names and descriptions over the always-on budget", () => {
    const { model } = buildPack(cleanFiles());
    const n = Math.ceil(ALWAYS_ON_CHAR_BUDGET / 60) + 1;
    const padded = {
      ...model,
      agents: Array.from({ length: n }, (_, i) => ({
        ...(model.agents[0] as NonNullable<(typeof model.agents)[0]>),
        name: `devrites-evidence-scout-${i}`,
        description: `Use to ${"x".repeat(40)}`,
      })),
    };
    expect(lintPack(padded, PLANNED_COMMANDS).filter((d) => d.code === "pack.budget-always-on")).toHaveLength(
      1,
    );
    expect(lintPack(model, PLANNED_COMMANDS).filter((d) => d.code === "pack.budget-always-on")).toEqual([]);
  });

  it("rejects a rite, role or reference file over the invoke budget, counting fragments", () => {
    const big = "x".repeat(INVOKE_CHAR_BUDGET);
    expect(found(edit(SKILL, "## Gates", `${big}\n## Gates`), "pack.budget-invoke")).toMatchObject([
      { path: SKILL },
    ]);
    expect(
      found(withFiles({ "fragments/never.md": `## Never\n${big}` }), "pack.budget-invoke"),
    ).toMatchObject([{ path: AGENT }]);
    expect(
      found(withFiles({ "skills/rite-look/reference/how.md": big + big }), "pack.budget-invoke"),
    ).toMatchObject([{ path: "skills/rite-look/reference/how.md" }]);
  });
});

describe("lintPack output", () => {
  it("is sorted by path, line and code", () => {
    const files = withFiles({
      [SKILL]: RITE.replace("name: rite-look", "name: Rite-Look").replace("Use to look", "Looks"),
    });
    const d = lintPack(buildPack(files).model, PLANNED_COMMANDS);
    const keys = d.map((x) => `${x.path ?? ""}\u0000${String(x.line ?? 0).padStart(6, "0")}\u0000${x.code}`);
    expect(keys).toEqual([...keys].sort());
  });
});
