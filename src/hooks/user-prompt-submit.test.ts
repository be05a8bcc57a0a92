import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workspacePaths } from "../run/workspace.js";
import { makeRepo, runId, type TestRepo } from "./fixtures.js";
import { handleUserPromptSubmit, userPromptSubmitHook, workspaceContextLine } from "./user-prompt-submit.js";

let repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

const env = { env: {}, cwd: "/" };
const ok = (v: unknown) => ({ kind: "ok" as const, bytes: Buffer.from(JSON.stringify(v)) });
const now = () => new Date("2026-11-29T23:00:00.000Z");

describe("handleUserPromptSubmit", () => {
  it("prints the context line for the repository of the prompt", () => {
    const r = makeRepo();
    repos.push(r);
    const seen: string[] = [];
    const a = handleUserPromptSubmit(
      ok({ cwd: r.root, prompt: "go on", hook_event_name: "UserPromptSubmit" }),
      env,
      {
        contextLine: (root) => {
          seen.push(root);
          return "devrites: active rite rite-build, phase build, next: check run-x";
        },
        now,
      },
    );
    expect(seen).toEqual([r.root]);
    expect(a).toEqual({
      exitCode: 0,
      stdout: "devrites: active rite rite-build, phase build, next: check run-x\n",
      stderr: "",
    });
  });

  it("adds nothing to a subagent's prompt (foreign or devrites), and still adds it for the root", () => {
    const r = makeRepo();
    repos.push(r);
    const line = () => "devrites: active rite rite-build, phase build";
    for (const who of [
      { agent_id: "a1", agent_type: "Explore" },
      { agent_id: "a1", agent_type: "explorer" },
      { agent_id: "a1", agent_type: "devrites:devrites-evidence-scout" },
      { agent_type: "general-purpose" },
      { agent_id: "a1" },
    ]) {
      const a = handleUserPromptSubmit(ok({ cwd: r.root, prompt: "go", ...who }), env, {
        contextLine: line,
        now,
      });
      expect(a, JSON.stringify(who)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    }
    expect(
      handleUserPromptSubmit(ok({ cwd: r.root, prompt: "go" }), env, { contextLine: line, now }).stdout,
    ).toBe("devrites: active rite rite-build, phase build\n");
  });

  it("prints nothing when there is no journey", () => {
    const r = makeRepo();
    repos.push(r);
    expect(handleUserPromptSubmit(ok({ cwd: r.root }), env, { contextLine: () => "", now })).toEqual({
      exitCode: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("never blocks: malformed input, a throwing reader, the deadline and a crash all exit 0 without context", () => {
    const r = makeRepo();
    repos.push(r);
    const deps = {
      contextLine: () => {
        throw new Error("corrupt ledger");
      },
      now,
    };
    expect(handleUserPromptSubmit({ kind: "ok", bytes: Buffer.from("{") }, env, deps)).toMatchObject({
      exitCode: 0,
      stdout: "",
    });
    const thrown = handleUserPromptSubmit(ok({ cwd: r.root }), env, deps);
    expect(thrown).toMatchObject({ exitCode: 0, stdout: "" });
    expect(thrown.stderr).toContain("corrupt ledger");
    const spec = userPromptSubmitHook(deps);
    expect(spec.onDeadline({ kind: "timeout", prefix: Buffer.alloc(0), afterMs: 1 })).toMatchObject({
      exitCode: 0,
      stdout: "",
    });
    expect(spec.onCrash(new Error("x"))).toMatchObject({ exitCode: 0, stdout: "" });
  });

  it("keeps the context to one line", () => {
    const r = makeRepo();
    repos.push(r);
    const a = handleUserPromptSubmit(ok({ cwd: r.root }), env, { contextLine: () => "a\nb\r\nc", now });
    expect(a.stdout).toBe("a b c\n");
  });
});

describe("workspaceContextLine", () => {
  it("describes the journey from state.json", () => {
    const r = makeRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    repos.push(r);
    const line = workspaceContextLine(r.root, now());
    expect(line).toMatch(/^devrites: active rite rite-build, phase build, next: /);
  });

  it("is empty without a workspace", () => {
    const r = makeRepo();
    repos.push(r);
    expect(workspaceContextLine(r.root, now())).toBe("");
  });

  it("throws on a state.json it cannot read, naming the file", () => {
    const r = makeRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    repos.push(r);
    writeFileSync(join(r.root, workspacePaths.state), "{");
    expect(() => workspaceContextLine(r.root, now())).toThrow(/\.devrites\/state\.json/);
  });
});
