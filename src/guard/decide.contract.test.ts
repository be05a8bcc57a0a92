/**
 * What `decide` promises whatever rule applies: the exact shape of an allow and a deny (role and input only
 * when known), the offending input clipped at 300 characters, a reason ending in one period, size limits that
 * are inclusive, malformed shell arrays and stray packet entries as data rather than errors, an Edit body read
 * as a patch only when it is one, and a shell `workdir` resolved against the call's own directory.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { resolveRepoPath } from "../scope/index.js";
import { decide, MAX_COMMAND_CHARS, MAX_PATCH_CHARS } from "./decide.js";
import type { ActivePacket, GuardContext, GuardDecision } from "./types.js";

let root = "";
let cleanup = () => {};
beforeAll(() => {
  const t = makeTree({ "src/a.ts": "a", "src/n/": "", ".devrites/state.json": "{}" });
  root = t.base;
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

const W = "devrites-slice-wright";
const R = "devrites-code-reviewer";
const PROOF = "devrites-proof-runner";

const PACKETS: ActivePacket[] = [
  { run_id: "run-20260101T000000Z-00000001", role: W, allowed_repo_writes: ["src/a.ts", "src/n/b.ts"] },
  { run_id: "run-20260101T000000Z-00000002", role: R, allowed_repo_writes: [] },
  { run_id: "run-20260101T000000Z-00000003", role: PROOF, allowed_repo_writes: [] },
];

function ctx(packets: unknown[] = PACKETS): GuardContext {
  return {
    root,
    activePackets: packets as ActivePacket[],
    resolve: (p) => resolveRepoPath(root, p),
    hasLocalBin: (n) => n === "vitest",
    isInstalledRole: () => true,
  };
}

const leaf = (role: string, tool: string, input: unknown, cwd = root) => ({
  agent_id: "a",
  agent_type: role,
  tool_name: tool,
  tool_input: input,
  cwd,
  hook_event_name: "PreToolUse",
});

function denied(d: GuardDecision): Extract<GuardDecision, { decision: "deny" }> {
  if (d.decision !== "deny") throw new Error(`expected a deny, got ${JSON.stringify(d)}`);
  return d;
}

describe("decision shapes", () => {
  it("an allowed leaf call says it was a leaf's, and which role", () => {
    expect(decide(leaf(R, "Read", { file_path: "x" }), ctx())).toStrictEqual({
      decision: "allow",
      caller: "leaf",
      role: R,
    });
    expect(decide(leaf(W, "Write", { file_path: `${root}/src/a.ts`, content: "x" }), ctx())).toStrictEqual({
      decision: "allow",
      caller: "leaf",
      role: W,
    });
    expect(decide(leaf(R, "Bash", { command: "ls" }), ctx())).toStrictEqual({
      decision: "allow",
      caller: "leaf",
      role: R,
    });
  });

  it("a deny carries role and input only when they are known", () => {
    const d = decide("not an object", ctx());
    expect(d).toStrictEqual({
      decision: "deny",
      rule: "guard.malformed-input",
      reason:
        "devrites guard denied this call [guard.malformed-input] the hook input is not a JSON object, so the caller cannot be told apart. This is a host or hook wiring problem; the call is blocked because the guard fails closed.",
    });
    expect(Object.keys(d).sort()).toEqual(["decision", "reason", "rule"]);
    const bad = decide({ ...leaf(R, "Read", {}), tool_name: 5 }, ctx());
    expect(Object.keys(bad).sort()).toEqual(["caller", "decision", "reason", "role", "rule"]);
    expect(bad).toMatchObject({ caller: "leaf", role: R });
    expect(decide({ ...leaf("Explore", "Read", {}), tool_name: 5 }, ctx())).toMatchObject({
      caller: "foreign",
      role: "Explore",
    });
    expect(Object.keys(decide(leaf(R, "Write", { file_path: "x" }), ctx())).sort()).toEqual([
      "caller",
      "decision",
      "input",
      "reason",
      "role",
      "rule",
    ]);
  });

  it("the root is allowed and nothing of it is judged", () => {
    expect(decide({ tool_name: "Bash", tool_input: { command: "rm -rf /" }, cwd: "/" }, ctx())).toStrictEqual(
      {
        decision: "allow",
        caller: "root",
      },
    );
    expect(decide({ tool_name: 7 }, ctx([null]))).toStrictEqual({ decision: "allow", caller: "root" });
  });
});

describe("the offending input in a deny is clipped at 300 characters", () => {
  it.each([299, 300])("a %d-character path is shown whole", (n) => {
    const p = `/${"p".repeat(n - 1)}`;
    expect(denied(decide(leaf(R, "Write", { file_path: p }), ctx())).input).toBe(p);
  });
  it("a 301-character path is cut to 300 and marked", () => {
    const p = `/${"p".repeat(300)}`;
    expect(denied(decide(leaf(R, "Write", { file_path: p }), ctx())).input).toBe(`${p.slice(0, 300)}…`);
  });
});

describe("the reason ends with exactly one period", () => {
  it("even when the hint itself ends with one", () => {
    const packets = [
      { run_id: "run-20260101T000000Z-00000001", role: W, allowed_repo_writes: ["src/a.ts", "notes."] },
    ];
    const d = denied(decide(leaf(W, "Write", { file_path: "/etc/x" }), ctx(packets)));
    expect(d.rule).toBe("guard.outside-allowlist");
    expect(d.reason.endsWith("Your allowlist is: src/a.ts, notes.")).toBe(true);
  });
  it("and gets one when the hint has none", () => {
    const d = denied(decide(leaf(R, "Write", { file_path: "x" }), ctx()));
    expect(d.reason.endsWith("describe the change in your result instead.")).toBe(true);
  });
});

describe("size limits are inclusive", () => {
  it("a shell command of exactly the limit is parsed, one more is refused", () => {
    const at = `ls ${"a".repeat(MAX_COMMAND_CHARS - 3)}`;
    expect(at.length).toBe(MAX_COMMAND_CHARS);
    expect(decide(leaf(R, "Bash", { command: at }), ctx())).toMatchObject({ decision: "allow" });
    expect(denied(decide(leaf(R, "Bash", { command: `${at}a` }), ctx())).rule).toBe("guard.input-too-large");
  });

  it("an argv command of exactly the limit in total is parsed, one more is refused", () => {
    const at = ["ls", "a".repeat(MAX_COMMAND_CHARS - 4), "bb"];
    expect(decide(leaf(R, "Bash", { command: at }), ctx())).toMatchObject({ decision: "allow" });
    const over = ["ls", "a".repeat(MAX_COMMAND_CHARS - 4), "bbb"];
    const d = denied(decide(leaf(R, "Bash", { command: over }), ctx()));
    expect(d.rule).toBe("guard.input-too-large");
    expect(d.input).toBe("ls");
    // The offending input shown is the first word, at most 80 characters of it.
    const long = denied(decide(leaf(R, "Bash", { command: ["a".repeat(MAX_COMMAND_CHARS + 1)] }), ctx()));
    expect(long.rule).toBe("guard.input-too-large");
    expect(long.input).toBe("a".repeat(80));
  });

  it("a patch of exactly the limit is read, one more is refused", () => {
    const head = "*** Begin Patch\n*** Add File: src/a.ts\n+";
    const tail = "\n*** End Patch\n";
    const at = `${head}${"x".repeat(MAX_PATCH_CHARS - head.length - tail.length)}${tail}`;
    expect(at.length).toBe(MAX_PATCH_CHARS);
    expect(decide(leaf(W, "apply_patch", { input: at }), ctx())).toMatchObject({ decision: "allow" });
    const over = `${head}${"x".repeat(MAX_PATCH_CHARS - head.length - tail.length + 1)}${tail}`;
    expect(denied(decide(leaf(W, "apply_patch", { input: over }), ctx())).rule).toBe("guard.input-too-large");
  });
});

describe("malformed shell arrays", () => {
  it.each<[string, unknown[]]>([
    ["a number in the argv", ["ls", 1]],
    ["null in the argv", ["ls", null]],
    ["a NUL byte in an argument", ["ls", "a\u0000b"]],
    ["an object in the argv", [{}]],
  ])("%s is malformed input, not an error", (_label, command) => {
    const d = denied(decide(leaf(R, "Bash", { command }), ctx()));
    expect(d.rule).toBe("guard.malformed-input");
    expect(d.reason).toContain("the shell call has no string (or string array) command");
  });
});

describe("packets", () => {
  it("entries that are not packets are skipped, not fatal", () => {
    expect(
      decide(leaf(R, "Read", { file_path: "x" }), ctx([null, undefined, "x", 3, ...PACKETS])),
    ).toStrictEqual({
      decision: "allow",
      caller: "leaf",
      role: R,
    });
  });
});

describe("Write/Edit with a text body", () => {
  it("only a body that is a patch is read as one", () => {
    // Codex's Edit alias may carry both a path and a body; plain text in `input` is not a patch.
    expect(
      decide(leaf(W, "Edit", { file_path: `${root}/src/a.ts`, input: "plain text" }), ctx()),
    ).toMatchObject({ decision: "allow" });
    const d = denied(
      decide(leaf(W, "Edit", { file_path: `${root}/src/a.ts`, input: "*** Begin Patch\nnonsense" }), ctx()),
    );
    expect(d.rule).toBe("guard.malformed-input");
  });
});

describe("a read-only role writing into the workspace", () => {
  it("is told the write lands in .devrites/ and what to do instead", () => {
    const d = denied(decide(leaf(R, "Write", { file_path: `${root}/.devrites/x.json` }), ctx()));
    expect(d.rule).toBe("guard.devrites-write");
    expect(d.reason.replaceAll(root, "<root>")).toBe(
      "devrites guard denied this call [guard.devrites-write] devrites-code-reviewer: `Write` writes `<root>/.devrites/x.json` inside the devrites workspace. Only the devrites CLI writes .devrites/; return your result as your final message.",
    );
  });
});

describe("shell workdir", () => {
  it("a relative workdir resolves from the call's directory, not the repository root", () => {
    const from = (cwd: string) =>
      decide(leaf(W, "Bash", { command: "touch b.ts", workdir: "n" }, cwd), ctx());
    expect(from(`${root}/src`)).toMatchObject({ decision: "allow" });
    expect(from(`${root}/src/`)).toMatchObject({ decision: "allow" });
    expect(denied(from(root)).rule).toBe("guard.outside-allowlist");
  });

  it("an absolute workdir is used as it is", () => {
    const d = decide(
      leaf(W, "Bash", { command: "touch b.ts", workdir: `${root}/src/n` }, "/elsewhere"),
      ctx(),
    );
    expect(d).toMatchObject({ decision: "allow" });
  });

  it("an empty workdir is the call's directory itself", () => {
    // `cd` into the directory the shell is already in leaves one directory, so no either-directory hint.
    const d = denied(
      decide(leaf(W, "Bash", { command: `cd ${root} && touch c.ts`, workdir: "" }, root), ctx()),
    );
    expect(d.rule).toBe("guard.outside-allowlist");
    expect(d.reason).not.toContain("either directory");
  });

  it("a workdir joined to a directory written with trailing slashes is still one directory", () => {
    const d = denied(
      decide(
        leaf(W, "Bash", { command: `cd ${root}/src/n && touch c.ts`, workdir: "n" }, `${root}/src//`),
        ctx(),
      ),
    );
    expect(d.rule).toBe("guard.outside-allowlist");
    expect(d.reason).not.toContain("either directory");
  });
});
