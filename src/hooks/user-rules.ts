/**
 * The user's own Claude Code permission rules for a leaf's shell call: read the settings files Claude Code reads,
 * keep their `deny` and `ask` rules, and match them against the original command (`user-rules-match.ts`).
 *
 * Files, all read (a deny rule in any of them denies, whatever the others allow; Claude merges the rule arrays
 * of every scope and evaluates deny, then ask, then allow):
 *
 * - managed: `/etc/claude-code/managed-settings.json` and `/etc/claude-code/managed-settings.d/*.json` on Linux,
 *   `/Library/Application Support/ClaudeCode/managed-settings.json` (and `.d/`) on macOS;
 * - user: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`;
 * - project: `.claude/settings.json` and `.claude/settings.local.json` in the repository root and, when it is
 *   another folder, in `CLAUDE_PROJECT_DIR`.
 *
 * When a managed file sets `allowManagedPermissionRulesOnly: true`, Claude ignores the other files' rules, and so
 * does this. A `--settings` file or `--disallowedTools` on Claude's command line is not visible to a hook: those
 * rules are not applied here (docs/guard-policy.md).
 *
 * A missing file has no rules. A file that exists but cannot be read, is larger than `MAX_SETTINGS_BYTES`, is not
 * JSON, or has a `permissions.deny`/`permissions.ask` that is not a list of strings is an error: the leaf's shell
 * call is denied (fail closed), naming the file. Cost: a few small file reads, only for a leaf's shell call.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { GuardRule } from "../guard/types.js";
import { matchUserRules, type RuleBehavior, type RuleMatch, type UserRule } from "./user-rules-match.js";

export const MAX_SETTINGS_BYTES = 1024 * 1024;
/** Managed drop-in files read at most (sorted by name). */
const MAX_DROP_INS = 64;

export type RulesLoad = { ok: true; rules: UserRule[] } | { ok: false; file: string; why: string };

export interface SettingsFile {
  path: string;
  managed: boolean;
}

/** The settings files Claude Code would read for a project at `root`, managed ones first. */
export function settingsFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): SettingsFile[] {
  const managedDir = platform === "darwin" ? "/Library/Application Support/ClaudeCode" : "/etc/claude-code";
  const files: SettingsFile[] = [{ path: join(managedDir, "managed-settings.json"), managed: true }];
  for (const name of dropIns(join(managedDir, "managed-settings.d"))) {
    files.push({ path: join(managedDir, "managed-settings.d", name), managed: true });
  }
  const configDir = env.CLAUDE_CONFIG_DIR || (env.HOME ? join(env.HOME, ".claude") : undefined);
  if (configDir) files.push({ path: join(configDir, "settings.json"), managed: false });
  const projects = new Set([resolve(root)]);
  if (env.CLAUDE_PROJECT_DIR?.startsWith("/")) projects.add(resolve(env.CLAUDE_PROJECT_DIR));
  for (const p of projects) {
    files.push({ path: join(p, ".claude", "settings.json"), managed: false });
    files.push({ path: join(p, ".claude", "settings.local.json"), managed: false });
  }
  return files;
}

function dropIns(dir: string): string[] {
  try {
    // no drop-in folder is the common case: answered by a stat, not by readdir's exception
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
    return readdirSync(dir)
      .filter((n) => n.endsWith(".json") && !n.startsWith("."))
      .sort()
      .slice(0, MAX_DROP_INS);
  } catch {
    return []; // no drop-in folder (the common case)
  }
}

type FileRead =
  | { ok: true; rules: UserRule[]; managedOnly: boolean }
  | { ok: false; why: string }
  | { ok: true; missing: true };

/** One settings file's `deny` and `ask` rules. Pure but for the read. */
export function readSettingsRules(path: string): FileRead {
  let text: string;
  try {
    // a missing file (the common case) without an exception: a hook's first one costs more than the read
    const st = statSync(path, { throwIfNoEntry: false });
    if (st === undefined) return { ok: true, missing: true };
    if (!st.isFile()) return { ok: false, why: "it is not a regular file" };
    if (st.size > MAX_SETTINGS_BYTES)
      return { ok: false, why: `it is larger than ${MAX_SETTINGS_BYTES} bytes` };
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: true, missing: true };
    return { ok: false, why: `it cannot be read (${code ?? (e as Error).message})` };
  }
  return rulesFromText(path, text);
}

