/**
 * Test workspaces for the hooks: a temp repository with `.devrites/state.json` listing active runs and a
 * sample packet per run. Test-only (excluded from the build).
 */

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { samplePacket } from "../envelope/fixtures.js";
import { ROLE_NAMES, type RoleName } from "../envelope/roles.js";
import { workspacePaths } from "../run/workspace.js";
import { AGENT_GENERATED_NOTE, codexAgentPath } from "./installed.js";

export interface RunSpec {
  role: RoleName;
  run_id: string;
  allowed_repo_writes?: string[];
}

export interface TestRepo {
  root: string;
  cleanup(): void;
}

export function runId(n: number): string {
  return `run-20261129T2215${String(n).padStart(2, "0")}Z-${n.toString(16).padStart(8, "0")}`;
}

/** A temp repo (with a `.git` folder, no git needed) and, when `runs` is given, a workspace. */
export function makeRepo(runs?: RunSpec[]): TestRepo {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-hooks-")));
  const root = join(top, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  if (runs) writeWorkspace(root, runs);
  return { root, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}

/**
 * A temp repo as `makeRepo` makes it, with devrites' generated Codex agent file for every role installed (so a
 * bare `agent_type` is a devrites role there, as after `devrites init`).
 */
export function makeInstalledRepo(runs?: RunSpec[]): TestRepo {
  const repo = makeRepo(runs);
  installAgents(repo.root);
  return repo;
}

/** Write the first lines of devrites' generated `.codex/agents/<role>.toml` for each role (what the hooks check). */
export function installAgents(root: string, roles: readonly RoleName[] = ROLE_NAMES): void {
  mkdirSync(join(root, ".codex", "agents"), { recursive: true });
  for (const role of roles) {
    writeFileSync(join(root, codexAgentPath(role)), `# ${AGENT_GENERATED_NOTE}\nname = "${role}"\n`);
  }
}

export function writeWorkspace(root: string, runs: RunSpec[]): void {
  mkdirSync(join(root, workspacePaths.runs), { recursive: true });
  for (const r of runs) {
    const packet = samplePacket(r.role);
    packet.run_id = r.run_id;
    packet.result_path = workspacePaths.result(r.run_id);
    if (r.allowed_repo_writes) packet.scope.allowed_repo_writes = r.allowed_repo_writes;
    mkdirSync(join(root, workspacePaths.runDir(r.run_id)), { recursive: true });
    writeFileSync(join(root, workspacePaths.packet(r.run_id)), `${JSON.stringify(packet, null, 2)}\n`);
  }
  const state = {
    schema: "devrites-state/v1",
    active_rite: "rite-build",
    phase: "build",
    active_runs: runs.map((r, i) => ({
      run_id: r.run_id,
      role: r.role,
      step_id: `rite-build/${r.role}#${i + 1}`,
      packet_path: workspacePaths.packet(r.run_id),
      created_at: "2026-11-29T22:15:00.000Z",
    })),
    updated_at: "2026-11-29T22:15:00.000Z",
  };
  writeFileSync(join(root, workspacePaths.state), `${JSON.stringify(state, null, 2)}\n`);
}

/** A Claude-shaped PreToolUse input (plugin agents arrive as `plugin:name`). */
export function claudeInput(cwd: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: "s-1",
    transcript_path: "/tmp/t.jsonl",
    cwd,
    prompt_id: "p-1",
    permission_mode: "acceptEdits",
    effort: { level: "medium" },
    hook_event_name: "PreToolUse",
    tool_use_id: "toolu_01",
    ...extra,
  };
}

/** A Codex-shaped PreToolUse input. */
export function codexInput(cwd: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: "s-2",
    turn_id: "t-1",
    transcript_path: null,
    cwd,
    hook_event_name: "PreToolUse",
    model: "fake-model",
    permission_mode: "default",
    tool_use_id: "call_1",
    ...extra,
  };
}
