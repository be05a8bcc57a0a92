/**
 * Drive Claude Code 2.1.328: a scripted turn against the fake Messages API (`runClaude`), and the offline
 * commands `plugin validate` and `plugin details` (no model, no server).
 */

import type { LoggedRequest } from "../../../src/doctor/fake-model/http.js";
import { ensureHosts } from "./install.js";
import {
  baseEnv,
  makeSandbox,
  type ProcessResult,
  parseJsonLines,
  runProcess,
  type Sandbox,
} from "./sandbox.js";

/** One stream-json event (`system/init`, `assistant`, `user`, `system/hook_response`, `result`, …). */
export interface ClaudeEvent {
  type: string;
  subtype?: string;
  [key: string]: unknown;
}

export interface ClaudeRunOptions {
  prompt: string;
  /** The fake server (only `baseUrl` and `requests` are used). */
  fake: { baseUrl: string; requests: LoggedRequest[] };
  /** HOME and project; a fresh one is made when omitted (clean it up with `run.sandbox.cleanup()`). */
  sandbox?: Sandbox;
  /** Plugins passed with `--plugin-dir`. */
  pluginDirs?: string[];
  /** `--allowedTools`; default `Write,Bash,Agent` (bypass modes refuse to run as root). */
  allowedTools?: string[];
  /** `--model`; default `e2e-model`. */
  model?: string;
  /** `--settings <file>`. */
  settingsFile?: string;
  extraArgs?: string[];
  /** Extra environment for the host (and so for its hooks), e.g. `E2E_HOOK_LOG`. */
  env?: Record<string, string>;
  /** Kill timer; default 60 s. */
  timeoutMs?: number;
}

export interface ClaudeRun extends ProcessResult {
  events: ClaudeEvent[];
  /** stdout lines that were not JSON objects. */
  nonJsonLines: string[];
  /** The first `system/init` event. */
  init: ClaudeEvent | undefined;
  /** The last `result` event. */
  result: ClaudeEvent | undefined;
  /** Requests the fake received during this run. */
  requests: LoggedRequest[];
  sandbox: Sandbox;
}

async function claudeBin(): Promise<string> {
  const hosts = await ensureHosts();
  if (!hosts.claude) throw new Error(`Claude Code unavailable: ${hosts.skipReason ?? "unknown reason"}`);
  return hosts.claude.bin;
}

/** Environment for a Claude process pointed at `baseUrl` (no `/v1`). */
export function claudeEnv(
  home: string,
  baseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return baseEnv(home, {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "dummy",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...extra,
  });
}

