// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * Table-driven policy tests: every rule has cases that trigger it and near misses that must not. Each case runs
 * in both host shapes (Claude Code and Codex PreToolUse stdin), against a real temporary repository so symlinks
 * are resolved by the production scope functions.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import type { RoleName } from "../envelope/roles.js";
import { resolveRepoPath } from "../scope/index.js";
import { decide, MAX_COMMAND_CHARS } from "./decide.js";
import {
  type ActivePacket,
  GUARD_RULES,
  type GuardContext,
  type GuardDecision,
  type GuardRule,
} from "./types.js";

const SCOUT = "devrites-evidence-scout";
const REVIEWER = "devrites-code-reviewer";
const PROOF = "devrites-proof-runner";
const WRIGHT = "devrites-slice-wright";

let root = "";
let cleanup = () => {};

beforeAll(() => {
  const t = makeTree({
    "src/a.ts": "a",
    "src/b.ts": "b",
    "src/new/": "",
    "docs/x.md": "x",
    out: { link: "/etc" },
    inner: { link: "src" },
    "src/evil.ts": { link: "/etc/passwd" },
    ".devrites/state.json": "{}",
  });
  root = t.base;
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

const PACKETS: ActivePacket[] = [
  {
    run_id: "run-20260101T000000Z-00000001",
    role: WRIGHT,
    allowed_repo_writes: ["src/a.ts", "src/new/c.ts", "inner/d.ts"],
  },
  { run_id: "run-20260101T000000Z-00000002", role: REVIEWER, allowed_repo_writes: [] },
  { run_id: "run-20260101T000000Z-00000003", role: PROOF, allowed_repo_writes: [] },
  { run_id: "run-20260101T000000Z-00000004", role: "devrites-spec-reviewer", allowed_repo_writes: [] },
  { run_id: "run-20260101T000000Z-00000005", role: "devrites-plan-drafter", allowed_repo_writes: [] },
];

const LOCAL_BINS = new Set(["vitest", "jest", "tsc", "eslint", "prettier", "biome"]);

function ctx(packets: ActivePacket[] = PACKETS): GuardContext {
  return {
    root,
    activePackets: packets,
    resolve: (p) => resolveRepoPath(root, p),
    hasLocalBin: (n) => LOCAL_BINS.has(n),
    isInstalledRole: () => true,
  };
}

type Shape = "claude" | "codex";

function hookInput(
  shape: Shape,
  agentType: string | undefined,
  tool: string,
  input: unknown,
  cwd = root,
): Record<string, unknown> {
  const common =
    shape === "claude"
      ? {
          session_id: "s1",
          transcript_path: "/tmp/t.jsonl",
          cwd,
          prompt_id: "p1",
          permission_mode: "default",
          effort: { level: "medium" },
          hook_event_name: "PreToolUse",
          tool_name: tool,
          tool_input: input,
          tool_use_id: "toolu_1",
        }
      : {
          session_id: "s1",
          turn_id: "t1",
          transcript_path: null,
          cwd,
          hook_event_name: "PreToolUse",
          model: "gpt-x",
          permission_mode: "default",
          tool_name: tool,
          tool_input: input,
          tool_use_id: "call_1",
        };
  return agentType === undefined
    ? common
    : { ...common, agent_id: "a95813fe30b80300e", agent_type: agentType };
}

const bash = (command: string) => ({ command, description: "d" });
const write = (p: string) => ({ file_path: p.startsWith("/") ? p : `${root}/${p}`, content: "x" });
const patch = (...ops: string[]) => ({ command: `*** Begin Patch\n${ops.join("\n")}\n*** End Patch\n` });

/** [label, agent type, tool, tool input, expected] */
type Case = [string, string, string, unknown, "allow" | GuardRule];

function expectDecision(d: GuardDecision, expected: "allow" | GuardRule, label: string) {
  if (expected === "allow") {
    expect(d, label).toMatchObject({ decision: "allow" });
  } else {
    expect(d, label).toMatchObject({ decision: "deny", rule: expected });
    if (d.decision === "deny") expect(d.reason).toContain(expected);
  }
}

function runCases(cases: Case[], context: () => GuardContext = () => ctx()) {
  for (const shape of ["claude", "codex"] as const) {
    describe(shape, () => {
      it.each(cases)("%s", (label, agent, tool, input, expected) => {
        const i = typeof input === "function" ? (input as () => unknown)() : input;
        expectDecision(decide(hookInput(shape, agent, tool, i), context()), expected, label);
      });
    });
  }
}

describe("the root session", () => {
  runCases([
    [
      "root Bash rm -rf",
      undefined as unknown as string,
      "Bash",
      bash("rm -rf / && git push --force"),
      "allow",
    ],
    [
      "root Write into .devrites",
      undefined as unknown as string,
      "Write",
      () => write(".devrites/state.json"),
      "allow",
    ],
    ["root spawn", undefined as unknown as string, "Agent", { subagent_type: "x", prompt: "p" }, "allow"],
    ["root garbage tool input", undefined as unknown as string, "Bash", 42, "allow"],
  ]);

  it("treats agent_type null (serialised None) as the root", () => {
    expect(
      decide(
        { ...hookInput("codex", undefined, "Bash", bash("rm x")), agent_type: null, agent_id: null },
        ctx(),
      ),
    ).toEqual({
      decision: "allow",
      caller: "root",
    });
  });

  it("allows the root even when the context is broken", () => {
    const broken = {
      root: 5,
      activePackets: null,
      resolve: () => {
        throw new Error("x");
      },
    } as unknown as GuardContext;
    expect(decide(hookInput("claude", undefined, "Bash", bash("ls")), broken)).toMatchObject({
      decision: "allow",
      caller: "root",
    });
  });
});

describe("guard.malformed-input", () => {
  it.each([
    ["a string", "not json"],
    ["null", null],
    ["an array", [1, 2]],
    ["a number", 3],
  ])("denies %s (the caller cannot be told apart)", (_l, input) => {
    expect(decide(input, ctx())).toMatchObject({ decision: "deny", rule: "guard.malformed-input" });
  });

  it.each<[string, Record<string, unknown>]>([
    ["agent_id without agent_type", { agent_type: undefined, agent_id: "x" }],
    ["agent_type not a string", { agent_type: 7 }],
    ["empty agent_type", { agent_type: "" }],
    ["tool_name missing", { tool_name: undefined }],
    ["tool_name a number", { tool_name: 1 }],
    ["tool_input a string", { tool_input: "ls" }],
    ["tool_input missing", { tool_input: undefined }],
    ["cwd missing", { cwd: undefined }],
    ["cwd relative", { cwd: "repo" }],
    ["another event", { hook_event_name: "PostToolUse" }],
  ])("denies a leaf call with %s", (_l, patchFields) => {
    const input = { ...hookInput("claude", REVIEWER, "Read", { file_path: "/x" }), ...patchFields };
    for (const [k, v] of Object.entries(patchFields))
      if (v === undefined) delete (input as Record<string, unknown>)[k];
    expect(decide(input, ctx())).toMatchObject({ decision: "deny", rule: "guard.malformed-input" });
  });

  runCases([
    ["well-formed Read (near miss)", REVIEWER, "Read", { file_path: "/x" }, "allow"],
    ["Write without file_path", WRIGHT, "Write", { content: "x" }, "guard.malformed-input"],
    [
      "Write with a numeric file_path",
      WRIGHT,
      "Write",
      { file_path: 3, content: "x" },
      "guard.malformed-input",
    ],
    ["Bash with a numeric command", REVIEWER, "Bash", { command: 3 }, "guard.malformed-input"],
    ["Bash with an empty array", REVIEWER, "Bash", { command: [] }, "guard.malformed-input"],
    ["Bash with an argv array (near miss)", REVIEWER, "Bash", { command: ["git", "status"] }, "allow"],
    [
      "shell workdir with ..",
      WRIGHT,
      "shell",
      { command: ["ls"], workdir: "src/.." },
      "guard.malformed-input",
    ],
    ["apply_patch without a body", WRIGHT, "apply_patch", { other: 1 }, "guard.malformed-input"],
  ]);
});

describe("guard.input-too-large", () => {
  it("refuses a command above the cap without parsing it", () => {
    const big = `echo ${"a".repeat(MAX_COMMAND_CHARS)}`;
    expect(decide(hookInput("claude", REVIEWER, "Bash", bash(big)), ctx())).toMatchObject({
      rule: "guard.input-too-large",
    });
  });
  it("decides a 100 KB command (near miss)", () => {
    const cmd = Array.from({ length: 1000 }, () => `cat ${"a.ts ".repeat(20)}`).join("; ");
    expect(cmd.length).toBeGreaterThan(99_000);
    expect(decide(hookInput("claude", REVIEWER, "Bash", bash(cmd)), ctx())).toMatchObject({
      decision: "allow",
    });
  });
  it("refuses an oversized argv", () => {
    const d = decide(
      hookInput("codex", REVIEWER, "shell", { command: ["echo", "a".repeat(MAX_COMMAND_CHARS + 1)] }),
      ctx(),
    );
    expect(d).toMatchObject({ rule: "guard.input-too-large" });
  });
});

describe("foreign agents while runs are active (the read-only class)", () => {
  const FW = "guard.foreign-write-during-run" as const;
  runCases([
    ["Claude Explore reads", "Explore", "Read", { file_path: "/x" }, "allow"],
    ["Codex explorer lists", "explorer", "Bash", bash("ls src"), "allow"],
    ["general-purpose greps", "general-purpose", "Bash", bash("grep -rn a src"), "allow"],
    ["a case variant of a role reads", "Devrites-Code-Reviewer", "Read", { file_path: "/x" }, "allow"],
    ["Explore waits for an agent", "Explore", "wait_agent", { targets: ["x"] }, "allow"],
    ["Explore writes", "Explore", "Write", () => write("src/a.ts"), FW],
    ["explorer redirects", "explorer", "Bash", bash("echo x > src/a.ts"), FW],
    ["explorer writes an unknown target", "explorer", "Bash", bash('echo x > "$f"'), FW],
    ["explorer patches", "explorer", "apply_patch", patch("*** Add File: n.ts", "+x"), FW],
    ["a role with a suffix writes", "devrites-code-reviewer-2", "Write", () => write("src/a.ts"), FW],
    ["Explore spawns", "Explore", "Agent", { prompt: "p", subagent_type: "x" }, FW],
    ["explorer runs another agent CLI", "explorer", "Bash", bash("claude -p hi"), FW],
    ["Explore commits", "Explore", "Bash", bash("git commit -m x"), "guard.git-mutation"],
    ["Explore installs", "Explore", "Bash", bash("npm install left-pad"), "guard.install"],
    ["Explore runs a program", "Explore", "Bash", bash("node build.js"), "guard.shell-unclassified"],
    [
      "Explore runs tests (the proof runner may)",
      "Explore",
      "Bash",
      bash("npx vitest run"),
      "guard.shell-unclassified",
    ],
    [
      "Explore writes .devrites/",
      "Explore",
      "Write",
      () => write(".devrites/x.json"),
      "guard.devrites-write",
    ],
    ["Explore calls an MCP tool", "Explore", "mcp__x__y", {}, "guard.unknown-tool"],
  ]);
});

describe("foreign agents with no run active are untouched, like the root", () => {
  runCases(
    [
      ["Explore writes", "Explore", "Write", () => write("src/a.ts"), "allow"],
      ["explorer redirects", "explorer", "Bash", bash("echo x > src/a.ts"), "allow"],
      [
        "named like the wright, writes",
        "evil:devrites-slice-wright",
        "Write",
        () => write("src/b.ts"),
        "allow",
      ],
      ["a role (near miss) is still denied", REVIEWER, "Read", { file_path: "/x" }, "guard.no-active-packet"],
      ["the plugin form (near miss)", `devrites:${WRIGHT}`, "Bash", bash("ls"), "guard.no-active-packet"],
    ],
    () => ctx([]),
  );
});

describe("guard.no-active-packet and guard.ambiguous-packet", () => {
  it("denies a read-only leaf with no packet of its role, telling the root how to make one", () => {
    const d = decide(hookInput("claude", SCOUT, "Read", { file_path: "/x" }), ctx());
    expect(d).toMatchObject({ decision: "deny", rule: "guard.no-active-packet" });
    expect(d.decision === "deny" && d.reason).toContain(`devrites packet new --role ${SCOUT}`);
  });
  it("denies the wright with no packet and names --allow", () => {
    const d = decide(
      hookInput("codex", WRIGHT, "Bash", bash("ls")),
      ctx(PACKETS.filter((p) => p.role !== WRIGHT)),
    );
    expect(d).toMatchObject({ decision: "deny", rule: "guard.no-active-packet" });
    expect(d.decision === "deny" && d.reason).toContain(
      "devrites packet new --role devrites-slice-wright --rite rite-build --objective",
    );
    expect(d.decision === "deny" && d.reason).toContain("--allow <path>");
  });
  it("denies the wright when two wright runs are active", () => {
    const two = [
      ...PACKETS,
      {
        run_id: "run-20260101T000000Z-0000000a",
        role: WRIGHT as RoleName,
        allowed_repo_writes: ["docs/x.md"],
      },
    ];
    const d = decide(hookInput("claude", WRIGHT, "Read", { file_path: "/x" }), ctx(two));
    expect(d).toMatchObject({ decision: "deny", rule: "guard.ambiguous-packet" });
    expect(d.decision === "deny" && d.reason).toContain("run-20260101T000000Z-0000000a");
  });
  it("allows several read-only runs of one role (near miss)", () => {
    const two = [
      ...PACKETS,
      { run_id: "run-20260101T000000Z-0000000b", role: REVIEWER as RoleName, allowed_repo_writes: [] },
    ];
    expect(decide(hookInput("claude", REVIEWER, "Read", { file_path: "/x" }), ctx(two))).toMatchObject({
      decision: "allow",
    });
  });
});

describe("guard.spawn", () => {
  runCases([
    ["Claude Agent", REVIEWER, "Agent", { subagent_type: "x", prompt: "p", description: "d" }, "guard.spawn"],
    ["Claude Task alias", WRIGHT, "Task", { subagent_type: "x", prompt: "p" }, "guard.spawn"],
    ["Codex spawn_agent", REVIEWER, "spawn_agent", { agent_type: "x", message: "m" }, "guard.spawn"],
    ["namespaced spawn", WRIGHT, "multi_agent_v1spawn_agent", { agent_type: "x" }, "guard.spawn"],
    ["send_input", REVIEWER, "multi_agent_v1send_input", {}, "guard.spawn"],
    ["resume_agent", REVIEWER, "multi_agent_v1resume_agent", {}, "guard.spawn"],
    ["followup_task", REVIEWER, "collaborationfollowup_task", {}, "guard.spawn"],
    ["send_message", REVIEWER, "collaboration.send_message", {}, "guard.spawn"],
    ["unknown multi-agent tool", REVIEWER, "multi_agent_v1fork_agent", {}, "guard.spawn"],
    ["claude CLI from the shell", WRIGHT, "Bash", bash("claude -p 'do it'"), "guard.spawn"],
    ["codex CLI from the shell", WRIGHT, "Bash", bash("npm test && codex exec 'x'"), "guard.spawn"],
    ["wait_agent (near miss)", REVIEWER, "multi_agent_v1wait_agent", { targets: ["t"] }, "allow"],
    ["list_agents (near miss)", REVIEWER, "collaborationlist_agents", {}, "allow"],
    ["close_agent (near miss)", REVIEWER, "close_agent", {}, "allow"],
    ["ListAgents (near miss)", REVIEWER, "ListAgents", {}, "allow"],
  ]);
});

describe("guard.devrites-write", () => {
  runCases([
    [
      "wright Write into .devrites",
      WRIGHT,
      "Write",
      () => write(".devrites/state.json"),
      "guard.devrites-write",
    ],
    [
      "wright Write into a case variant",
      WRIGHT,
      "Write",
      () => write(".DEVRITES/x.json"),
      "guard.devrites-write",
    ],
    [
      "reader Write into .devrites",
      REVIEWER,
      "Write",
      () => write(".devrites/runs/x/result.json"),
      "guard.devrites-write",
    ],
    [
      "reader redirect into .devrites",
      REVIEWER,
      "Bash",
      bash("cat src/a.ts > .devrites/x"),
      "guard.devrites-write",
    ],
    [
      "wright cp into .devrites",
      WRIGHT,
      "Bash",
      bash("cp src/a.ts .devrites/state.json"),
      "guard.devrites-write",
    ],
    [
      "wright patch into .devrites",
      WRIGHT,
      "apply_patch",
      patch("*** Add File: .devrites/x", "+y"),
      "guard.devrites-write",
    ],
    ["devrites CLI", WRIGHT, "Bash", bash("devrites result record --run x"), "guard.devrites-write"],
    ["devrites CLI by path", WRIGHT, "Bash", bash("node bin/devrites.js packet new"), "guard.devrites-write"],
    ["reading .devrites (near miss)", REVIEWER, "Bash", bash("cat .devrites/state.json"), "allow"],
    [
      "Read of a packet (near miss)",
      REVIEWER,
      "Read",
      () => ({ file_path: `${root}/.devrites/state.json` }),
      "allow",
    ],
  ]);
});

describe("guard.git-mutation", () => {
  const mutations = [
    "git commit -m x",
    "git commit --amend --no-edit",
    "git push origin main",
    "git push --force",
    "git tag v1.0",
    "git tag -d v1",
    "git reset --hard HEAD~1",
    "git checkout -b feature",
    "git checkout -- src/a.ts",
    "git switch main",
    "git restore src/a.ts",
    "git rebase -i HEAD~3",
    "git merge feature",
    "git cherry-pick abc123",
    "git revert HEAD",
    "git am < p.mbox",
    "git stash",
    "git stash pop",
    "git clean -fdx",
    "git branch -D old",
    "git branch newbranch",
    "git add -A",
    "git rm src/a.ts",
    "git mv src/a.ts src/b.ts",
    "git fetch origin",
    "git pull",
    "git update-ref refs/heads/x HEAD",
    "git gc --prune=now",
    "git worktree add ../wt",
    "git config user.name me",
    "git remote add x url",
    "git -C sub commit -m x",
    "git --no-pager commit -m x",
    "cd src && git commit -am x",
    "sudo git push",
  ];
  const reads = [
    "git status",
    "git status --porcelain=v2 -z",
    "git diff",
    "git diff --stat HEAD~1",
    "git log --oneline -20",
    "git show HEAD:src/a.ts",
    "git blame src/a.ts",
    "git grep -n foo",
    "git ls-files",
    "git rev-parse HEAD",
    "git branch",
    "git branch -a --contains HEAD",
    "git tag -l 'v*'",
    "git stash list",
    "git worktree list",
    "git config --get user.name",
    "git config user.name",
    "git remote -v",
    "git --no-pager log -1",
    "git -C src log",
  ];
  runCases([
    ...mutations.map((c): Case => [c, WRIGHT, "Bash", bash(c), "guard.git-mutation"]),
    ...mutations
      .slice(0, 6)
      .map((c): Case => [`${c} (reader)`, REVIEWER, "Bash", bash(c), "guard.git-mutation"]),
    ...reads.map((c): Case => [`${c} (near miss)`, REVIEWER, "Bash", bash(c), "allow"]),
    ["git alias (unknown subcommand)", REVIEWER, "Bash", bash("git st"), "guard.shell-unclassified"],
    [
      "git -c pager",
      REVIEWER,
      "Bash",
      bash("git -c core.pager='rm -rf src' log"),
      "guard.shell-unclassified",
    ],
    ["git log --output writes", REVIEWER, "Bash", bash("git log --output=log.txt"), "guard.readonly-write"],
    ["git apply writes", REVIEWER, "Bash", bash("git apply fix.diff"), "guard.readonly-write"],
    ["git apply --check (near miss)", REVIEWER, "Bash", bash("git apply --check fix.diff"), "allow"],
  ]);
});

describe("guard.install", () => {
  const installs = [
    "npm install",
    "npm i lodash",
    "npm ci",
    "npm install --save-dev vitest",
    "npm --prefix sub install",
    "pnpm add zod",
    "pnpm install",
    "yarn",
    "yarn add react",
    "bun add x",
    "bun install",
    "pip install requests",
    "pip3 install -r requirements.txt",
    "python -m pip install x",
    "python3 -m pip install --user x",
    "uv add httpx",
    "uv pip install x",
    "uv run pytest",
    "uvx ruff",
    "poetry add x",
    "poetry install",
    "cargo add serde",
    "cargo install ripgrep",
    "go get example.com/x",
    "go install example.com/x@latest",
    "go mod tidy",
    "gem install rails",
    "bundle install",
    "bundle",
    "apt-get install -y curl",
    "sudo apt install curl",
    "brew install jq",
    "dnf install x",
    "npx cowsay hi",
    "npx -y vitest run",
    "npx vitest@1.0.0 run",
    "pnpm dlx create-vite",
    "yarn dlx x",
    "bunx cowsay",
    "npm exec -- cowsay",
    "playwright install",
  ];
  runCases([
    ...installs.map((c): Case => [c, WRIGHT, "Bash", bash(c), "guard.install"]),
    ...installs
      .slice(0, 4)
      .map((c): Case => [`${c} (proof runner)`, PROOF, "Bash", bash(c), "guard.install"]),
    ["npx of a local binary (near miss)", PROOF, "Bash", bash("npx vitest run"), "allow"],
    ["npx --no-install (near miss)", PROOF, "Bash", bash("npx --no-install vitest run"), "allow"],
    ["uv run --no-sync (near miss)", PROOF, "Bash", bash("uv run --no-sync pytest -q"), "allow"],
    ["npm ls (near miss)", REVIEWER, "Bash", bash("npm ls --depth=0"), "allow"],
    ["pip list (near miss)", REVIEWER, "Bash", bash("pip list"), "allow"],
    ["npm test for the wright (near miss)", WRIGHT, "Bash", bash("npm test"), "allow"],
  ]);
});

describe("guard.publish", () => {
  runCases([
    ["npm publish", WRIGHT, "Bash", bash("npm publish"), "guard.publish"],
    ["npm version", WRIGHT, "Bash", bash("npm version patch"), "guard.publish"],
    ["cargo publish", WRIGHT, "Bash", bash("cargo publish"), "guard.publish"],
    ["gh pr create", WRIGHT, "Bash", bash("gh pr create --fill"), "guard.publish"],
    ["gh api POST", WRIGHT, "Bash", bash("gh api -X POST repos/o/r/issues -f title=x"), "guard.publish"],
    ["gh pr view for the wright (near miss)", WRIGHT, "Bash", bash("gh pr view 12"), "allow"],
  ]);
});

describe("guard.readonly-write", () => {
  const writes = [
    "cat src/a.ts > out.txt",
    "echo x >> notes.md",
    "echo x >| f",
    "ls &> listing.txt",
    "ls > out 2>&1",
    "cat <> f",
    "echo x >&f",
    "echo x | tee out.txt",
    "sed -i s/a/b/ src/a.ts",
    "sed -i.bak s/a/b/ src/a.ts",
    "sed --in-place s/a/b/ src/a.ts",
    "sed -ni p src/a.ts",
    "sed -n 'w out.txt' src/a.ts",
    "sed 's/a/b/w out.txt' src/a.ts",
    "rm src/a.ts",
    "rmdir src/new",
    "mv src/a.ts src/b.ts",
    "cp src/a.ts src/c.ts",
    "install -m 644 a b",
    "mkdir build",
    "touch src/a.ts",
    "chmod +x src/a.ts",
    "chmod -x src/a.ts",
    "chown me src/a.ts",
    "ln -s src/a.ts link",
    "dd if=src/a.ts of=copy",
    "truncate -s 0 src/a.ts",
    "shred src/a.ts",
    "unlink src/a.ts",
    "find . -name '*.tmp' -delete",
    "find . -name '*.ts' -exec rm {} +",
    "find . -fprint out.txt",
    "ls | xargs rm",
    "tar -xf a.tar",
    "tar xzf a.tgz",
    "tar -czf out.tgz src",
    "unzip a.zip",
    "gzip src/a.ts",
    "patch -p1 < fix.diff",
    "curl -o page.html https://example.com",
    "curl -sSLo page.html https://example.com",
    "wget https://example.com/x",
    "sort -o sorted.txt in.txt",
    "uniq in.txt out.txt",
    "git diff --output=d.txt",
    "yq -i '.a = 1' f.yaml",
    "mktemp",
    "vim src/a.ts",
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\n+y\n*** End Patch\nEOF",
    "npx vitest run -u",
    "pytest --snapshot-update",
    "cd src; echo x > a.ts",
    "rm -f /dev/null",
    "cp src/a.ts /dev/null",
    "touch /dev/null",
  ];
  const nearMisses = [
    "cat src/a.ts > /dev/null",
    "cat src/a.ts 2>/dev/null",
    "ls 2>&1",
    "ls >&2",
    "cat src/a.ts | grep a | wc -l",
    "sed -n p src/a.ts",
    "sed -n '1,20p' src/a.ts",
    "sed -n '/word/p' src/a.ts",
    "sed 's/a/b/g' src/a.ts",
    "sed -E 's/(a)/\\1/' src/a.ts",
    "echo x | tee /dev/null",
    "find . -name '*.ts' -type f",
    "find . -name '*.ts' -exec grep -l foo {} +",
    "ls | xargs grep foo",
    "tar -tf a.tar",
    "unzip -l a.zip",
    "gzip -c src/a.ts",
    "patch --dry-run -p1 < fix.diff",
    "sort in.txt",
    "uniq in.txt",
    "git diff HEAD~1",
    "yq '.a' f.yaml",
    "cat <<'EOF'\nplain text > not a redirect\nEOF",
  ];
  runCases([
    ...writes.map((c): Case => [c, REVIEWER, "Bash", bash(c), "guard.readonly-write"]),
    ["Write", REVIEWER, "Write", () => write("src/a.ts"), "guard.readonly-write"],
    [
      "Edit",
      REVIEWER,
      "Edit",
      () => ({ file_path: `${root}/src/a.ts`, old_string: "a", new_string: "b" }),
      "guard.readonly-write",
    ],
    [
      "MultiEdit",
      "devrites-spec-reviewer",
      "MultiEdit",
      () => ({ file_path: `${root}/src/a.ts`, edits: [] }),
      "guard.readonly-write",
    ],
    [
      "NotebookEdit",
      "devrites-plan-drafter",
      "NotebookEdit",
      () => ({ notebook_path: `${root}/n.ipynb`, new_source: "x" }),
      "guard.readonly-write",
    ],
    [
      "apply_patch",
      REVIEWER,
      "apply_patch",
      patch("*** Update File: src/a.ts", "@@", "-a", "+b"),
      "guard.readonly-write",
    ],
    [
      "Codex Edit alias with a patch",
      REVIEWER,
      "Edit",
      patch("*** Add File: src/z.ts", "+z"),
      "guard.readonly-write",
    ],
    ["proof runner writes too", PROOF, "Bash", bash("npm test > report.txt"), "guard.readonly-write"],
    ...nearMisses.map((c): Case => [`${c} (near miss)`, REVIEWER, "Bash", bash(c), "allow"]),
  ]);
});

describe("guard.shell-unclassified", () => {
  const refused = [
    "eval 'rm -rf src'",
    'bash -c "$CMD"',
    'python -c \'open("x","w").write("y")\'',
    "python3 -c 'print(1)'",
    'node -e \'require("fs").writeFileSync("x","y")\'',
    "node --eval 1",
    "node -p 1",
    "perl -e 'print 1'",
    "perl -pi -e 's/a/b/' src/a.ts",
    "ruby -e 'puts 1'",
    "python <<'EOF'\nprint(1)\nEOF",
    "echo 'print(1)' | python3",
    "echo $(rm -rf src)",
    'echo "$(rm -rf src)"',
    "echo `rm -rf src`",
    "(rm -rf src)",
    "ls <(rm -rf src)",
    "X=$(ls)",
    "$CMD src",
    '"$CMD" src',
    "source ./script.sh",
    ". ./script.sh",
    "exec rm -rf src",
    "echo 'unterminated",
    "echo ${x@P}",
    "echo ${x:-y}",
    "[[ $x -eq 1 ]]",
    "printf -v x '%s' 1",
    "read 'a[$(rm -rf src)]' <<< x",
    "let x=1",
    "cat <<EOF\n$(rm -rf src)\nEOF",
    "case x in a) ls;; esac",
    "f() { rm -rf src; }",
    "trap 'rm -rf src' EXIT",
    "alias ls='rm -rf'",
    "shopt -s expand_aliases",
    "PATH=/tmp/evil:$PATH ls",
    "LD_PRELOAD=x.so ls",
    "echo {a,b}",
    "sed {-i,s/a/b/,f}",
    "awk '{print > \"out\"}' src/a.ts",
    "awk 'BEGIN{system(\"rm x\")}'",
    "awk -f prog.awk src/a.ts",
    "sed -f script.sed src/a.ts",
    "sed 'e rm x' src/a.ts",
    "find . $ACTION",
    "make",
    "node script.js",
    "./run.sh",
    "npm run build",
    "npx vitest run",
    "pytest",
    "curl https://example.com",
    "write_stdin",
  ];
  const allowed = [
    "ls -la",
    "grep -rn 'foo' src",
    "rg --files",
    "rg -n 'a|b' src",
    "head -n 5 src/a.ts",
    "tail -n 20 src/a.ts",
    "wc -l src/*.ts",
    "cat <<'EOF'\n$(not run)\nEOF",
    'echo "$HOME"',
    '[ "$x" -eq 1 ]',
    "test -f src/a.ts && cat src/a.ts",
    "CI=1 ls",
    'for f in src/a.ts src/b.ts; do wc -l "$f"; done',
    "if [ -f src/a.ts ]; then cat src/a.ts; else echo none; fi",
    'while read -r line; do echo "$line"; done < src/a.ts',
    "{ ls; pwd; }",
    "ls # a comment",
    "ls\n# comment\npwd",
    "awk '{print $1}' src/a.ts",
    "awk -F: '$1 == \"x\" {print $2}' /etc/passwd",
    "jq '.a' x.json",
    "echo a#b",
    "diff -u src/a.ts src/b.ts",
    "/usr/bin/env",
    "command -v node",
    "node --version",
    "python3 --version",
    "date +%s",
    "true && false || echo ok",
    "echo done &",
  ];
  runCases([
    ...refused
      .filter((c) => c !== "write_stdin")
      .map((c): Case => [c, REVIEWER, "Bash", bash(c), "guard.shell-unclassified"]),
    [
      "write_stdin",
      WRIGHT,
      "write_stdin",
      { session_id: 1, chars: "rm -rf src\n" },
      "guard.shell-unclassified",
    ],
    ...allowed.map((c): Case => [`${c} (near miss)`, REVIEWER, "Bash", bash(c), "allow"]),
  ]);
});

describe("the proof runner's commands", () => {
  const proof = [
    "npm test",
    "npm t",
    "npm run test -- --reporter=dot",
    "npm run lint",
    "npm run typecheck",
    "npm run test:unit",
    "pnpm test",
    "pnpm run check",
    "yarn test",
    "npx vitest run",
    "npx vitest run src/a.test.ts",
    "npx tsc --noEmit",
    "npx eslint src",
    "npx prettier --check .",
    "npx biome check src",
    "node --test",
    "pytest -q",
    "python -m pytest tests",
    "go test ./...",
    "go vet ./...",
    "cargo test",
    "cargo clippy",
    "make test",
    "CI=1 npm test 2>&1 | tail -50",
    "node_modules/.bin/vitest run",
  ];
  const notProof = [
    ["npm run build", "guard.shell-unclassified"],
    ["npm run format", "guard.readonly-write"],
    ["npx tsc", "guard.shell-unclassified"],
    ["npx eslint --fix src", "guard.readonly-write"],
    ["npx prettier --write src", "guard.readonly-write"],
    ["npx biome check --write src", "guard.readonly-write"],
    ["npx vitest run -u", "guard.readonly-write"],
    ["npx vitest --update", "guard.readonly-write"],
    ["npx jest --updateSnapshot", "guard.readonly-write"],
    ["cargo fmt", "guard.readonly-write"],
    ["go fmt ./...", "guard.readonly-write"],
    ["make", "guard.shell-unclassified"],
    ["make install", "guard.shell-unclassified"],
    ["./node_modules/.bin/../../evil/vitest", "guard.shell-unclassified"],
  ] as const;
  runCases([
    ...proof.map((c): Case => [c, PROOF, "Bash", bash(c), "allow"]),
    ...proof
      .slice(0, 3)
      .map((c): Case => [`${c} (reviewer)`, REVIEWER, "Bash", bash(c), "guard.shell-unclassified"]),
    ...notProof.map(([c, r]): Case => [c, PROOF, "Bash", bash(c), r]),
  ]);
});

describe("the wright's allowlist", () => {
  runCases([
    ["Write an allowlisted file", WRIGHT, "Write", () => write("src/a.ts"), "allow"],
    // A device is harmless only as a sink (redirect, tee, dd of=); as an operand it is removed or replaced.
    ["redirect into /dev/null (near miss)", WRIGHT, "Bash", bash("npm test > /dev/null 2>&1"), "allow"],
    ["tee into /dev/null (near miss)", WRIGHT, "Bash", bash("echo x | tee /dev/null"), "allow"],
    ["rm /dev/null", WRIGHT, "Bash", bash("rm -f /dev/null"), "guard.outside-allowlist"],
    ["mv onto /dev/null", WRIGHT, "Bash", bash("mv src/a.ts /dev/null"), "guard.outside-allowlist"],
    ["ln over /dev/null", WRIGHT, "Bash", bash("ln -sf src/a.ts /dev/null"), "guard.outside-allowlist"],
    ["chmod /dev/null", WRIGHT, "Bash", bash("chmod 600 /dev/null"), "guard.outside-allowlist"],
    ["Write a new allowlisted file", WRIGHT, "Write", () => write("src/new/c.ts"), "allow"],
    [
      "Edit an allowlisted file",
      WRIGHT,
      "Edit",
      () => ({ file_path: `${root}/src/a.ts`, old_string: "a", new_string: "b" }),
      "allow",
    ],
    ["Write a .bak sibling", WRIGHT, "Write", () => write("src/a.ts.bak"), "guard.outside-allowlist"],
    ["Write a case variant", WRIGHT, "Write", () => write("SRC/a.ts"), "guard.outside-allowlist"],
    ["Write via ..", WRIGHT, "Write", () => write(`${root}/src/../src/a.ts`), "guard.outside-allowlist"],
    [
      "Write through a symlink to outside",
      WRIGHT,
      "Write",
      () => write("out/passwd"),
      "guard.outside-allowlist",
    ],
    [
      "Write a symlinked file pointing outside",
      WRIGHT,
      "Write",
      () => write("src/evil.ts"),
      "guard.outside-allowlist",
    ],
    [
      "Write outside the repository",
      WRIGHT,
      "Write",
      { file_path: "/tmp/elsewhere.ts", content: "x" },
      "guard.outside-allowlist",
    ],
    ["Write into .git", WRIGHT, "Write", () => write(".git/hooks/pre-commit"), "guard.outside-allowlist"],
    ["Write another file", WRIGHT, "Write", () => write("src/b.ts"), "guard.outside-allowlist"],
    ["Write the directory", WRIGHT, "Write", () => write("src/new"), "guard.outside-allowlist"],
    ["Write a relative path (near miss)", WRIGHT, "Write", { file_path: "src/a.ts", content: "x" }, "allow"],
    ["Write through an in-repo symlinked dir", WRIGHT, "Write", () => write("inner/d.ts"), "allow"],
    [
      "patch an allowlisted file",
      WRIGHT,
      "apply_patch",
      patch("*** Update File: src/a.ts", "@@", "-a", "+b"),
      "allow",
    ],
    [
      "patch adds an allowlisted file",
      WRIGHT,
      "apply_patch",
      patch("*** Add File: src/new/c.ts", "+c"),
      "allow",
    ],
    [
      "patch adds another file",
      WRIGHT,
      "apply_patch",
      patch("*** Add File: src/z.ts", "+z"),
      "guard.outside-allowlist",
    ],
    [
      "patch deletes another file",
      WRIGHT,
      "apply_patch",
      patch("*** Delete File: src/b.ts"),
      "guard.outside-allowlist",
    ],
    [
      "patch moves to another file",
      WRIGHT,
      "apply_patch",
      patch("*** Update File: src/a.ts", "*** Move to: src/b.ts", "@@", "-a", "+b"),
      "guard.outside-allowlist",
    ],
    [
      "patch with an indented marker",
      WRIGHT,
      "apply_patch",
      patch("*** Update File: src/a.ts", "  *** Add File: src/z.ts", "+z"),
      "guard.outside-allowlist",
    ],
    [
      "malformed patch",
      WRIGHT,
      "apply_patch",
      { command: "*** Begin Patch\n*** Frobnicate: x\n*** End Patch" },
      "guard.write-target-unknown",
    ],
    ["Codex Write alias with a patch", WRIGHT, "Write", patch("*** Add File: src/new/c.ts", "+c"), "allow"],
    [
      "path and patch in one Write",
      WRIGHT,
      "Write",
      () => ({ ...write("src/a.ts"), ...patch("*** Add File: src/z.ts", "+z") }),
      "guard.outside-allowlist",
    ],
    [
      "Codex exec_command cmd field",
      WRIGHT,
      "exec_command",
      { cmd: "rm src/b.ts" },
      "guard.outside-allowlist",
    ],
    ["redirect to an allowlisted file", WRIGHT, "Bash", bash("echo x > src/a.ts"), "allow"],
    ["redirect to another file", WRIGHT, "Bash", bash("echo x > src/b.ts"), "guard.outside-allowlist"],
    ["absolute redirect", WRIGHT, "Bash", () => bash(`echo x > ${root}/src/a.ts`), "allow"],
    ["tee", WRIGHT, "Bash", bash("npm test | tee src/a.ts"), "allow"],
    ["tee another", WRIGHT, "Bash", bash("npm test | tee log.txt"), "guard.outside-allowlist"],
    ["sed -i allowlisted", WRIGHT, "Bash", bash("sed -i 's/a/b/' src/a.ts"), "allow"],
    ["sed -i with backup", WRIGHT, "Bash", bash("sed -i.bak 's/a/b/' src/a.ts"), "guard.outside-allowlist"],
    [
      "sed -i two files",
      WRIGHT,
      "Bash",
      bash("sed -i 's/a/b/' src/a.ts src/b.ts"),
      "guard.outside-allowlist",
    ],
    ["cp onto allowlisted", WRIGHT, "Bash", bash("cp src/b.ts src/a.ts"), "allow"],
    ["cp into a directory", WRIGHT, "Bash", bash("cp docs/x.md src/"), "guard.outside-allowlist"],
    ["cp -r", WRIGHT, "Bash", bash("cp -r src/new src/a.ts"), "guard.write-target-unknown"],
    ["mv moves the source too", WRIGHT, "Bash", bash("mv src/b.ts src/a.ts"), "guard.outside-allowlist"],
    ["rm allowlisted", WRIGHT, "Bash", bash("rm -f src/a.ts"), "allow"],
    ["rm another", WRIGHT, "Bash", bash("rm src/a.ts src/b.ts"), "guard.outside-allowlist"],
    [
      "mkdir a parent of an allowlisted file",
      WRIGHT,
      "Bash",
      bash("mkdir -p src/new && touch src/new/c.ts"),
      "allow",
    ],
    ["mkdir elsewhere", WRIGHT, "Bash", bash("mkdir lib"), "guard.outside-allowlist"],
    ["touch via a symlinked directory out", WRIGHT, "Bash", bash("touch out/x"), "guard.outside-allowlist"],
    ["prettier --write allowlisted", WRIGHT, "Bash", bash("npx prettier --write src/a.ts"), "allow"],
    [
      "prettier --write the project",
      WRIGHT,
      "Bash",
      bash("npx prettier --write ."),
      "guard.outside-allowlist",
    ],
    [
      "prettier --write without files",
      WRIGHT,
      "Bash",
      bash("npx prettier --write"),
      "guard.write-target-unknown",
    ],
    ["eslint --fix allowlisted", WRIGHT, "Bash", bash("npx eslint --fix src/a.ts"), "allow"],
    ["curl -o allowlisted", WRIGHT, "Bash", bash("curl -sSo src/a.ts https://example.com/a"), "allow"],
    ["cd then a relative write", WRIGHT, "Bash", bash("cd src && echo x > a.ts"), "guard.outside-allowlist"],
    [
      "cd to a variable then write",
      WRIGHT,
      "Bash",
      bash('cd "$D" && echo x > a.ts'),
      "guard.write-target-unknown",
    ],
    [
      "cd then an absolute write (near miss)",
      WRIGHT,
      "Bash",
      () => bash(`cd src && echo x > ${root}/src/a.ts`),
      "allow",
    ],
    ["variable target", WRIGHT, "Bash", bash('echo x > "$F"'), "guard.write-target-unknown"],
    ["glob target", WRIGHT, "Bash", bash("sed -i s/a/b/ src/*.ts"), "guard.write-target-unknown"],
    ["tilde target", WRIGHT, "Bash", bash("echo x > ~/x"), "guard.write-target-unknown"],
    [
      "loop variable target",
      WRIGHT,
      "Bash",
      bash('for f in src/a.ts; do echo x > "$f"; done'),
      "guard.write-target-unknown",
    ],
    ["xargs writer", WRIGHT, "Bash", bash("ls | xargs rm"), "guard.write-target-unknown"],
    ["find -delete", WRIGHT, "Bash", bash("find src -name '*.orig' -delete"), "guard.write-target-unknown"],
    ["tar -x", WRIGHT, "Bash", bash("tar -xzf a.tgz"), "guard.write-target-unknown"],
    ["git apply", WRIGHT, "Bash", bash("git apply fix.diff"), "guard.write-target-unknown"],
    ["vim", WRIGHT, "Bash", bash("vim src/a.ts"), "guard.write-target-unknown"],
    [
      "inline python",
      WRIGHT,
      "Bash",
      bash("python3 -c \"open('src/a.ts','w')\""),
      "guard.shell-unclassified",
    ],
    [
      "bash -c is classified",
      WRIGHT,
      "Bash",
      bash("bash -lc 'echo x > src/b.ts'"),
      "guard.outside-allowlist",
    ],
    ["bash -c allowed write", WRIGHT, "Bash", bash("bash -c 'echo x > src/a.ts'"), "allow"],
    [
      "sh here-document is classified",
      WRIGHT,
      "Bash",
      bash("sh <<'EOF'\necho x > src/b.ts\nEOF"),
      "guard.outside-allowlist",
    ],
    ["sudo is classified", WRIGHT, "Bash", bash("sudo tee src/b.ts < x"), "guard.outside-allowlist"],
    ["env wrapper", WRIGHT, "Bash", bash("env FOO=1 rm src/b.ts"), "guard.outside-allowlist"],
    ["timeout wrapper", WRIGHT, "Bash", bash("timeout 5 rm src/b.ts"), "guard.outside-allowlist"],
    ["path-qualified writer", WRIGHT, "Bash", bash("/bin/rm src/b.ts"), "guard.outside-allowlist"],
    ["upper-case writer name", WRIGHT, "Bash", bash("RM src/b.ts"), "guard.outside-allowlist"],
    ["find -exec writer", WRIGHT, "Bash", bash("find src -exec rm {} \\;"), "guard.write-target-unknown"],
    ["newline hides nothing", WRIGHT, "Bash", bash("npm test\nrm src/b.ts"), "guard.outside-allowlist"],
    [
      "comment mid-word hides nothing",
      WRIGHT,
      "Bash",
      bash("echo a#b > src/b.ts"),
      "guard.outside-allowlist",
    ],
    ["fd-number redirect", WRIGHT, "Bash", bash("npm test 2>src/b.ts"), "guard.outside-allowlist"],
    ["running tests (near miss)", WRIGHT, "Bash", bash("npm test && npx tsc --noEmit"), "allow"],
    ["running a script (near miss)", WRIGHT, "Bash", bash("node scripts/build.js"), "allow"],
    ["a build script (near miss)", WRIGHT, "Bash", bash("npm run build"), "allow"],
    [
      "a script that says it rewrites files",
      WRIGHT,
      "Bash",
      bash("npm run lint:fix"),
      "guard.write-target-unknown",
    ],
    ["PATH override", WRIGHT, "Bash", bash("PATH=./bin:$PATH make"), "guard.shell-unclassified"],
    ["NODE_ENV (near miss)", WRIGHT, "Bash", bash("NODE_ENV=test npm test"), "allow"],
    [
      "Codex argv shell",
      WRIGHT,
      "shell",
      { command: ["bash", "-lc", "echo x > src/b.ts"] },
      "guard.outside-allowlist",
    ],
    ["Codex argv shell allowed", WRIGHT, "shell", { command: ["bash", "-lc", "echo x > src/a.ts"] }, "allow"],
    ["Codex workdir", WRIGHT, "shell", { command: ["touch", "a.ts"], workdir: "src" }, "allow"],
    [
      "Codex workdir elsewhere",
      WRIGHT,
      "shell",
      { command: ["touch", "b.ts"], workdir: "src" },
      "guard.outside-allowlist",
    ],
    [
      "Codex apply_patch argv",
      WRIGHT,
      "shell",
      { command: ["apply_patch", "*** Begin Patch\n*** Add File: src/z.ts\n+z\n*** End Patch"] },
      "guard.outside-allowlist",
    ],
  ]);
});

describe("edges: devices, variable names, repeated targets, bad allowlists", () => {
  runCases([
    ...["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/3"].flatMap((dev): Case[] => [
      [`reader > ${dev}`, REVIEWER, "Bash", bash(`ls > ${dev}`), "allow"],
      [`wright > ${dev}`, WRIGHT, "Bash", bash(`ls > ${dev}`), "allow"],
    ]),
    ["reader > /dev/fdx", REVIEWER, "Bash", bash("ls > /dev/fdx"), "guard.readonly-write"],
    ["reader > /dev/fd/3x", REVIEWER, "Bash", bash("ls > /dev/fd/3x"), "guard.readonly-write"],
    ["reader > /dev/sda", REVIEWER, "Bash", bash("ls > /dev/sda"), "guard.readonly-write"],
    ["wright > /dev/fd/", WRIGHT, "Bash", bash("ls > /dev/fd/"), "guard.outside-allowlist"],
    // The Write tool may replace the file (temporary file + rename), so a device is not a sink for it.
    [
      "wright Write /dev/null",
      WRIGHT,
      "Write",
      { file_path: "/dev/null", content: "" },
      "guard.outside-allowlist",
    ],
    ["reader FOO=", REVIEWER, "Bash", bash("FOO=1 ls"), "guard.shell-unclassified"],
    ["reader foo=", REVIEWER, "Bash", bash("foo=1 ls"), "allow"],
    ["reader fooBar=", REVIEWER, "Bash", bash("fooBar=1 ls"), "guard.shell-unclassified"],
    ["reader 1foo=", REVIEWER, "Bash", bash("export 1foo=1"), "guard.shell-unclassified"],
    ["reader LC_ALL=", REVIEWER, "Bash", bash("LC_ALL=C ls"), "allow"],
    ["reader XLC_ALL=", REVIEWER, "Bash", bash("XLC_ALL=C ls"), "guard.shell-unclassified"],
    ["reader LC_ALLx=", REVIEWER, "Bash", bash("LC_ALLx=C ls"), "guard.shell-unclassified"],
    ["reader LC_=", REVIEWER, "Bash", bash("LC_=C ls"), "guard.shell-unclassified"],
    ["reader PAGER=cat", REVIEWER, "Bash", bash("PAGER=cat git log"), "allow"],
    ["reader GIT_PAGER=cat", REVIEWER, "Bash", bash("GIT_PAGER=cat git log"), "allow"],
    ["reader PAGER=less", REVIEWER, "Bash", bash("PAGER=less git log"), "guard.shell-unclassified"],
    ["reader GIT_PAGER=less", REVIEWER, "Bash", bash("GIT_PAGER=less git log"), "guard.shell-unclassified"],
    ["reader CI=", REVIEWER, "Bash", bash("CI=true NO_COLOR=1 TZ=UTC ls"), "allow"],
    ["reader zsh path=", REVIEWER, "Bash", bash("path=/tmp ls"), "guard.shell-unclassified"],
    ["wright zsh path=", WRIGHT, "Bash", bash("path=/tmp make"), "guard.shell-unclassified"],
    ["wright GIT_DIR=", WRIGHT, "Bash", bash("GIT_DIR=x git status"), "guard.shell-unclassified"],
    [
      "wright DYLD_INSERT_LIBRARIES=",
      WRIGHT,
      "Bash",
      bash("DYLD_INSERT_LIBRARIES=x make"),
      "guard.shell-unclassified",
    ],
    ["wright GIT_PAGER=cat", WRIGHT, "Bash", bash("GIT_PAGER=cat git log"), "allow"],
    ["wright PAGER=cat", WRIGHT, "Bash", bash("PAGER=cat git log"), "allow"],
    ["wright GIT_PAGER=less", WRIGHT, "Bash", bash("GIT_PAGER=less git log"), "guard.shell-unclassified"],
    ["wright MYGIT_X=", WRIGHT, "Bash", bash("MYGIT_X=1 make"), "allow"],
    ["wright XLD_PRELOAD=", WRIGHT, "Bash", bash("XLD_PRELOAD=1 make"), "allow"],
    ["wright FOO=", WRIGHT, "Bash", bash("FOO=1 make"), "allow"],
    ["wright export PATH", WRIGHT, "Bash", bash("export PATH=/tmp"), "guard.shell-unclassified"],
    ["wright read -a PATH", WRIGHT, "Bash", bash("read -a PATH <<< x"), "guard.shell-unclassified"],
    [
      "wright mkdir then write the directory",
      WRIGHT,
      "Bash",
      bash("mkdir -p src/new && echo x > src/new"),
      "guard.outside-allowlist",
    ],
    [
      "wright same target twice",
      WRIGHT,
      "Bash",
      bash("echo a > src/a.ts; echo b >> src/a.ts; rm src/a.ts src/a.ts"),
      "allow",
    ],
    [
      "reader unknown cd then .devrites",
      REVIEWER,
      "Bash",
      bash('cd "$d"; echo x > .devrites/x'),
      "guard.readonly-write",
    ],
    [
      "wright cp to a directory named by a variable",
      WRIGHT,
      "Bash",
      bash('cp src/a.ts "$d"/'),
      "guard.write-target-unknown",
    ],
    ["wright cp . into a directory", WRIGHT, "Bash", bash("cp -T . src/"), "guard.outside-allowlist"],
  ]);

  it("refuses an allowlist entry that escapes through a symlink (defence in depth)", () => {
    const bad = PACKETS.map((p) =>
      p.role === WRIGHT ? { ...p, allowed_repo_writes: ["out/passwd", "src/evil.ts"] } : p,
    );
    for (const target of ["out/passwd", "src/evil.ts"]) {
      const d = decide(hookInput("claude", WRIGHT, "Write", write(target)), ctx(bad));
      expect(d, target).toMatchObject({ decision: "deny", rule: "guard.outside-allowlist" });
      expect(d.decision === "deny" && d.reason, target).toContain("scope.symlink-escape");
    }
  });

  it("says so when the wright's allowlist is empty", () => {
    const none = PACKETS.map((p) => (p.role === WRIGHT ? { ...p, allowed_repo_writes: [] } : p));
    const d = decide(hookInput("codex", WRIGHT, "Bash", bash("touch src/a.ts")), ctx(none));
    expect(d.decision === "deny" && d.reason).toContain("allowlist is: (empty)");
  });

  it("refuses a non-string allowlist entry as a directory parent", () => {
    const odd = PACKETS.map((p) =>
      p.role === WRIGHT ? { ...p, allowed_repo_writes: [7 as unknown as string, "src/new/c.ts"] } : p,
    );
    expect(decide(hookInput("claude", WRIGHT, "Bash", bash("mkdir -p src/new")), ctx(odd))).toMatchObject({
      decision: "allow",
    });
    expect(decide(hookInput("claude", WRIGHT, "Bash", bash("mkdir -p lib")), ctx(odd))).toMatchObject({
      decision: "deny",
    });
  });
});

describe("guard.unknown-tool", () => {
  runCases([
    ["an MCP tool", REVIEWER, "mcp__fs__write_file", { path: "x" }, "guard.unknown-tool"],
    ["an MCP tool for the wright", WRIGHT, "mcp__github__create_pr", {}, "guard.unknown-tool"],
    ["a made-up tool", REVIEWER, "Frobnicate", {}, "guard.unknown-tool"],
    ["Workflow", WRIGHT, "Workflow", {}, "guard.unknown-tool"],
    ...[
      "Read",
      "Grep",
      "Glob",
      "WebFetch",
      "WebSearch",
      "TodoWrite",
      "Skill",
      "view_image",
      "update_plan",
      "web_search",
    ].map((t): Case => [`${t} (near miss)`, REVIEWER, t, {}, "allow"]),
  ]);
});

describe("guard.internal-error", () => {
  it("denies a leaf when the context throws", () => {
    const c = ctx();
    const throwing: GuardContext = {
      ...c,
      resolve: () => {
        throw new Error("disk on fire");
      },
    };
    const d = decide(hookInput("claude", WRIGHT, "Write", write("src/a.ts")), throwing);
    expect(d).toMatchObject({ decision: "deny", rule: "guard.internal-error" });
    expect(d.decision === "deny" && d.reason).toContain("disk on fire");
  });
  it("denies a leaf when the packets cannot be read", () => {
    const bad = { ...ctx(), activePackets: null } as unknown as GuardContext;
    expect(decide(hookInput("codex", REVIEWER, "Read", {}), bad)).toMatchObject({
      rule: "guard.internal-error",
    });
  });
  it("survives an error that cannot be printed", () => {
    const evil = {
      ...ctx(),
      resolve: () => {
        throw {
          toString() {
            throw new Error("no");
          },
        };
      },
    } as GuardContext;
    expect(decide(hookInput("claude", WRIGHT, "Write", write("src/a.ts")), evil)).toMatchObject({
      rule: "guard.internal-error",
    });
  });
});

describe("decisions", () => {
  it("carry the role and the offending input", () => {
    const d = decide(
      hookInput("claude", `devrites:${REVIEWER}`, "Bash", bash("sed -i s/a/b/ src/a.ts")),
      ctx(),
    );
    expect(d).toMatchObject({
      decision: "deny",
      rule: "guard.readonly-write",
      role: REVIEWER,
      input: "src/a.ts",
    });
  });
  it("use only catalogued rule codes", () => {
    expect(new Set(GUARD_RULES).size).toBe(GUARD_RULES.length);
  });
  it("allow with the caller and role", () => {
    expect(decide(hookInput("codex", WRIGHT, "Bash", bash("echo x > src/a.ts")), ctx())).toEqual({
      decision: "allow",
      caller: "leaf",
      role: WRIGHT,
    });
  });
});
