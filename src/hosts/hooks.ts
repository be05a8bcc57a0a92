/**
 * Hook wiring rendered as the hosts' shared JSON shape (Claude Code settings and plugin `hooks.json`, Codex
 * `hooks.json`): event → matcher groups → command handlers.
 */

import type { HookWiring } from "../pack/index.js";
import { hookCommand } from "./launcher.js";
import { HOOK_BUNDLE_EXT } from "./output-path.js";

export interface HookHandler {
  type: "command";
  command: string;
  timeout: number;
}

/** `{hooks: {Event: [{matcher, hooks: [handler]}]}}` for the wiring, with `command(entry)` per entry. */
export function hooksObject(
  wiring: readonly HookWiring[],
  command: (w: HookWiring) => string,
): { hooks: Record<string, { matcher: string; hooks: HookHandler[] }[]> } {
  const hooks: Record<string, { matcher: string; hooks: HookHandler[] }[]> = {};
  for (const w of wiring) {
    const group = {
      matcher: w.matcher,
      hooks: [{ type: "command" as const, command: command(w), timeout: w.timeout }],
    };
    hooks[w.event] = [...(hooks[w.event] ?? []), group];
  }
  return { hooks };
}

/** The project launcher for `w`: the guard fails closed for leaves; the others report and let the call go. */
export function projectHookCommand(w: HookWiring): string {
  return hookCommand(w.entry, { failClosed: w.event === "PreToolUse", timeoutSec: w.timeout });
}

/**
 * A plugin's hook command: the launcher runs only the plugin's own bundle, `$<rootVar>/hooks/<entry>.cjs`, and
 * the guard still fails closed for leaves when that bundle is missing, crashes or hangs (a plain
 * `node "$ROOT/hooks/x.cjs"` fails open on both hosts in those cases).
 */
export function pluginHookCommand(w: HookWiring, rootVar: "CLAUDE_PLUGIN_ROOT" | "PLUGIN_ROOT"): string {
  return hookCommand(w.entry, {
    failClosed: w.event === "PreToolUse",
    timeoutSec: w.timeout,
    candidates: [`"$\{${rootVar}}/hooks/${w.entry}${HOOK_BUNDLE_EXT}"`],
    walk: false,
  });
}