/** Run `claude -p <prompt> --output-format stream-json --verbose …` in the sandbox project. */
export async function runClaude(opts: ClaudeRunOptions): Promise<ClaudeRun> {
  const bin = await claudeBin();
  const sandbox = opts.sandbox ?? (await makeSandbox());
  const args = ["-p", opts.prompt, "--output-format", "stream-json", "--verbose"];
  for (const dir of opts.pluginDirs ?? []) args.push("--plugin-dir", dir);
  args.push("--allowedTools", (opts.allowedTools ?? ["Write", "Bash", "Agent"]).join(","));
  args.push("--model", opts.model ?? "e2e-model");
  if (opts.settingsFile) args.push("--settings", opts.settingsFile);
  args.push(...(opts.extraArgs ?? []));
  const from = opts.fake.requests.length;
  const proc = await runProcess(bin, args, {
    cwd: sandbox.project,
    env: claudeEnv(sandbox.home, opts.fake.baseUrl, opts.env),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const { events, nonJson } = parseJsonLines<ClaudeEvent>(proc.stdout);
  return {
    ...proc,
    events,
    nonJsonLines: nonJson,
    init: events.find((e) => e.type === "system" && e.subtype === "init"),
    result: events.findLast((e) => e.type === "result"),
    requests: opts.fake.requests.slice(from),
    sandbox,
  };
}

/** `permission_denials` of the final result: `[{tool_name, tool_use_id, tool_input}]`. */
export function permissionDenials(
  run: ClaudeRun,
): { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[] {
  const d = run.result?.permission_denials;
  return Array.isArray(d) ? (d as ReturnType<typeof permissionDenials>) : [];
}

/**
 * Run the Claude CLI with arbitrary arguments and a throwaway HOME (no model, no server). For offline
 * commands and for negative cases the typed helpers below do not cover.
 */
export async function claudeCli(
  args: string[],
  opts: { cwd?: string; home?: string } = {},
): Promise<ProcessResult> {
  const bin = await claudeBin();
  const scratch = opts.home ? undefined : await makeSandbox();
  try {
    const home = opts.home ?? scratch!.home;
    return await runProcess(bin, args, {
      cwd: opts.cwd ?? scratch?.project ?? home,
      env: claudeEnv(home, "http://127.0.0.1:9"),
    });
  } finally {
    scratch?.cleanup();
  }
}

export interface ValidateIssue {
  path: string;
  message: string;
  code: string | null;
}

export interface ValidateEntry {
  file: string;
  type: string;
  errors: ValidateIssue[];
  warnings: ValidateIssue[];
  notes: ValidateIssue[];
  [key: string]: unknown;
}

export interface ValidateReport {
  success: boolean;
  strict: boolean;
  target: string;
  manifest: ValidateEntry;
  contents: ValidateEntry[];
  provides: {
    hooks: { event: string; matcher?: string; type: string; command?: string }[];
    skills: string[];
    agents: string[];
    commands: string[];
    [key: string]: unknown;
  };
  directory: { profile: string | null; findings: { code: string; severity: string; blocking: boolean }[] };
  [key: string]: unknown;
}

export interface ValidateResult {
  exitCode: number | undefined;
  /** The parsed `--json` report; undefined when stdout was not JSON (see `stdout`). */
  report: ValidateReport | undefined;
  stdout: string;
  stderr: string;
}

/** `claude plugin validate --json [--strict] [--profile <p>] <dir>`; exit 0 = valid. */
export async function claudePluginValidate(
  dir: string,
  opts: { strict?: boolean; profile?: string } = {},
): Promise<ValidateResult> {
  const args = ["plugin", "validate", "--json"];
  if (opts.strict) args.push("--strict");
  if (opts.profile) args.push("--profile", opts.profile);
  args.push(dir);
  const r = await claudeCli(args);
  let report: ValidateReport | undefined;
  try {
    report = JSON.parse(r.stdout) as ValidateReport;
  } catch {
    report = undefined;
  }
  return { exitCode: r.exitCode, report, stdout: r.stdout, stderr: r.stderr };
}

export interface ComponentCost {
  name: string;
  /** Tokens; `< 20` is read as its bound 20, `~2.7k` as 2700. The printed text is in `raw`. */
  alwaysOn: number;
  onInvoke: number;
  raw: { alwaysOn: string; onInvoke: string };
}

export interface PluginDetails {
  /** The header line, e.g. `probe 0.1.0`. */
  title: string;
  /** `Always-on: ~N tok` for the whole plugin. */
  alwaysOn: number;
  alwaysOnRaw: string;
  components: ComponentCost[];
  /** Component inventory by kind (`Skills`, `Agents`, `Hooks`, …): count and listed names. */
  inventory: Record<string, { count: number; names: string[] }>;
}

const TOKEN = String.raw`(?:~\s*\d+(?:\.\d+)?[kKmM]?|<\s*\d+(?:\.\d+)?[kKmM]?)`;

/** `~130` → 130, `< 20` → 20, `~2.7k` → 2700, `~1.2M` → 1200000; NaN when unreadable (pure). */
export function parseTokenValue(raw: string): number {
  const m = /^(?:~|<)?\s*(\d+(?:\.\d+)?)([kKmM]?)$/.exec(raw.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  const unit = (m[2] ?? "").toLowerCase();
  return Math.round(unit === "k" ? n * 1000 : unit === "m" ? n * 1_000_000 : n);
}

/** Parse the text of `claude plugin details` (pure); undefined when the cost section is missing. */
export function parsePluginDetails(text: string): PluginDetails | undefined {
  const lines = text.split("\n");
  const always = new RegExp(String.raw`Always-on:\s+(${TOKEN})\s+tok`).exec(text);
  if (!always?.[1]) return undefined;
  const inventory: PluginDetails["inventory"] = {};
  const components: ComponentCost[] = [];
  let section = "";
  const row = new RegExp(String.raw`^\s+(\S+)\s+(${TOKEN})\s+(${TOKEN})\s*$`);
  for (const line of lines) {
    if (/^\S/.test(line)) {
      section = line.trim();
      continue;
    }
    if (section === "Component inventory") {
      const m = /^\s+(.+?) \((\d+)\)(?:\s{2,}(.*))?$/.exec(line);
      if (m?.[1]) {
        const rest = (m[3] ?? "").replace(/\s{2,}\(.*\)\s*$/, "").trim();
        inventory[m[1]] = {
          count: Number(m[2]),
          names: rest === "" ? [] : rest.split(/,\s*/),
        };
      }
    } else if (section.startsWith("Per-component")) {
      const m = row.exec(line);
      if (m?.[1] && m[2] && m[3]) {
        components.push({
          name: m[1],
          alwaysOn: parseTokenValue(m[2]),
          onInvoke: parseTokenValue(m[3]),
          raw: { alwaysOn: m[2], onInvoke: m[3] },
        });
      }
    }
  }
  return {
    title: lines.find((l) => l.trim() !== "")?.trim() ?? "",
    alwaysOn: parseTokenValue(always[1]),
    alwaysOnRaw: always[1],
    components,
    inventory,
  };
}

/**
 * `claude --plugin-dir <dir> plugin details <name>`, parsed. Throws with the host's output when the command
 * fails or prints no cost section (e.g. the plugin did not load).
 */
export async function claudePluginDetails(dir: string, name: string): Promise<PluginDetails> {
  const r = await claudeCli(["--plugin-dir", dir, "plugin", "details", name]);
  const parsed = r.exitCode === 0 ? parsePluginDetails(r.stdout) : undefined;
  if (!parsed) {
    throw new Error(
      `claude plugin details ${name} failed (exit ${r.exitCode}):\n${r.stdout.trim()}\n${r.stderr.trim()}`,
    );
  }
  return parsed;
}
