/**
 * Properties of `decide`: it never throws, every deny carries a catalogued rule and a reason, the root is never
 * blocked, unknown tools and arbitrary commands from leaves get a decision, appending a write to any command
 * never lets it through for a read-only role, and work is bounded (big inputs decide or are refused by size).
 */

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { parseRoleAgentType, ROLE_NAMES } from "../envelope/roles.js";
import { resolveRepoPath } from "../scope/index.js";
import { decide, MAX_COMMAND_CHARS } from "./decide.js";
import { classifyTool } from "./tools.js";
import { type ActivePacket, GUARD_RULES, type GuardContext, type GuardDecision } from "./types.js";

let root = "";
let cleanup = () => {};
beforeAll(() => {
  const t = makeTree({ "src/a.ts": "a", out: { link: "/etc" } });
  root = t.base;
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

const PACKETS: ActivePacket[] = ROLE_NAMES.map((role, i) => ({
  run_id: `run-20260101T000000Z-0000000${i}`,
  role,
  allowed_repo_writes: role === "devrites-slice-wright" ? ["src/a.ts"] : [],
}));

function ctx(): GuardContext {
  return {
    root,
    activePackets: PACKETS,
    resolve: (p) => resolveRepoPath(root, p),
    hasLocalBin: (n) => n === "vitest",
    isInstalledRole: () => true,
  };
}

function wellFormed(d: GuardDecision): void {
  expect(["allow", "deny"]).toContain(d.decision);
  if (d.decision === "deny") {
    expect(GUARD_RULES).toContain(d.rule);
    expect(d.reason.length).toBeGreaterThan(20);
    expect(d.reason).toContain(d.rule);
  }
}

function leaf(role: string, tool: string, input: unknown): Record<string, unknown> {
  return {
    agent_id: "a1",
    agent_type: role,
    tool_name: tool,
    tool_input: input,
    cwd: root,
    hook_event_name: "PreToolUse",
  };
}

/** Shell-ish fragments that exercise the parser's corners (no here-documents: they swallow later lines). */
const token = fc.constantFrom(
  "ls",
  "cat",
  "rm",
  "git",
  "commit",
  "sed",
  "-i",
  "-n",
  "p",
  "src/a.ts",
  "x",
  "'q u'",
  '"d $x"',
  "$y",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  "${z}",
  "*",
  "[ab]",
  "{a,b}",
  "~",
  "#",
  "a#b",
  "\\",
  "\\;",
  ";",
  "&&",
  "||",
  "|",
  "&",
  ">",
  ">>",
  "2>&1",
  "<",
  "<<<",
  "(",
  ")",
  "`",
  "$(",
  "\n",
  "=",
  "A=1",
  "if",
  "then",
  "fi",
  "do",
  "done",
  "for",
  "in",
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "'",
  '"',
  "$'",
  "\u0000",
  "\uE000",
);
const shellish = fc.array(token, { maxLength: 25 }).map((ts) => ts.join(" "));
const anyCommand = fc.oneof(
  shellish,
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 100 }),
);