/** The rules of one settings file's text (exported for tests). */
export function rulesFromText(path: string, text: string): FileRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `it is not valid JSON (${(e as Error).message})` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, why: "it is not a JSON object" };
  }
  const obj = value as Record<string, unknown>;
  const perms = obj.permissions;
  const managedOnly = obj.allowManagedPermissionRulesOnly === true;
  if (perms === undefined) return { ok: true, rules: [], managedOnly };
  if (perms === null || typeof perms !== "object" || Array.isArray(perms)) {
    return { ok: false, why: "its `permissions` is not an object" };
  }
  const rules: UserRule[] = [];
  for (const behavior of ["deny", "ask"] as const satisfies readonly RuleBehavior[]) {
    const list = (perms as Record<string, unknown>)[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((r) => typeof r === "string")) {
      return { ok: false, why: `its \`permissions.${behavior}\` is not a list of strings` };
    }
    for (const text of list as string[]) rules.push({ text, behavior, source: path });
  }
  return { ok: true, rules, managedOnly };
}

/** Every deny and ask rule from `files`, or the first file that could not be read. */
export function loadUserRules(files: readonly SettingsFile[]): RulesLoad {
  const managed: UserRule[] = [];
  const others: UserRule[] = [];
  let managedOnly = false;
  for (const f of files) {
    const r = readSettingsRules(f.path);
    if (!r.ok) return { ok: false, file: f.path, why: r.why };
    if ("missing" in r) continue;
    (f.managed ? managed : others).push(...r.rules);
    if (f.managed && r.managedOnly) managedOnly = true;
  }
  return { ok: true, rules: managedOnly ? managed : [...managed, ...others] };
}

export type UserRuleVerdict =
  | { kind: "none" }
  | { kind: "deny"; rule: GuardRule; reason: string; input: string };

const USER_DENY_RULE = "guard.user-deny-rule" satisfies GuardRule;
const USER_RULES_UNREADABLE = "guard.user-rules-unreadable" satisfies GuardRule;
const USER_ASK_RULE = "guard.user-ask-rule" satisfies GuardRule;

/**
 * What the user's own rules say about a leaf's original shell command `command`: nothing, or deny (a deny rule
 * matched, an ask rule matched, or a settings file could not be read).
 */
export function checkUserRules(
  command: string | readonly string[],
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  who: string,
): UserRuleVerdict {
  const load = loadUserRules(settingsFiles(root, env));
  if (!load.ok) {
    return {
      kind: "deny",
      rule: USER_RULES_UNREADABLE,
      input: load.file,
      reason: `devrites guard denied this call [${USER_RULES_UNREADABLE}] ${who}: the Claude Code settings file ${load.file} may hold your permission rules for this command, but ${load.why}, so they cannot be checked. Fix or remove the file (its rules are also ignored by Claude Code while it is broken).`,
    };
  }
  // no rule, no match: the matcher (a lazy part of the hook bundle, with its own shell parser) is not loaded
  if (load.rules.length === 0) return { kind: "none" };
  const m = matchUserRules(command, load.rules);
  if (m === undefined) return { kind: "none" };
  // An ask rule is denied too: no one can be asked for a leaf's call. `claude -p` refuses an `ask` anyway, and
  // Codex 0.169.0 answered a hook's `ask` by running the original command unsandboxed (docs/guard-policy.md).
  const ask = m.rule.behavior === "ask";
  return {
    kind: "deny",
    rule: ask ? USER_ASK_RULE : USER_DENY_RULE,
    input: "command",
    reason: `devrites guard denied this call [${ask ? USER_ASK_RULE : USER_DENY_RULE}] ${who}: ${describeMatch(m)}. ${
      ask
        ? "The user wants to be asked before this runs, and a leaf's call cannot be put to them: do not run it; if it is needed, say so in your result (the root can run it, and its host asks the user)"
        : "Do not run this command; if it is needed, say so in your result (the rule belongs to the user; devrites applies it because the sandboxed command would no longer match it)"
    }.`,
  };
}

function describeMatch(m: RuleMatch): string {
  const how = m.unsure
    ? `may match \`${m.subject}\`: ${m.unsure}, so the rule is treated as matching`
    : `matches \`${m.subject}\``;
  return `the permission rule "${m.rule.text}" (${m.rule.behavior}) in ${m.rule.source} ${how}`;
}
