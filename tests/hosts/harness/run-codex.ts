/**
 * Drive Codex CLI 0.169.0: a scripted `codex exec --json` run against the fake Responses API (`runCodex`), and
 * the offline `codex debug prompt-input` (`codexPromptInput`) with parsers for the skills and roles it lists.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoggedRequest } from "../../../src/doctor/fake-model/http.js";
import type { ResponsesTool } from "../../../src/doctor/fake-model/responses.js";
import { ensureHosts } from "./install.js";
import {
  baseEnv,
  makeSandbox,
  type ProcessResult,
  parseJsonLines,
  runProcess,
  type Sandbox,
} from "./sandbox.js";

/** One `--json` event (`thread.started`, `turn.started`, `item.started`, `item.completed`, `turn.completed`, …). */
export interface CodexEvent {
  type: string;
  item?: { id?: string; type: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The default model slug: not in the bundled catalog, so Codex uses fallback metadata (`multi_agent_v1`). */
export const FAKE_MODEL = "fake-model";
/** A catalog slug with the newer tool surface (`collaboration`), needed to see roles in `prompt-input`. */
export const CATALOG_MODEL = "gpt-6-sol";

export interface CodexConfigOptions {
  /** The fake's `baseUrl` (`http://127.0.0.1:<port>/v1`); omitted for offline commands. */
  baseUrl?: string;
  /** Absolute project path that gets a trust entry (trusted projects load `.codex/` roles, hooks, config). */
  trustedProject?: string;
  model?: string;
  /** Appended verbatim (TOML), e.g. `[features]` or inline hooks. */
  extraToml?: string;
}

const tomlString = (s: string) => JSON.stringify(s);

/** Write `$home/.codex/config.toml` with the fake provider and the trust entry. Returns its path. */
export function writeCodexConfig(home: string, opts: CodexConfigOptions): string {
  const lines = [`model = ${tomlString(opts.model ?? FAKE_MODEL)}`];
  if (opts.baseUrl) {
    lines.push(
      `model_provider = "fake"`,
      "",
      "[model_providers.fake]",
      `name = "Fake"`,
      `base_url = ${tomlString(opts.baseUrl)}`,
      `wire_api = "responses"`,
      `env_key = "FAKE_API_KEY"`,
    );
  }
  if (opts.trustedProject) {
    lines.push("", `[projects.${tomlString(opts.trustedProject)}]`, `trust_level = "trusted"`);
  }
  if (opts.extraToml) lines.push("", opts.extraToml);
  const dir = join(home, ".codex");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "config.toml");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

export interface CodexRunOptions {
  prompt: string;
  /** The fake server (only `baseUrl` and `requests` are used). */
  fake: { baseUrl: string; requests: LoggedRequest[] };
  /** HOME and project; a fresh one is made when omitted (clean it up with `run.sandbox.cleanup()`). */
  sandbox?: Sandbox;
  /** Model slug; default `fake-model`. */
  model?: string;
  /** Write a trust entry for the project; default true. */
  trusted?: boolean;
  /** Extra TOML for `$HOME/.codex/config.toml`. */
  extraToml?: string;
  /** `-s <mode>`; default `workspace-write`. */
  sandboxMode?: "read-only" | "workspace-write" | "danger-full-access";
  /** `--dangerously-bypass-hook-trust`; default true (without it no hook runs at all). */
  bypassHookTrust?: boolean;
  extraArgs?: string[];
  /** Extra environment for the host (and so for its hooks), e.g. `E2E_HOOK_LOG`. */
  env?: Record<string, string>;
  /** Kill timer; default 60 s. */
  timeoutMs?: number;
}

export interface CodexRun extends ProcessResult {
  events: CodexEvent[];
  nonJsonLines: string[];
  /** Items of `item.completed` events, in order. */
  items: NonNullable<CodexEvent["item"]>[];
  /** Messages of `error` items (the hook-trust bypass notice appears here twice). */
  errors: string[];
  /** The last `turn.completed` event. */
  turnCompleted: CodexEvent | undefined;
  requests: LoggedRequest[];
  sandbox: Sandbox;
}

async function codexBin(): Promise<string> {
  const hosts = await ensureHosts();
  if (!hosts.codex) throw new Error(`Codex unavailable: ${hosts.skipReason ?? "unknown reason"}`);
  return hosts.codex.bin;
}

/** Run `codex exec --json --dangerously-bypass-hook-trust -s workspace-write <prompt> </dev/null`. */
export async function runCodex(opts: CodexRunOptions): Promise<CodexRun> {
  const bin = await codexBin();
  const sandbox = opts.sandbox ?? (await makeSandbox());
  writeCodexConfig(sandbox.home, {
    baseUrl: opts.fake.baseUrl,
    ...(opts.trusted === false ? {} : { trustedProject: sandbox.project }),
    ...(opts.model ? { model: opts.model } : {}),
    ...(opts.extraToml ? { extraToml: opts.extraToml } : {}),
  });
  const args = ["exec", "--json"];
  if (opts.bypassHookTrust !== false) args.push("--dangerously-bypass-hook-trust");
  args.push("-s", opts.sandboxMode ?? "workspace-write");
  args.push(...(opts.extraArgs ?? []), opts.prompt);
  const from = opts.fake.requests.length;
  const proc = await runProcess(bin, args, {
    cwd: sandbox.project,
    env: baseEnv(sandbox.home, { FAKE_API_KEY: "dummy", ...opts.env }),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const { events, nonJson } = parseJsonLines<CodexEvent>(proc.stdout);
  const items = events.filter((e) => e.type === "item.completed" && e.item).map((e) => e.item!);
  return {
    ...proc,
    events,
    nonJsonLines: nonJson,
    items,
    errors: items.filter((i) => i.type === "error").map((i) => String(i.message ?? "")),
    turnCompleted: events.findLast((e) => e.type === "turn.completed"),
    requests: opts.fake.requests.slice(from),
    sandbox,
  };
}

export interface ListedSkill {
  name: string;
  description: string;
  /** As printed, e.g. `r1/probe-skill/SKILL.md`. */
  file: string;
}

export interface ListedRole {
  name: string;
  /** The text between `{` and `}` (description plus any notes Codex adds). */
  description: string;
}

/** Skills listed in a `<skills_instructions>` text: lines `- <name>: <description> (file: <path>)` (pure). */
export function skillsFromText(text: string): ListedSkill[] {
  const start = text.indexOf("### Available skills");
  if (start < 0) return [];
  const out: ListedSkill[] = [];
  for (const line of text.slice(start).split("\n").slice(1)) {
    if (line.startsWith("#") || line.startsWith("<")) break;
    const m = /^- ([^:]+): (.*) \(file: ([^()]+)\)$/.exec(line);
    if (m?.[1] && m[2] !== undefined && m[3]) out.push({ name: m[1], description: m[2], file: m[3] });
  }
  return out;
}

/** Roles listed after "Available roles:" as `<name>: {` … `}` blocks (pure). */
export function rolesFromDescription(text: string): ListedRole[] {
  const start = text.indexOf("Available roles:");
  if (start < 0) return [];
  const out: ListedRole[] = [];
  let current: { name: string; body: string[] } | undefined;
  for (const line of text.slice(start).split("\n").slice(1)) {
    if (current) {
      if (line === "}") {
        out.push({ name: current.name, description: current.body.join("\n") });
        current = undefined;
      } else current.body.push(line);
      continue;
    }
    const m = /^(.+): \{$/.exec(line);
    if (m?.[1]) current = { name: m[1], body: [] };
  }
  return out;
}

/** Find `spawn_agent` in a tools array (top level or inside a namespace) and list its roles (pure). */
export function rolesFromTools(tools: ResponsesTool[] | undefined): ListedRole[] {
  if (!Array.isArray(tools)) return [];
  for (const t of tools) {
    const candidates = t.type === "namespace" && Array.isArray(t.tools) ? t.tools : [t];
    for (const c of candidates) {
      if (c.name !== "spawn_agent") continue;
      const params = c.parameters as { properties?: { agent_type?: { description?: unknown } } } | undefined;
      const desc = params?.properties?.agent_type?.description;
      return typeof desc === "string" ? rolesFromDescription(desc) : [];
    }
  }
  return [];
}

export interface PromptInput extends ProcessResult {
  /** The parsed JSON array (empty when stdout was not JSON). */
  items: Record<string, unknown>[];
  /** Skills from the `<skills_instructions>` developer message. */
  listedSkills(): ListedSkill[];
  /**
   * Custom and built-in roles from `spawn_agent`'s `agent_type` description in the `additional_tools` item.
   * Empty with a slug outside the catalog (no `additional_tools`), in an untrusted project, or when no custom
   * role loaded (then `agent_type` is absent). Use a catalog slug such as `gpt-6-sol`.
   */
  listedRoles(): ListedRole[];
  /** The `additional_tools` item's namespaces, if present. */
  additionalTools(): ResponsesTool[];
}

function messageText(item: Record<string, unknown>): string {
  const content = item.content;
  if (!Array.isArray(content)) return typeof content === "string" ? content : "";
  return content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("\n");
}

/**
 * `codex debug prompt-input [prompt]` in `projectDir` with HOME `home` (no server). Trust for roles comes from
 * `$home/.codex/config.toml` (see `writeCodexConfig`). `slug` is passed as `-c model="<slug>"`.
 */
export async function codexPromptInput(
  projectDir: string,
  home: string,
  slug?: string,
  prompt?: string,
): Promise<PromptInput> {
  const bin = await codexBin();
  const args = ["debug", "prompt-input"];
  if (slug) args.push("-c", `model=${tomlString(slug)}`);
  if (prompt !== undefined) args.push(prompt);
  const proc = await runProcess(bin, args, {
    cwd: projectDir,
    env: baseEnv(home, { FAKE_API_KEY: "dummy" }),
  });
  let items: Record<string, unknown>[] = [];
  try {
    const v = JSON.parse(proc.stdout) as unknown;
    if (Array.isArray(v)) items = v as Record<string, unknown>[];
  } catch {
    items = [];
  }
  const additionalTools = (): ResponsesTool[] => {
    const at = items.find((i) => i.type === "additional_tools");
    return Array.isArray(at?.tools) ? (at.tools as ResponsesTool[]) : [];
  };
  return {
    ...proc,
    items,
    listedSkills: () => {
      const msg = items.find(
        (i) => i.role === "developer" && messageText(i).includes("<skills_instructions>"),
      );
      return msg ? skillsFromText(messageText(msg)) : [];
    },
    listedRoles: () => rolesFromTools(additionalTools()),
    additionalTools,
  };
}
