/** Reading the scratch repository's hook log (`DEVRITES_HOOK_LOG`: one `{hook, stdin, …}` line per hook run). */

import { existsSync, readFileSync } from "node:fs";
import type { HookCall } from "./probes.js";

/** The parsed stdin of every run of `hook` (`pre-tool-use`, `subagent-stop`); unreadable lines are skipped. */
export function hookCalls(logFile: string, hook: string): HookCall[] {
  if (!existsSync(logFile)) return [];
  const out: HookCall[] = [];
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as { hook?: unknown; stdin?: unknown };
      if (entry.hook !== hook || typeof entry.stdin !== "string") continue;
      const input = JSON.parse(entry.stdin) as unknown;
      if (input && typeof input === "object" && !Array.isArray(input)) out.push(input as HookCall);
    } catch {
      // a torn or foreign line is not evidence either way
    }
  }
  return out;
}
