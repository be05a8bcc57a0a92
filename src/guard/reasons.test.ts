/**
 * The exact reason a leaf reads for one case of every rule: which rule, which input, what to do instead.
 * The temporary repository path is shown as <root>.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { resolveRepoPath } from "../scope/index.js";
import { decide, MAX_COMMAND_CHARS, MAX_PATCH_CHARS } from "./decide.js";
import type { ActivePacket, GuardContext } from "./types.js";

let root = "";
let cleanup = () => {};
beforeAll(() => {
  const t = makeTree({ "src/a.ts": "a", out: { link: "/etc" } });
  root = t.base;
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

const PACKETS: ActivePacket[] = [
  {
    run_id: "run-20260101T000000Z-00000001",
    role: "devrites-slice-wright",
    allowed_repo_writes: ["src/a.ts", "src/n/b.ts"],
  },
  { run_id: "run-20260101T000000Z-00000002", role: "devrites-code-reviewer", allowed_repo_writes: [] },
  { run_id: "run-20260101T000000Z-00000003", role: "devrites-proof-runner", allowed_repo_writes: [] },
];

function ctx(packets = PACKETS): GuardContext {
  return {
    root,
    activePackets: packets,
    resolve: (p) => resolveRepoPath(root, p),
    hasLocalBin: (n) => n === "vitest",
    isInstalledRole: () => true,
  };
}

function reason(input: unknown, c = ctx()): string {
  const d = decide(input, c);
  if (d.decision !== "deny") throw new Error(`expected a deny, got ${JSON.stringify(d)}`);
  return `${d.rule} | ${d.role ?? "-"} | ${d.input ?? "-"} | ${d.reason}`.replaceAll(root, "<root>");
}

const leaf = (role: string, tool: string, input: unknown) => ({
  agent_id: "a",
  agent_type: role,
  tool_name: tool,
  tool_input: input,
  cwd: root,
  hook_event_name: "PreToolUse",
});
const R = "devrites-code-reviewer";
const W = "devrites-slice-wright";
const sh = (role: string, command: string) => leaf(role, "Bash", { command });

describe("deny reasons", () => {
  it.each<[string, () => unknown, (() => GuardContext) | undefined, string]>([
    [
      "malformed: not an object",
      () => "x",
      undefined,
      "guard.malformed-input | - | - | devrites guard denied this call [guard.malformed-input] the hook input is not a JSON object, so the caller cannot be told apart. This is a host or hook wiring problem; the call is blocked because the guard fails closed.",
    ],
    [
      "malformed: tool_input",
      () => ({ ...leaf(R, "Bash", {}), tool_input: "ls" }),
      undefined,
      "guard.malformed-input | devrites-code-reviewer | - | devrites guard denied this call [guard.malformed-input] devrites-code-reviewer: tool_input is missing or not an object. This is a host or hook wiring problem; the call is blocked because the guard fails closed.",
    ],
    [
      "too large",
      () => sh(R, "x".repeat(MAX_COMMAND_CHARS + 1)),
      undefined,
      `guard.input-too-large | devrites-code-reviewer | ${"x".repeat(80)}… | devrites guard denied this call [guard.input-too-large] devrites-code-reviewer: the command is ${MAX_COMMAND_CHARS + 1} characters (limit ${MAX_COMMAND_CHARS}); the guard does not parse it. Split it into smaller commands or put it in a script file.`,
    ],
    [
      "foreign write during a run",
      () => leaf("Explore", "Write", { file_path: `${root}/src/a.ts`, content: "x" }),
      () => ctx(PACKETS.slice(1, 2)),
      "guard.foreign-write-during-run | Explore | <root>/src/a.ts | devrites guard denied this call [guard.foreign-write-during-run] Explore: `Write` writes `<root>/src/a.ts`; `Explore` is not a devrites role, and devrites run run-20260101T000000Z-00000002 is active: until it finishes, such an agent may only read and run read-only commands, because a change to the tree would make that run's result stale. Read and search instead, or wait until the root session has finished it (`devrites result check .devrites/runs/run-20260101T000000Z-00000002/result.json`; an accepted run stops being active, `devrites run abandon <run-id>` gives one up, and `devrites status` lists the active runs) and retry.",
    ],
    [
      "foreign shell write during runs",
      () => sh("explorer", "echo x > notes.md"),
      undefined,
      "guard.foreign-write-during-run | explorer | notes.md | devrites guard denied this call [guard.foreign-write-during-run] explorer: `echo x > notes.md` writes `notes.md`; `explorer` is not a devrites role, and devrites runs run-20260101T000000Z-00000001, run-20260101T000000Z-00000002, run-20260101T000000Z-00000003 are active: until they finish, such an agent may only read and run read-only commands, because a change to the tree would make those runs' results stale. Read and search instead, or wait until the root session has finished them (`devrites result check .devrites/runs/run-20260101T000000Z-00000001/result.json`, `devrites result check .devrites/runs/run-20260101T000000Z-00000002/result.json`, `devrites result check .devrites/runs/run-20260101T000000Z-00000003/result.json`; an accepted run stops being active, `devrites run abandon <run-id>` gives one up, and `devrites status` lists the active runs) and retry.",
    ],
    [
      "foreign git mutation during a run keeps its rule",
      () => sh("explorer", "git push"),
      () => ctx(PACKETS.slice(1, 2)),
      "guard.git-mutation | explorer | git push | devrites guard denied this call [guard.git-mutation] explorer: `git push` changes the repository (refs, index, objects, configuration or a remote); `explorer` is not a devrites role, and devrites run run-20260101T000000Z-00000002 is active: until it finishes, such an agent may only read and run read-only commands, because a change to the tree would make that run's result stale. Read and search instead, or wait until the root session has finished it (`devrites result check .devrites/runs/run-20260101T000000Z-00000002/result.json`; an accepted run stops being active, `devrites run abandon <run-id>` gives one up, and `devrites status` lists the active runs) and retry.",
    ],
    [
      "too complex",
      () => sh(W, "true; ".repeat(1001)),
      undefined,
      "guard.input-too-complex | devrites-slice-wright | true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; true; tr… | devrites guard denied this call [guard.input-too-complex] devrites-slice-wright: more than 1000 simple commands in one call. Split it into several shell calls, or put it in a script file and run that.",
    ],
    [
      "no packet (reader)",
      () => leaf("devrites-evidence-scout", "Read", {}),
      undefined,
      'guard.no-active-packet | devrites-evidence-scout | Read | devrites guard denied this call [guard.no-active-packet] devrites-evidence-scout: there is no active packet for devrites-evidence-scout, so the guard does not know this leaf\'s scope. Stop and report it; the root must create one first: devrites packet new --role devrites-evidence-scout --rite <rite> --objective "…".',
    ],
    [
      "no packet (wright)",
      () => leaf(W, "Read", {}),
      () => ctx(PACKETS.slice(1)),
      'guard.no-active-packet | devrites-slice-wright | Read | devrites guard denied this call [guard.no-active-packet] devrites-slice-wright: there is no active packet for devrites-slice-wright, so the guard does not know this leaf\'s scope. Stop and report it; the root must create one first: devrites packet new --role devrites-slice-wright --rite rite-build --objective "…" --allow <path>… (one --allow per file it may write).',
    ],
    [
      "ambiguous",
      () => leaf(W, "Read", {}),
      () => ctx([...PACKETS, { ...(PACKETS[0] as ActivePacket), run_id: "run-20260101T000000Z-00000009" }]),
      "guard.ambiguous-packet | devrites-slice-wright | run-20260101T000000Z-00000001, run-20260101T000000Z-00000009 | devrites guard denied this call [guard.ambiguous-packet] devrites-slice-wright: 2 runs of devrites-slice-wright are active (run-20260101T000000Z-00000001, run-20260101T000000Z-00000009), so the guard cannot tell which allowlist applies. Stop and report it; the root must finish or abandon all but one wright run.",
    ],
    [
      "unknown tool",
      () => leaf(R, "mcp__x__y", {}),
      undefined,
      "guard.unknown-tool | devrites-code-reviewer | mcp__x__y | devrites guard denied this call [guard.unknown-tool] devrites-code-reviewer: the tool `mcp__x__y` is not one the guard knows (MCP and new host tools may write where it cannot see). Use Read, Grep, Glob, Bash, Edit or Write.",
    ],
    [
      "spawn tool",
      () => leaf(R, "Agent", {}),
      undefined,
      "guard.spawn | devrites-code-reviewer | Agent | devrites guard denied this call [guard.spawn] devrites-code-reviewer: leaves may not start other agents (`Agent`). Do the work yourself, or report in your result that another step is needed.",
    ],
    [
      "spawn via shell",
      () => sh(W, "claude -p x"),
      undefined,
      "guard.spawn | devrites-slice-wright | claude -p x | devrites guard denied this call [guard.spawn] devrites-slice-wright: `claude` starts another coding agent, which the guard would see as a root session. Leaves never delegate; do the work yourself or report that it needs another step.",
    ],
    [
      "devrites write (reader)",
      () => sh(R, "echo x > .devrites/s.json"),
      undefined,
      "guard.devrites-write | devrites-code-reviewer | .devrites/s.json | devrites guard denied this call [guard.devrites-write] devrites-code-reviewer: `echo x > .devrites/s.json` writes `.devrites/s.json` inside the devrites workspace. Only the devrites CLI writes .devrites/; return your result as your final message.",
    ],
    [
      "devrites write (wright tool)",
      () => leaf(W, "Write", { file_path: `${root}/.devrites/s.json` }),
      undefined,
      "guard.devrites-write | devrites-slice-wright | <root>/.devrites/s.json | devrites guard denied this call [guard.devrites-write] devrites-slice-wright: `Write`: `<root>/.devrites/s.json` is inside the devrites workspace. Only the devrites CLI writes .devrites/; return your result as your final message.",
    ],
    [
      "devrites CLI",
      () => sh(W, "devrites result record"),
      undefined,
      "guard.devrites-write | devrites-slice-wright | devrites result record | devrites guard denied this call [guard.devrites-write] devrites-slice-wright: the devrites CLI writes the workspace; only the root runs it. Return your agent-result/v1 as your final message; the root records and checks it.",
    ],
    [
      "git mutation",
      () => sh(W, "git commit -m x"),
      undefined,
      "guard.git-mutation | devrites-slice-wright | git commit -m x | devrites guard denied this call [guard.git-mutation] devrites-slice-wright: `git commit` changes the repository (refs, index, objects, configuration or a remote). Leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it.",
    ],
    [
      "install",
      () => sh(W, "npm i zod"),
      undefined,
      "guard.install | devrites-slice-wright | npm i zod | devrites guard denied this call [guard.install] devrites-slice-wright: `npm i` installs or downloads dependencies. Leaves never change dependencies; report the missing package and let the root decide.",
    ],
    [
      "npx download",
      () => sh(W, "npx cowsay"),
      undefined,
      "guard.install | devrites-slice-wright | npx cowsay | devrites guard denied this call [guard.install] devrites-slice-wright: `npx cowsay` (not an installed local binary) installs or downloads dependencies. Leaves never change dependencies; report the missing package and let the root decide.",
    ],
    [
      "publish",
      () => sh(W, "npm publish"),
      undefined,
      "guard.publish | devrites-slice-wright | npm publish | devrites guard denied this call [guard.publish] devrites-slice-wright: `npm publish` publishes or releases. Leaves never publish; report it to the root.",
    ],
    [
      "read-only Write",
      () => leaf(R, "Write", { file_path: "src/a.ts" }),
      undefined,
      "guard.readonly-write | devrites-code-reviewer | src/a.ts | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: devrites-code-reviewer is a read-only role and `Write` writes `src/a.ts`. Read-only roles never change files; describe the change in your result instead.",
    ],
    [
      "read-only sed -i",
      () => sh(R, "sed -i s/a/b/ src/a.ts"),
      undefined,
      "guard.readonly-write | devrites-code-reviewer | src/a.ts | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: `sed -i s/a/b/ src/a.ts` writes `src/a.ts`. Read-only roles never change files; describe the change in your result instead.",
    ],
    [
      "read-only unknown write",
      () => sh(R, "tar -xf a.tar"),
      undefined,
      "guard.readonly-write | devrites-code-reviewer | tar -xf a.tar | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: extracting an archive writes files the guard cannot list. Read-only roles never change files; describe the change in your result instead.",
    ],
    [
      "read-only variable target",
      () => sh(R, 'echo x > "$f"'),
      undefined,
      "guard.readonly-write | devrites-code-reviewer | echo x > $f | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: `echo x > $f` writes a file. Read-only roles never change files; describe the change in your result instead.",
    ],
    [
      "not on the allowlist for reading roles",
      () => sh(R, "make"),
      undefined,
      "guard.shell-unclassified | devrites-code-reviewer | make | devrites guard denied this call [guard.shell-unclassified] devrites-code-reviewer: `make` builds or runs code; devrites-code-reviewer is read-only and may only run the read-only allowlist. Use cat, ls, grep, rg, find, head, tail, wc, git status/diff/log/show, or the Read/Grep tools.",
    ],
    [
      "tests are the proof runner's",
      () => sh(R, "npm test"),
      undefined,
      "guard.shell-unclassified | devrites-code-reviewer | npm test | devrites guard denied this call [guard.shell-unclassified] devrites-code-reviewer: running tests, linters or type checks is the proof runner's job, not devrites-code-reviewer's. Read the code and tests instead, or report that a proof run is needed.",
    ],
    [
      "proof runner: build script",
      () => sh("devrites-proof-runner", "npm run build"),
      undefined,
      "guard.shell-unclassified | devrites-proof-runner | npm run build | devrites guard denied this call [guard.shell-unclassified] devrites-proof-runner: the script `build` is not a proof script (test, check, lint, typecheck, verify …); devrites-proof-runner is read-only and may only run the read-only allowlist and proof commands. Use cat, ls, grep, rg, find, head, tail, wc, git status/diff/log/show, or the Read/Grep tools.",
    ],
    [
      "env name for a reader",
      () => sh(R, "PATH=/x ls"),
      undefined,
      "guard.shell-unclassified | devrites-code-reviewer | PATH=/x ls | devrites guard denied this call [guard.shell-unclassified] devrites-code-reviewer: a read-only role may not set `PATH` (it can change which program runs). Use a lower-case shell variable, or one of CI, NODE_ENV, FORCE_COLOR, NO_COLOR, TERM, COLUMNS, LINES, LANG, LANGUAGE, TZ, DEBUG, PYTHONDONTWRITEBYTECODE, PYTHONUNBUFFERED, PYTHONHASHSEED, RUST_BACKTRACE, RUST_LOG, GIT_PAGER, PAGER, LC_*.",
    ],
    [
      "env name for the wright",
      () => sh(W, "LD_PRELOAD=x.so npm test"),
      undefined,
      "guard.shell-unclassified | devrites-slice-wright | LD_PRELOAD=x.so npm test | devrites guard denied this call [guard.shell-unclassified] devrites-slice-wright: setting `LD_PRELOAD` changes which program runs or what code it loads. Drop the assignment.",
    ],
    [
      "parse refusal",
      () => sh(R, "echo $(ls)"),
      undefined,
      "guard.shell-unclassified | devrites-code-reviewer | echo $(ls) | devrites guard denied this call [guard.shell-unclassified] devrites-code-reviewer: command substitution `$(…)` (or arithmetic `$((…))`) runs a command the guard cannot see. Run the inner command on its own and pass its output literally.",
    ],
    [
      "inline code",
      () => sh(W, "python -c 1"),
      undefined,
      "guard.shell-unclassified | devrites-slice-wright | python -c 1 | devrites guard denied this call [guard.shell-unclassified] devrites-slice-wright: `python -c` runs inline code the guard cannot read. Use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles).",
    ],
    [
      "wright: variable target",
      () => sh(W, 'echo x > "$f"'),
      undefined,
      "guard.write-target-unknown | devrites-slice-wright | echo x > $f | devrites guard denied this call [guard.write-target-unknown] devrites-slice-wright: the write target `$f` contains a variable or glob. Write the file name literally.",
    ],
    [
      "wright: unknown write",
      () => sh(W, "tar -xf a.tar"),
      undefined,
      "guard.write-target-unknown | devrites-slice-wright | tar -xf a.tar | devrites guard denied this call [guard.write-target-unknown] devrites-slice-wright: extracting an archive writes files the guard cannot list, so the guard cannot check it against your allowlist. Write each allowlisted file with the Edit/Write tools or a plain redirect to its literal path.",
    ],
    [
      "wright: after an unknown cd",
      () => sh(W, 'cd "$d" && touch a'),
      undefined,
      "guard.write-target-unknown | devrites-slice-wright | a | devrites guard denied this call [guard.write-target-unknown] devrites-slice-wright: `touch a`: the relative path `a` follows a `cd` the guard cannot follow. After `cd` the shell may be in either directory, so a relative path must be allowed from each; use paths relative to the project root, without cd.",
    ],
    [
      "wright: not on the allowlist",
      () => leaf(W, "Write", { file_path: `${root}/src/c.ts` }),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | <root>/src/c.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `Write`: `src/c.ts` is not on your packet's allowlist (exact match, case-sensitive). Your allowlist is: src/a.ts, src/n/b.ts; ask the root for a new packet if you need another file.",
    ],
    [
      "wright: ..",
      () => leaf(W, "Write", { file_path: `${root}/src/../src/a.ts` }),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | <root>/src/../src/a.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `Write`: `<root>/src/../src/a.ts` contains a `..` segment (after a symlinked directory it lands elsewhere than it reads). Write the canonical path; your allowlist is: src/a.ts, src/n/b.ts.",
    ],
    [
      "wright: symlink out",
      () => sh(W, "echo x > out/passwd"),
      undefined,
      'guard.outside-allowlist | devrites-slice-wright | out/passwd | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `echo x > out/passwd`: "out/passwd" resolves to "/etc/passwd", outside "<root>" (scope.symlink-escape). Your allowlist is: src/a.ts, src/n/b.ts.',
    ],
    [
      "wright: outside the repository",
      () => sh(W, "echo x > /tmp/x"),
      undefined,
      'guard.outside-allowlist | devrites-slice-wright | /tmp/x | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `echo x > /tmp/x`: the path "/tmp/x" resolves to "/tmp/x", outside "<root>" (scope.outside-root). Your allowlist is: src/a.ts, src/n/b.ts.',
    ],
    [
      "wright: mkdir elsewhere",
      () => sh(W, "mkdir lib"),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | lib | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `mkdir lib`: the directory `lib` is not a parent of an allowlisted file. Your allowlist is: src/a.ts, src/n/b.ts.",
    ],
    [
      "wright: relative write after cd",
      () => sh(W, "cd src && touch c.ts"),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | c.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `touch c.ts`: `c.ts` is not on your packet's allowlist (exact match, case-sensitive). After `cd` the shell may be in either directory, so a relative path must be allowed from each; your allowlist is: src/a.ts, src/n/b.ts; ask the root for a new packet if you need another file.",
    ],
    [
      "stdin",
      () => leaf(W, "write_stdin", {}),
      undefined,
      "guard.shell-unclassified | devrites-slice-wright | write_stdin | devrites guard denied this call [guard.shell-unclassified] devrites-slice-wright: typing into a running process cannot be classified. Run each command as its own shell call.",
    ],
  ])("%s", (_label, input, context, expected) => {
    expect(reason(input(), context ? context() : ctx())).toBe(expected);
  });

  it("internal error", () => {
    const c = {
      ...ctx(),
      resolve: () => {
        throw new Error("boom");
      },
    };
    const d = decide(leaf(W, "Write", { file_path: `${root}/src/a.ts` }), c);
    expect(d).toEqual({
      decision: "deny",
      rule: "guard.internal-error",
      role: W,
      reason:
        "devrites guard denied this call [guard.internal-error]: the guard failed while deciding (boom), and it fails closed for subagents. Retry once; if it persists, stop and report it.",
    });
  });
});

describe("deny reasons for malformed tool inputs and limits", () => {
  const P = (...lines: string[]) => `*** Begin Patch\n${lines.join("\n")}\n*** End Patch\n`;
  const bad = (thrown: unknown) => () => ({
    ...ctx(),
    resolve: () => {
      throw thrown;
    },
  });
  it.each<[string, () => unknown, (() => GuardContext) | undefined, string]>([
    [
      "Write without a path",
      () => leaf(W, "Write", { content: "x" }),
      undefined,
      "guard.malformed-input | devrites-slice-wright | Write | devrites guard denied this call [guard.malformed-input] devrites-slice-wright: `Write` without a string file_path. Give the file path.",
    ],
    [
      "Edit with a path and an unreadable patch",
      () => leaf(W, "Edit", { file_path: `${root}/src/a.ts`, command: "*** Begin Patch\n*** Frob\n" }),
      undefined,
      "guard.malformed-input | devrites-slice-wright | Edit | devrites guard denied this call [guard.malformed-input] devrites-slice-wright: the patch cannot be read (an unknown patch marker `*** Frob`). Send one well-formed edit.",
    ],
    [
      "Edit with a path and a patch: the patch's paths are checked too",
      () => leaf(W, "Edit", { file_path: `${root}/src/a.ts`, command: P("*** Add File: src/c.ts", "+x") }),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | src/c.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `Edit`: `src/c.ts` is not on your packet's allowlist (exact match, case-sensitive). Your allowlist is: src/a.ts, src/n/b.ts; ask the root for a new packet if you need another file.",
    ],
    [
      "apply_patch without a body",
      () => leaf(W, "apply_patch", { other: 1 }),
      undefined,
      "guard.malformed-input | devrites-slice-wright | apply_patch | devrites guard denied this call [guard.malformed-input] devrites-slice-wright: apply_patch without a patch body. Send the patch text.",
    ],
    [
      "apply_patch above the cap",
      () => leaf(W, "apply_patch", { command: "x".repeat(MAX_PATCH_CHARS + 1) }),
      undefined,
      `guard.input-too-large | devrites-slice-wright | apply_patch | devrites guard denied this call [guard.input-too-large] devrites-slice-wright: the patch is ${MAX_PATCH_CHARS + 1} characters (limit ${MAX_PATCH_CHARS}). Split it into smaller patches.`,
    ],
    [
      "unreadable apply_patch (wright)",
      () => leaf(W, "apply_patch", { command: "just text" }),
      undefined,
      "guard.write-target-unknown | devrites-slice-wright | apply_patch | devrites guard denied this call [guard.write-target-unknown] devrites-slice-wright: the patch cannot be read (no `*** Begin Patch` line). Send a well-formed *** Begin Patch … *** End Patch body.",
    ],
    [
      "unreadable apply_patch (reader)",
      () => leaf(R, "apply_patch", { command: "just text" }),
      undefined,
      "guard.readonly-write | devrites-code-reviewer | apply_patch | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: the patch cannot be read (no `*** Begin Patch` line). Read-only roles never change files.",
    ],
    [
      "apply_patch (reader)",
      () => leaf(R, "apply_patch", { command: P("*** Add File: src/c.ts", "+x") }),
      undefined,
      "guard.readonly-write | devrites-code-reviewer | src/c.ts | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: devrites-code-reviewer is a read-only role and `apply_patch` writes `src/c.ts`. Read-only roles never change files; describe the change in your result instead.",
    ],
    [
      "shell workdir with ..",
      () => leaf(W, "Bash", { command: "ls", workdir: "src/.." }),
      undefined,
      "guard.malformed-input | devrites-slice-wright | Bash | devrites guard denied this call [guard.malformed-input] devrites-slice-wright: workdir is not a plain path (no `..` segments). Give the directory's canonical path.",
    ],
    [
      "shell workdir not a string",
      () => leaf(W, "Bash", { command: "ls", workdir: 3 }),
      undefined,
      "guard.malformed-input | devrites-slice-wright | Bash | devrites guard denied this call [guard.malformed-input] devrites-slice-wright: workdir is not a plain path (no `..` segments). Give the directory's canonical path.",
    ],
    [
      "shell without a command",
      () => leaf(W, "Bash", { cmd: 3 }),
      undefined,
      "guard.malformed-input | devrites-slice-wright | Bash | devrites guard denied this call [guard.malformed-input] devrites-slice-wright: the shell call has no string (or string array) command. Send the command as a string.",
    ],
    [
      "argv with a NUL",
      () => leaf(R, "shell", { command: ["echo", "a\u0000"] }),
      undefined,
      "guard.malformed-input | devrites-code-reviewer | shell | devrites guard denied this call [guard.malformed-input] devrites-code-reviewer: the shell call has no string (or string array) command. Send the command as a string.",
    ],
    [
      "exec_command's cmd field is read",
      () => leaf(W, "exec_command", { cmd: "touch src/b.ts" }),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | src/b.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `touch src/b.ts`: `src/b.ts` is not on your packet's allowlist (exact match, case-sensitive). Your allowlist is: src/a.ts, src/n/b.ts; ask the root for a new packet if you need another file.",
    ],
    [
      "argv above the cap",
      () => leaf(R, "shell", { command: ["echo", "a".repeat(MAX_COMMAND_CHARS)] }),
      undefined,
      `guard.input-too-large | devrites-code-reviewer | echo | devrites guard denied this call [guard.input-too-large] devrites-code-reviewer: the command is ${MAX_COMMAND_CHARS + 4} characters (limit ${MAX_COMMAND_CHARS}). Split it into smaller commands.`,
    ],
    [
      "a long input is clipped to 300 characters",
      () => leaf(R, "Write", { file_path: `/${"d".repeat(400)}` }),
      undefined,
      `guard.readonly-write | devrites-code-reviewer | /${"d".repeat(299)}… | devrites guard denied this call [guard.readonly-write] devrites-code-reviewer: devrites-code-reviewer is a read-only role and \`Write\` writes \`/${"d".repeat(400)}\`. Read-only roles never change files; describe the change in your result instead.`,
    ],
    [
      "relative workdir: paths resolve from it",
      () => leaf(W, "Bash", { command: "touch b.ts", workdir: "src" }),
      undefined,
      "guard.outside-allowlist | devrites-slice-wright | b.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `touch b.ts`: `src/b.ts` is not on your packet's allowlist (exact match, case-sensitive). Your allowlist is: src/a.ts, src/n/b.ts; ask the root for a new packet if you need another file.",
    ],
    [
      "no local-binary lookup: npx downloads",
      () => sh(W, "npx vitest"),
      () => ({ ...ctx(), hasLocalBin: undefined }),
      "guard.install | devrites-slice-wright | npx vitest | devrites guard denied this call [guard.install] devrites-slice-wright: `npx vitest` (not an installed local binary) installs or downloads dependencies. Leaves never change dependencies; report the missing package and let the root decide.",
    ],
    [
      "a lookup answering a truthy non-boolean is not an installed binary",
      () => sh(W, "npx vitest"),
      () => ({ ...ctx(), hasLocalBin: (() => 1) as unknown as (n: string) => boolean }),
      "guard.install | devrites-slice-wright | npx vitest | devrites guard denied this call [guard.install] devrites-slice-wright: `npx vitest` (not an installed local binary) installs or downloads dependencies. Leaves never change dependencies; report the missing package and let the root decide.",
    ],
    [
      "internal error: the message is clipped to 200 characters",
      () => leaf(W, "Write", { file_path: `${root}/src/a.ts` }),
      bad(new Error("e".repeat(300))),
      `guard.internal-error | devrites-slice-wright | - | devrites guard denied this call [guard.internal-error]: the guard failed while deciding (${"e".repeat(200)}), and it fails closed for subagents. Retry once; if it persists, stop and report it.`,
    ],
    [
      "internal error: a thrown string",
      () => leaf(W, "Write", { file_path: `${root}/src/a.ts` }),
      bad("plain"),
      "guard.internal-error | devrites-slice-wright | - | devrites guard denied this call [guard.internal-error]: the guard failed while deciding (plain), and it fails closed for subagents. Retry once; if it persists, stop and report it.",
    ],
    [
      "internal error: an unreadable error",
      () => leaf(W, "Write", { file_path: `${root}/src/a.ts` }),
      bad({
        toString() {
          throw new Error("x");
        },
      }),
      "guard.internal-error | devrites-slice-wright | - | devrites guard denied this call [guard.internal-error]: the guard failed while deciding (unknown error), and it fails closed for subagents. Retry once; if it persists, stop and report it.",
    ],
  ])("%s", (_label, input, context, expected) => {
    expect(reason(input(), context ? context() : ctx())).toBe(expected);
  });

  it.each<[string, () => unknown, () => GuardContext]>([
    ["relative workdir (near miss)", () => leaf(W, "Bash", { command: "touch a.ts", workdir: "src" }), ctx],
    ["absolute workdir", () => leaf(W, "Bash", { command: "touch a.ts", workdir: `${root}/src` }), ctx],
    ["a local binary", () => sh(W, "npx vitest"), ctx],
    [
      "a packet list with a null entry",
      () => leaf(R, "Read", {}),
      () => ({ ...ctx(), activePackets: [null as unknown as ActivePacket, ...PACKETS] }),
    ],
  ])("allows %s", (_label, input, context) => {
    expect(decide(input(), context())).toMatchObject({ decision: "allow" });
  });
});

describe("deny reasons at the edges of the context", () => {
  it("denies, without a role, a hook input whose fields cannot be read", () => {
    const input = {
      get agent_type(): string {
        throw new Error("unreadable");
      },
    };
    expect(decide(input, ctx())).toEqual({
      decision: "deny",
      rule: "guard.internal-error",
      reason:
        "devrites guard denied this call [guard.internal-error]: the guard failed while deciding (unreadable), and it fails closed for subagents. Retry once; if it persists, stop and report it.",
    });
  });

  it("treats a wright packet without allowed_repo_writes as an empty allowlist", () => {
    const packets = [{ run_id: "run-20260101T000000Z-00000001", role: W } as unknown as ActivePacket];
    expect(reason(leaf(W, "Write", { file_path: `${root}/src/a.ts` }), ctx(packets))).toBe(
      "guard.outside-allowlist | devrites-slice-wright | <root>/src/a.ts | devrites guard denied this call [guard.outside-allowlist] devrites-slice-wright: `Write`: `src/a.ts` is not on your packet's allowlist (exact match, case-sensitive). Your allowlist is: (empty); ask the root for a new packet if you need another file.",
    );
  });

  it("answers for the unknown directory first, wherever the unknown cd sits", () => {
    expect(reason(sh(W, 'cd src; cd "$d"; touch a.ts'))).toBe(
      "guard.write-target-unknown | devrites-slice-wright | a.ts | devrites guard denied this call [guard.write-target-unknown] devrites-slice-wright: `touch a.ts`: the relative path `a.ts` follows a `cd` the guard cannot follow. After `cd` the shell may be in either directory, so a relative path must be allowed from each; use paths relative to the project root, without cd.",
    );
  });

  it("checks an absolute target after an unknown cd like any other", () => {
    expect(reason(sh(R, `cd "$d"; echo x > ${root}/.devrites/x`))).toBe(
      `guard.devrites-write | devrites-code-reviewer | <root>/.devrites/x | devrites guard denied this call [guard.devrites-write] devrites-code-reviewer: \`echo x > <root>/.devrites/x\` writes \`<root>/.devrites/x\` inside the devrites workspace. Only the devrites CLI writes .devrites/; return your result as your final message.`,
    );
    expect(decide(sh(W, `cd "$d"; echo x > ${root}/src/a.ts`), ctx())).toMatchObject({ decision: "allow" });
  });
});
