/**
 * The Claude Code probes: one scripted `claude -p` run in the scratch repository against the built-in fake
 * Messages API. The root spawns the read-only leaf in the foreground (its calls: a write the guard denies, a
 * write the classifier allows that the sandbox must fail, a control call, a shell spawn of another agent; then
 * it stops without a result, so SubagentStop blocks once) and a second leaf in the background (one call).
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as A from "./fake-model/anthropic.js";
import { hookCalls } from "./hook-log.js";
import { BACKGROUND_ROLE, BLOCK_MARK, judge, LEAF_ROLE, leafSteps, type Observation } from "./probes.js";
import { hostBaseEnv, lastLine, runHostProcess, sessionProblem } from "./process.js";
import type { Scratch } from "./scratch.js";
import { type ProbeRow, row } from "./types.js";

const FG = "doctor probe: foreground leaf";
const BG = "doctor probe: background leaf";

/** The fake model's script (pure state machine over the conversation). */
export function claudeScenario(): A.AnthropicScenario {
  const s = leafSteps("claude");
  const fgSteps = [s.deny, s.write, s.control, s.spawn];
  return (_req, ctx) => {
    if (ctx.isSubagent) {
      const background = ctx.has(BG) && !ctx.has(FG);
      if (background) {
        if (!ctx.hasToolResult("toolu_doctor_bg"))
          return A.toolUse("toolu_doctor_bg", "Bash", { command: "ls" });
      } else {
        const next = fgSteps.find((st) => !ctx.hasToolResult(st.id));
        if (next) return A.toolUse(next.id, "Bash", { command: next.command });
      }
      return A.text(
        ctx.has(BLOCK_MARK) ? "doctor probe: stopping after the block" : "doctor probe: no result",
      );
    }
    if (!ctx.hasToolResult("toolu_doctor_fg")) {
      return A.toolUse("toolu_doctor_fg", "Agent", {
        description: "doctor foreground",
        prompt: FG,
        subagent_type: LEAF_ROLE,
        run_in_background: false,
      });
    }
    if (!ctx.hasToolResult("toolu_doctor_bgspawn")) {
      return A.toolUse("toolu_doctor_bgspawn", "Agent", {
        description: "doctor background",
        prompt: BG,
        subagent_type: BACKGROUND_ROLE,
        run_in_background: true,
      });
    }
    return A.text("doctor probe: done");
  };
}

export interface HostRunOptions {
  bin: string;
  version: string;
  scratch: Scratch;
  /** The environment the host's passed-through variables (PATH, locale) come from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Runs the host under this argv prefix (the test-only `no-sandbox` fault). */
  wrap?: string[];
  timeoutMs: number;
}

export async function probeClaude(o: HostRunOptions): Promise<ProbeRow[]> {
  const fake = await A.startFakeAnthropic(claudeScenario(), { budget: 40 });
  try {
    const args = [
      "-p",
      "Run the devrites doctor probe.",
      "--output-format",
      "stream-json",
      "--verbose",
      "--allowedTools",
      "Write,Edit,Bash,Agent,Read",
      "--model",
      "doctor-model",
    ];
    const env = hostBaseEnv(o.env, {
      HOME: o.scratch.home,
      CLAUDE_CONFIG_DIR: join(o.scratch.home, ".claude"),
      ANTHROPIC_BASE_URL: fake.baseUrl,
      ANTHROPIC_API_KEY: "devrites-doctor-offline",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      DEVRITES_HOOK_LOG: o.scratch.hookLog,
    });
    const [bin, argv] = o.wrap ? [o.wrap[0]!, [...o.wrap.slice(1), o.bin, ...args]] : [o.bin, args];
    const run = await runHostProcess(bin, argv, { cwd: o.scratch.project, env, timeoutMs: o.timeoutMs });
    const children = fake
      .modelRequests()
      .map(A.anthropicContextOf)
      .filter((c) => c.isSubagent);
    const fg = children.filter((c) => c.has(FG));
    const last = fg.at(-1);
    const obs: Observation = {
      host: "claude",
      version: o.version,
      runProblem: sessionProblem(
        run,
        o.timeoutMs,
        lastLine(run.stderr) || lastLine(run.stdout),
        fg.length === 0
          ? "the root never spawned the leaf (no subagent request reached the fake model)"
          : undefined,
        fake.failures,
      ),
      preToolUse: hookCalls(o.scratch.hookLog, "pre-tool-use"),
      subagentStop: hookCalls(o.scratch.hookLog, "subagent-stop"),
      result: (id) => {
        const b = last?.toolResultBlock(id);
        return b ? { text: b.text, isError: b.isError } : undefined;
      },
      blockSeenByLeaf: fg.some((c) => c.has(BLOCK_MARK)),
      fileExists: (p) => existsSync(join(o.scratch.project, p)),
      sandboxExpected: process.platform === "linux",
      spawnToolOffered: fg.some((c) => c.toolNames.includes("Agent")),
      backgroundSpawned: children.some((c) => c.has(BG) && !c.has(FG)),
    };
    return judge(obs);
  } finally {
    await fake.close();
  }
}

/**
 * The user's own Claude settings, read (never written): `disableAllHooks: true` in the user's settings or in
 * the repository's shared or local settings turns every hook off, devrites' guard included. (`--bare` is a
 * per-session flag doctor cannot see; docs/doctor.md says so.)
 */
export function userHooksRow(o: {
  version: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): ProbeRow {
  const configDir = o.env.CLAUDE_CONFIG_DIR || join(o.env.HOME || homedir(), ".claude");
  const repo = gitTopOf(o.cwd);
  const files = [
    join(configDir, "settings.json"),
    ...(repo ? [join(repo, ".claude", "settings.json"), join(repo, ".claude", "settings.local.json")] : []),
  ];
  const off = files.filter((f) => {
    try {
      return (JSON.parse(readFileSync(f, "utf8")) as { disableAllHooks?: unknown }).disableAllHooks === true;
    } catch {
      return false;
    }
  });
  const base = { host: "claude" as const, version: o.version, probe: "claude.hooks-enabled" as const };
  return off.length === 0
    ? row({ ...base, result: "pass", detail: `no disableAllHooks in ${files.join(", ")}` })
    : row({
        ...base,
        result: "fail",
        detail: `disableAllHooks is true in ${off.join(", ")}: Claude runs no hook, so devrites guards nothing`,
        fix: `remove "disableAllHooks" from ${off.join(" and ")}`,
        ...(repo && off.some((f) => f.startsWith(`${repo}/`)) ? { repo } : {}),
      });
}

function gitTopOf(cwd: string): string | undefined {
  try {
    return execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}
