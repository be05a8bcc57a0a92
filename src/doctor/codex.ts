/**
 * The Codex probes: trust for the scratch repository's hooks persisted the way `/hooks` in Codex persists it
 * (no bypass flag: what a user's session does), then one scripted `codex exec` run against the built-in fake
 * Responses API, the root spawning the read-only leaf (`multi_agent_v1`) and waiting for it. And the user's
 * own repository: whether Codex trusts the devrites hooks installed there.
 */

import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { HostRunOptions } from "./claude.js";
import { isDevritesHook, type ListedHook, listCodexHooks, trustToml } from "./codex-hooks.js";
import * as R from "./fake-model/responses.js";
import { hookCalls } from "./hook-log.js";
import { BLOCK_MARK, judge, LEAF_ROLE, leafSteps, type Observation } from "./probes.js";
import { hostBaseEnv, lastLine, runHostProcess, sessionProblem } from "./process.js";
import { scratchBase } from "./scratch.js";
import { type ProbeRow, row } from "./types.js";

const FG = "doctor probe: leaf";
const NS = { namespace: "multi_agent_v1" };

/** The fake model's script (pure state machine; slug `fake-model` gives the `multi_agent_v1` tools). */
export function codexScenario(): R.ResponsesScenario {
  const s = leafSteps("codex");
  const steps = [s.deny, s.write, s.control, s.spawn];
  return (_req, ctx) => {
    if (ctx.isSubagent) {
      const next = steps.find((st) => !ctx.hasToolResult(st.id));
      if (next) return R.functionCall(next.id, "exec_command", { cmd: next.command });
      return R.text(
        ctx.has(BLOCK_MARK) ? "doctor probe: stopping after the block" : "doctor probe: no result",
      );
    }
    if (!ctx.hasToolResult("call_doctor_spawn_leaf")) {
      return R.functionCall(
        "call_doctor_spawn_leaf",
        "spawn_agent",
        { agent_type: LEAF_ROLE, message: FG },
        NS,
      );
    }
    if (!ctx.hasToolResult("call_doctor_wait")) {
      let id = "";
      try {
        id =
          (JSON.parse(ctx.toolResult("call_doctor_spawn_leaf") ?? "{}") as { agent_id?: string }).agent_id ??
          "";
      } catch {
        id = "";
      }
      return R.functionCall("call_doctor_wait", "wait_agent", { targets: [id], timeout_ms: 60_000 }, NS);
    }
    return R.text("doctor probe: done");
  };
}

