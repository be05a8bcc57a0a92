/**
 * The real PreToolUse bundle, spawned as the hosts spawn it (also through the generated launcher, which loads it
 * in process), with hook inputs of both host shapes.
 */

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  claudeInput,
  codexInput,
  makeInstalledRepo,
  runId,
  type TestRepo,
} from "../../src/hooks/fixtures.js";
import { COMPILE_CACHE_TAG } from "../../src/hosts/compile-cache/bootstrap.js";
import { readJsonLines, workspacePaths } from "../../src/run/workspace.js";
import type { RunEvent } from "../../src/run/workspace-types.js";
import { type HookRun, runBundle } from "./spawn.js";

const repos: TestRepo[] = [];
afterAll(() => {
  for (const r of repos) r.cleanup();
});
function repo(...args: Parameters<typeof makeInstalledRepo>): TestRepo {
  const r = makeInstalledRepo(...args);
  repos.push(r);
  return r;
}

const WRIGHT = runId(1);
const SCOUT = runId(2);
const ws = repo([
  { role: "devrites-slice-wright", run_id: WRIGHT, allowed_repo_writes: ["src/parser.ts"] },
  { role: "devrites-evidence-scout", run_id: SCOUT },
]);

const hook = (input: unknown, opts: Parameters<typeof runBundle>[2] = {}) =>
  runBundle(
    "pre-tool-use",
    typeof input === "string" || Buffer.isBuffer(input) ? input : JSON.stringify(input),
    {
      cwd: ws.root,
      ...opts,
    },
  );

function expectDeny(r: HookRun, rule: string): void {
  expect(r.status).toBe(2);
  expect(r.stderr).toContain(`[${rule}]`);
  const json = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, string> };
  expect(json.hookSpecificOutput.hookEventName).toBe("PreToolUse");
  expect(json.hookSpecificOutput.permissionDecision).toBe("deny");
  expect(json.hookSpecificOutput.permissionDecisionReason).toBe(r.stderr.split("\n")[0]);
}

function expectAllow(r: HookRun): void {
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("");
  expect(r.status).toBe(0);
}

const scoutClaude = (extra: Record<string, unknown>) =>
  claudeInput(ws.root, {
    agent_id: "a95813fe30b80300e",
    agent_type: "devrites:devrites-evidence-scout",
    ...extra,
  });
const scoutCodex = (extra: Record<string, unknown>) =>
  codexInput(ws.root, { agent_id: "019a-thread", agent_type: "devrites-evidence-scout", ...extra });
const wrightClaude = (extra: Record<string, unknown>) =>
  claudeInput(ws.root, { agent_id: "a1", agent_type: "devrites:devrites-slice-wright", ...extra });