describe("decide", () => {
  it("never throws and always answers well-formed, whatever the input", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (input) => {
        wellFormed(decide(input, ctx()));
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on leaf-shaped input with arbitrary field values", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            agent_type: fc.oneof(fc.constantFrom(...ROLE_NAMES, "p:devrites-slice-wright"), fc.anything()),
            agent_id: fc.anything(),
            tool_name: fc.oneof(
              fc.constantFrom("Bash", "Write", "Edit", "apply_patch", "shell", "Agent"),
              fc.anything(),
            ),
            tool_input: fc.oneof(
              fc.dictionary(
                fc.constantFrom("command", "file_path", "edits", "workdir", "path"),
                fc.anything(),
              ),
              fc.anything(),
            ),
            cwd: fc.oneof(fc.constant("/repo"), fc.anything()),
            hook_event_name: fc.oneof(fc.constant("PreToolUse"), fc.anything()),
          },
          { requiredKeys: [] },
        ),
        (input) => {
          wellFormed(decide(input, ctx()));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never blocks the root session", () => {
    fc.assert(
      fc.property(fc.string(), fc.anything(), (tool, input) => {
        expect(decide({ tool_name: tool, tool_input: input, cwd: "/x" }, ctx())).toEqual({
          decision: "allow",
          caller: "root",
        });
      }),
    );
  });

  it("denies unknown tools for leaves, with a rule", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROLE_NAMES),
        fc.string({ minLength: 1 }),
        fc.object(),
        (role, tool, input) => {
          const d = decide(leaf(role, tool, input), ctx());
          wellFormed(d);
          if (classifyTool(tool, input as Record<string, unknown>) === "unknown") {
            expect(d).toMatchObject({ decision: "deny", rule: "guard.unknown-tool" });
          }
        },
      ),
    );
  });

  it("decides any command from any role, with a rule when it denies", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROLE_NAMES), anyCommand, (role, command) => {
        wellFormed(decide(leaf(role, "Bash", { command }), ctx()));
      }),
      { numRuns: 1000 },
    );
  });

  it("never lets a read-only role through once a write is appended", () => {
    // Same-line separators are not enough: after `#` bash really does ignore the rest of the line.
    expect(
      decide(leaf("devrites-code-reviewer", "Bash", { command: "ls # && cat a > w" }), ctx()),
    ).toMatchObject({ decision: "allow" });
    const readOnly = ROLE_NAMES.filter((r) => r !== "devrites-slice-wright");
    fc.assert(
      // A new line starting with `;` always begins a new command: a `#` comment or a trailing backslash in the
      // generated prefix cannot swallow it (here-documents, which could, are not generated).
      fc.property(
        fc.constantFrom(...readOnly),
        shellish,
        fc.constantFrom("\n;", "\n; "),
        (role, command, sep) => {
          const d = decide(
            leaf(role, "Bash", { command: `${command}${sep}cat src/a.ts > written.txt` }),
            ctx(),
          );
          expect(d.decision).toBe("deny");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never lets the wright write outside its allowlist once such a write is appended", () => {
    fc.assert(
      fc.property(shellish, fc.constantFrom("\n;", "\n; "), (command, sep) => {
        const d = decide(
          leaf("devrites-slice-wright", "Bash", { command: `${command}${sep}rm -f src/other.ts` }),
          ctx(),
        );
        expect(d.decision).toBe("deny");
      }),
      { numRuns: 1000 },
    );
  });

  it("decides the wright's file writes only by exact allowlist membership", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }), (name) => {
        const d = decide(
          leaf("devrites-slice-wright", "Write", { file_path: `${root}/${name}`, content: "" }),
          ctx(),
        );
        wellFormed(d);
        if (d.decision === "allow")
          expect(
            name === "src/a.ts" || name === "./src/a.ts" || name.replace(/\/+/g, "/") === "src/a.ts",
          ).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("bounded work", () => {
  const patterns = [
    "'",
    '"',
    "$'",
    "\\",
    "{",
    "${",
    "[",
    "(",
    "<<",
    "#",
    "`",
    ";",
    "|",
    "a ",
    "$x",
    "\n",
    "{a,",
    "2>",
  ];

  it.each(patterns)("decides a ~100 KB command made of %j", (unit) => {
    const command = unit.repeat(Math.floor((100 * 1024) / unit.length));
    for (const role of ["devrites-code-reviewer", "devrites-slice-wright"]) {
      const d = decide(leaf(role, "Bash", { command }), ctx());
      wellFormed(d);
      expect(d.decision === "deny" ? d.rule : "allow").not.toBe("guard.input-too-large");
    }
  });

  it("decides random ~100 KB commands", () => {
    fc.assert(
      fc.property(fc.array(token, { minLength: 10, maxLength: 40 }), (ts) => {
        const unit = ts.join(" ");
        const command = unit.repeat(Math.max(1, Math.floor((100 * 1024) / Math.max(unit.length, 1))));
        wellFormed(
          decide(
            leaf("devrites-proof-runner", "Bash", { command: command.slice(0, MAX_COMMAND_CHARS) }),
            ctx(),
          ),
        );
      }),
      { numRuns: 20 },
    );
  });

  it("refuses any command above the cap by size, without parsing", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.integer({ min: 1, max: 1000 }), (s, extra) => {
        const command = "x".repeat(MAX_COMMAND_CHARS + extra - s.length) + s;
        const d = decide(leaf("devrites-code-reviewer", "Bash", { command }), ctx());
        expect(d).toMatchObject({ decision: "deny", rule: "guard.input-too-large" });
      }),
      { numRuns: 20 },
    );
  });

  it("decides a large apply_patch body", () => {
    const body = `*** Begin Patch\n*** Update File: src/a.ts\n@@\n${"+line\n".repeat(200_000)}*** End Patch\n`;
    expect(decide(leaf("devrites-slice-wright", "apply_patch", { command: body }), ctx())).toMatchObject({
      decision: "allow",
    });
  });
});

describe("foreign agents", () => {
  /** Any agent_type that does not name a devrites role exactly (lookalikes included). */
  const foreignType = fc
    .oneof(
      fc.string(),
      fc.constantFrom("Explore", "explorer", "general-purpose", "worker"),
      fc
        .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...ROLE_NAMES), fc.string({ maxLength: 3 }))
        .map(([p, r, s]) => `${p}${r}${s}`),
    )
    .filter((t) => t !== "" && parseRoleAgentType(t) === undefined);
  const anyCall = fc.oneof(
    fc.record({ tool: fc.constant("Write"), input: fc.constant({ file_path: "/x/src/a.ts", content: "x" }) }),
    fc.record({ tool: fc.constant("Bash"), input: fc.record({ command: fc.string({ maxLength: 60 }) }) }),
    fc.record({
      tool: fc.string({ minLength: 1, maxLength: 12 }),
      input: fc.dictionary(fc.string(), fc.string()),
    }),
  );

  it("with no run active, every call of a foreign agent is allowed untouched", () => {
    const none = { ...ctx(), activePackets: [] };
    fc.assert(
      fc.property(foreignType, anyCall, (agentType, c) => {
        expect(decide(leaf(agentType, c.tool, c.input), none)).toEqual({
          decision: "allow",
          caller: "foreign",
        });
      }),
      { numRuns: 300 },
    );
  });

  it("with a run active, a foreign agent's Write never runs and its denial names the runs", () => {
    fc.assert(
      fc.property(foreignType, fc.string({ maxLength: 20 }), (agentType, name) => {
        const d = decide(leaf(agentType, "Write", { file_path: `${root}/src/${name}`, content: "x" }), ctx());
        wellFormed(d);
        expect(d).toMatchObject({ decision: "deny", caller: "foreign" });
        if (d.decision === "deny" && d.rule === "guard.foreign-write-during-run")
          for (const p of PACKETS) expect(d.reason).toContain(p.run_id);
      }),
      { numRuns: 200 },
    );
  });
});