function codexConfig(baseUrl: string, project: string): string {
  return [
    'model = "fake-model"',
    'model_provider = "doctor"',
    "",
    "[model_providers.doctor]",
    'name = "devrites doctor (offline fake)"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    'wire_api = "responses"',
    'env_key = "DEVRITES_DOCTOR_KEY"',
    "",
    `[projects.${JSON.stringify(project)}]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
}

export async function probeCodex(o: HostRunOptions & { trustHooks: boolean }): Promise<ProbeRow[]> {
  const fake = await R.startFakeResponses(codexScenario(), { budget: 40 });
  try {
    const codexHome = join(o.scratch.home, ".codex");
    mkdirSync(codexHome, { recursive: true });
    const configFile = join(codexHome, "config.toml");
    writeFileSync(configFile, codexConfig(fake.baseUrl, o.scratch.project));
    const env = hostBaseEnv(o.env, {
      HOME: o.scratch.home,
      CODEX_HOME: codexHome,
      DEVRITES_DOCTOR_KEY: "devrites-doctor-offline",
      DEVRITES_HOOK_LOG: o.scratch.hookLog,
    });
    const base = { host: "codex" as const, version: o.version };
    // Trust, as `/hooks` persists it; then Codex's own answer about it.
    let trust: ProbeRow;
    const before = await listCodexHooks(o.bin, o.scratch.project, env);
    const ours = before.ok ? before.hooks.filter(isDevritesHook) : [];
    if (o.trustHooks && ours.length > 0) appendFileSync(configFile, `\n${trustToml(ours)}\n`);
    const after =
      o.trustHooks && ours.length > 0 ? await listCodexHooks(o.bin, o.scratch.project, env) : before;
    const afterOurs = after.ok ? after.hooks.filter(isDevritesHook) : [];
    const untrusted = afterOurs.filter((h) => h.trustStatus !== "trusted");
    if (!after.ok) {
      trust = row({ ...base, probe: "codex.hooks-trust", result: "fail", detail: after.why, fix: TRUST_FIX });
    } else if (afterOurs.length === 0) {
      trust = row({
        ...base,
        probe: "codex.hooks-trust",
        result: "fail",
        detail: "Codex lists no devrites hook for the scratch repository",
        fix: "run `devrites init` so .codex/hooks.json wires .devrites/hooks/",
      });
    } else if (untrusted.length > 0) {
      trust = row({
        ...base,
        probe: "codex.hooks-trust",
        result: "fail",
        detail: `${untrusted.length} of ${afterOurs.length} devrites hooks are ${untrusted[0]!.trustStatus}: Codex skips them without a word`,
        fix: TRUST_FIX,
      });
    } else {
      trust = row({
        ...base,
        probe: "codex.hooks-trust",
        result: "pass",
        detail: `Codex reports all ${afterOurs.length} devrites hooks trusted once trust is persisted`,
      });
    }

    const run = await runHostProcess(o.bin, ["exec", "--json", "Run the devrites doctor probe."], {
      cwd: o.scratch.project,
      env,
      timeoutMs: o.timeoutMs,
    });
    const children = fake
      .modelRequests()
      .map(R.responsesContextOf)
      .filter((c) => c.isSubagent);
    const last = children.at(-1);
    const obs: Observation = {
      host: "codex",
      version: o.version,
      runProblem: sessionProblem(
        run,
        o.timeoutMs,
        lastLine(run.stderr),
        children.length === 0
          ? "the root never spawned the leaf (no child request reached the fake model)"
          : undefined,
        fake.failures,
      ),
      preToolUse: hookCalls(o.scratch.hookLog, "pre-tool-use"),
      subagentStop: hookCalls(o.scratch.hookLog, "subagent-stop"),
      result: (id) => {
        const t = last?.toolResult(id);
        return t === undefined ? undefined : { text: t, isError: false };
      },
      blockSeenByLeaf: children.some((c) => c.has(BLOCK_MARK)),
      fileExists: (p) => existsSync(join(o.scratch.project, p)),
      sandboxExpected: process.platform === "linux",
      spawnToolOffered: children.some((c) => c.toolNames.some((t) => t.includes("spawn_agent"))),
    };
    const rows = judge(obs);
    rows.splice(1, 0, trust);
    return rows;
  } finally {
    await fake.close();
  }
}

const TRUST_FIX =
  "open `codex` in the repository, type /hooks and trust the devrites hooks (or add the [hooks.state] lines doctor prints to your config.toml); a hook changed by `devrites update` must be trusted again";

/** The top level of the git work tree holding `cwd`, or undefined. */
function gitTop(cwd: string): string | undefined {
  try {
    return execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/**
 * The user's repository: whether Codex, with the user's own config.toml (copied into a scratch CODEX_HOME, so
 * nothing of the user's is written), trusts the devrites hooks installed there.
 */
export async function repoTrustRow(o: {
  bin: string;
  version: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<ProbeRow> {
  const repo = gitTop(o.cwd);
  const base = {
    host: "codex" as const,
    version: o.version,
    probe: "codex.repo-trust" as const,
    ...(repo ? { repo } : {}),
  };
  const hooksFile = repo ? join(repo, ".codex", "hooks.json") : undefined;
  if (
    !repo ||
    !hooksFile ||
    !existsSync(hooksFile) ||
    !readFileSync(hooksFile, "utf8").includes("devrites-hook")
  ) {
    return row({
      ...base,
      result: "skip",
      detail: repo ? `no devrites Codex hooks in ${repo}` : "not run inside a git repository",
      fix: "run doctor inside a repository with devrites installed for Codex to check its hooks' trust",
      gating: false,
    });
  }
  const userHome = o.env.CODEX_HOME || join(o.env.HOME || homedir(), ".codex");
  const userConfig = join(userHome, "config.toml");
  const tmpHome = mkdtempSync(join(scratchBase(o.env), "codex-trust-"));
  try {
    const codexHome = join(tmpHome, ".codex");
    mkdirSync(codexHome);
    if (existsSync(userConfig)) copyFileSync(userConfig, join(codexHome, "config.toml"));
    const listed = await listCodexHooks(
      o.bin,
      repo,
      hostBaseEnv(o.env, { HOME: tmpHome, CODEX_HOME: codexHome }),
    );
    if (!listed.ok) return row({ ...base, result: "fail", detail: listed.why, fix: TRUST_FIX });
    const ours = listed.hooks.filter(isDevritesHook);
    if (ours.length === 0) {
      return row({
        ...base,
        result: "fail",
        detail: `Codex ignores ${repo}/.codex (the project is not trusted): no devrites hook runs there`,
        fix: `trust the project: add to ${userConfig}:\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\nthen run doctor again to trust its hooks`,
      });
    }
    const untrusted = ours.filter((h) => h.trustStatus !== "trusted");
    if (untrusted.length === 0) {
      return row({
        ...base,
        result: "pass",
        detail: `Codex trusts all ${ours.length} devrites hooks in ${repo}`,
      });
    }
    return row({
      ...base,
      result: "fail",
      detail: `${untrusted.length} of ${ours.length} devrites hooks in ${repo} are not trusted (${[...new Set(untrusted.map((h) => h.trustStatus))].join(", ")}): Codex skips them without a word`,
      fix: `open \`codex\` in ${repo}, type /hooks and trust the devrites hooks, or add to ${userConfig}:\n${trustToml(untrusted as ListedHook[])}`,
    });
  } finally {
    rmSync(tmpHome, { recursive: true, force: true });
  }
}