describe("pre-tool-use through the launcher's compile cache", () => {
  it.skipIf(process.platform === "win32")(
    "a leaf's shell call caches the bundle and its lazily loaded shell part, and answers the same from the cache; root calls and a leaf's other calls keep entries of their own",
    async () => {
      const tmp = realpathSync(mkdtempSync(join(tmpdir(), "devrites-cc-")));
      try {
        const input = scoutCodex({
          tool_name: "Bash",
          tool_input: { command: "grep -rn x src > notes.txt" },
        });
        const first = await hook(input, { via: "launcher", env: { TMPDIR: tmp } });
        expectDeny(first, "guard.readonly-write");
        const dir = join(tmp, `devrites-compile-cache-${process.getuid?.() ?? -1}`);
        expect(readdirSync(dir).filter((n) => n.endsWith(".bin"))).toHaveLength(2);
        const again = await hook(input, { via: "launcher", env: { TMPDIR: tmp } });
        expect([again.status, again.stdout, again.stderr]).toEqual([
          first.status,
          first.stdout,
          first.stderr,
        ]);
        // near miss: a root call never loads the classifier; it adds only the bundle's entry for root calls
        // (an entry holds what its kind of call compiled), and only once
        const leafEntries = readdirSync(dir).filter((n) => n.endsWith(".bin"));
        const root = codexInput(ws.root, { tool_name: "Bash", tool_input: { command: "rm -rf build" } });
        expectAllow(await hook(root, { via: "launcher", env: { TMPDIR: tmp } }));
        expectAllow(await hook(root, { via: "launcher", env: { TMPDIR: tmp } }));
        const added = readdirSync(dir).filter((n) => n.endsWith(".bin") && !leafEntries.includes(n));
        expect(added).toHaveLength(1);
        const text = readFileSync(join(dir, added[0] as string)).subarray(COMPILE_CACHE_TAG.length + 4);
        expect(text.subarray(0, 200).toString()).toMatch(/^\/\/ generated/);
        // and a leaf's call of another tool has an entry of its own too: the shell call's entry holds the
        // shell parts of the guard, this one the rest
        const before = readdirSync(dir).filter((n) => n.endsWith(".bin"));
        const write = scoutCodex({
          tool_name: "Write",
          tool_input: { file_path: join(ws.root, "notes.md"), content: "x" },
        });
        expectDeny(await hook(write, { via: "launcher", env: { TMPDIR: tmp } }), "guard.readonly-write");
        expectDeny(await hook(write, { via: "launcher", env: { TMPDIR: tmp } }), "guard.readonly-write");
        expect(readdirSync(dir).filter((n) => n.endsWith(".bin") && !before.includes(n))).toHaveLength(1);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  );
});

describe.each(["socket", "pipe", "launcher"] as const)("pre-tool-use bundle, stdin via %s", (via) => {
  it("denies a read-only role's Write (Claude shape)", async () => {
    const r = await hook(
      scoutClaude({ tool_name: "Write", tool_input: { file_path: join(ws.root, "notes.md"), content: "x" } }),
      { via },
    );
    expectDeny(r, "guard.readonly-write");
  });

  it("denies a read-only role's shell redirect (Codex shape)", async () => {
    const r = await hook(
      scoutCodex({ tool_name: "Bash", tool_input: { command: "grep -rn x src > notes.txt" } }),
      {
        via,
      },
    );
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("allows the root session with no output (both shapes)", async () => {
    expectAllow(
      await hook(
        claudeInput(ws.root, {
          tool_name: "Write",
          tool_input: { file_path: join(ws.root, "a"), content: "" },
        }),
        {
          via,
        },
      ),
    );
    expectAllow(
      await hook(codexInput(ws.root, { tool_name: "Bash", tool_input: { command: "rm -rf build" } }), {
        via,
      }),
    );
  });

  it("allows the wright's allowlisted write and denies one outside the allowlist", async () => {
    expectAllow(
      await hook(
        wrightClaude({
          tool_name: "Write",
          tool_input: { file_path: join(ws.root, "src/parser.ts"), content: "" },
        }),
        {
          via,
        },
      ),
    );
    expectDeny(
      await hook(
        wrightClaude({
          tool_name: "Write",
          tool_input: { file_path: join(ws.root, "src/other.ts"), content: "" },
        }),
        {
          via,
        },
      ),
      "guard.outside-allowlist",
    );
  });

  it("denies a leaf's spawn on both hosts", async () => {
    expectDeny(
      await hook(scoutClaude({ tool_name: "Agent", tool_input: { prompt: "x", subagent_type: "y" } }), {
        via,
      }),
      "guard.spawn",
    );
    expectDeny(
      await hook(scoutCodex({ tool_name: "spawn_agent", tool_input: { agent_type: "x", message: "y" } }), {
        via,
      }),
      "guard.spawn",
    );
  });

  it.each([
    ["empty", ""],
    ["whitespace", "\n"],
    ["truncated JSON", '{"agent_type":"devrites-evidence-scout","tool_name":"Wri'],
    ["a JSON array", "[]"],
    ["a JSON string", '"Write"'],
    ["binary garbage", Buffer.from([0xff, 0xfe, 0x00, 0x9c, 0x7b, 0x22])],
  ])("denies malformed stdin: %s", async (_n, input) => {
    expectDeny(await hook(input, { via }), "guard.malformed-input");
  });

  it("denies a leaf whose fields have the wrong types", async () => {
    const r = await hook({ ...scoutClaude({ tool_name: 42, tool_input: "rm -rf /" }) }, { via });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("denies a 10 MB payload without reading it all", async () => {
    const big = JSON.stringify(
      scoutClaude({
        tool_name: "Write",
        tool_input: { file_path: "x", content: "a".repeat(10 * 1024 * 1024) },
      }),
    );
    expectDeny(await hook(big, { via }), "guard.input-too-large");
  });

  // the launcher reads stdin to its end before it loads the bundle: a stdin that never ends meets the host's timeout
  it.skipIf(via === "launcher")("denies at its deadline when stdin never ends", async () => {
    const r = await hook('{"agent_type":"devrites-evidence-scout"', { via, hang: true });
    expectDeny(r, "guard.malformed-input");
    expect(r.stderr).toContain("did not end");
  });
});

describe("pre-tool-use bundle and the workspace", () => {
  it("allows a root call in a broken workspace, with a report on stderr", async () => {
    const broken = repo([{ role: "devrites-evidence-scout", run_id: runId(3) }]);
    writeFileSync(join(broken.root, workspacePaths.state), '{"schema":');
    const r = await runBundle(
      "pre-tool-use",
      JSON.stringify(
        claudeInput(broken.root, { tool_name: "Write", tool_input: { file_path: "x", content: "" } }),
      ),
      { cwd: broken.root },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("workspace.state-invalid");
  });

  it("denies a leaf when state.json cannot be read", async () => {
    const broken = repo([{ role: "devrites-evidence-scout", run_id: runId(4) }]);
    const state = join(broken.root, workspacePaths.state);
    rmSync(state);
    symlinkSync("state.json", state); // a loop: ELOOP on every read, even as root
    const r = await runBundle(
      "pre-tool-use",
      JSON.stringify(
        claudeInput(broken.root, {
          agent_id: "a",
          agent_type: "devrites-evidence-scout",
          tool_name: "Read",
          tool_input: { file_path: "x" },
        }),
      ),
      { cwd: broken.root },
    );
    expectDeny(r, "guard.internal-error");
    expect(r.stderr).toContain(".devrites/state.json");
  });

  it("denies a leaf whose role has no active packet, telling the root how to create one", async () => {
    const r = await hook(
      claudeInput(ws.root, {
        agent_id: "a",
        agent_type: "devrites:devrites-code-reviewer",
        tool_name: "Read",
        tool_input: { file_path: "x" },
      }),
    );
    expectDeny(r, "guard.no-active-packet");
    expect(r.stderr).toContain("devrites packet new");
  });

  it("records the leaf's decisions as guard.decision events in its run's ledger", async () => {
    const own = repo([
      { role: "devrites-evidence-scout", run_id: runId(5) },
      { role: "devrites-slice-wright", run_id: runId(6), allowed_repo_writes: ["src/a.ts"] },
    ]);
    const call = (extra: Record<string, unknown>) =>
      runBundle(
        "pre-tool-use",
        JSON.stringify(
          claudeInput(own.root, { agent_id: "a7", agent_type: "devrites:devrites-evidence-scout", ...extra }),
        ),
        {
          cwd: own.root,
        },
      );
    await call({ tool_name: "Read", tool_input: { file_path: join(own.root, "src/a.ts") } });
    await call({ tool_name: "Write", tool_input: { file_path: join(own.root, "src/a.ts"), content: "" } });
    const events = readJsonLines<RunEvent>(join(own.root, workspacePaths.events(runId(5))), "e").values;
    expect(
      events.map((e) => [
        e.type,
        e.data.tool,
        e.data.decision,
        e.data.rule,
        e.data.agent_id,
        e.data.agent_type,
      ]),
    ).toEqual([
      ["guard.decision", "Read", "allow", undefined, "a7", "devrites:devrites-evidence-scout"],
      ["guard.decision", "Write", "deny", "guard.readonly-write", "a7", "devrites:devrites-evidence-scout"],
    ]);
    expect(readJsonLines<RunEvent>(join(own.root, workspacePaths.events(runId(6))), "e").values).toEqual([]);
  });

  it("DEVRITES_HOOK_LOG gets the raw input", async () => {
    const log = join(ws.root, "..", "hook.log");
    const input = JSON.stringify(scoutCodex({ tool_name: "Bash", tool_input: { command: "ls" } }));
    await hook(input, { env: { DEVRITES_HOOK_LOG: log } });
    const line = JSON.parse(readFileSync(log, "utf8").trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({ hook: "pre-tool-use", kind: "ok", stdin: input });
  });

  it("finds the repository from a subfolder cwd", async () => {
    mkdirSync(join(ws.root, "src", "deep"), { recursive: true });
    const r = await runBundle(
      "pre-tool-use",
      JSON.stringify(
        codexInput(join(ws.root, "src", "deep"), {
          agent_id: "t",
          agent_type: "devrites-evidence-scout",
          tool_name: "Bash",
          tool_input: { command: "touch x" },
        }),
      ),
      { cwd: "/" },
    );
    expect(r.status).toBe(2);
  });
});

describe("pre-tool-use bundle properties", () => {
  it("whatever arrives on stdin, it exits 0 or 2; a leaf's call or unreadable input is never allowed by accident", async () => {
    const leafish = fc
      .record({
        agent_type: fc.oneof(fc.string(), fc.constant("devrites-evidence-scout")),
        tool_name: fc.string(),
        tool_input: fc.anything(),
      })
      .map((v) => JSON.stringify({ ...v, cwd: ws.root }));
    const arbitraryInput = fc.oneof(
      fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
      fc.string().map((s) => Buffer.from(s)),
      fc.json().map((s) => Buffer.from(s)),
      leafish.map((s) => Buffer.from(s)),
      leafish.map((s) => Buffer.from(s.slice(0, s.length >> 1))),
    );
    await fc.assert(
      fc.asyncProperty(arbitraryInput, async (bytes) => {
        const r = await hook(bytes);
        expect([0, 2]).toContain(r.status);
        let parsed: unknown;
        try {
          parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
        } catch {
          parsed = undefined;
        }
        const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
        if (!isObject) expect(r.status).toBe(2);
        if (r.status === 0) expect(r.stdout).toBe("");
        else expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
      }),
      { numRuns: 40 },
    );
  });
});
