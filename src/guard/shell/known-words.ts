/**
 * Word lists both shell layers share: the classifier's command models (./commands/) and the front table
 * (./front-table.ts). Constants only: each lazy part of the hook bundle carries its own copy.
 */

/** Shells whose `-c SCRIPT` runs the script: what is inside is judged (or matched) as the script. */
export const SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "busybox",
]);

/** Other coding agents' CLIs: a leaf that starts one delegates (`guard.spawn`). */
export const AGENT_CLIS: readonly string[] = [
  "claude",
  "codex",
  "gemini",
  "aider",
  "opencode",
  "cursor-agent",
  "amp",
  "goose",
  "qwen",
  "crush",
  "droid",
  "copilot",
  "kiro-cli",
  "devin",
  "openhands",
];

/** `git branch` options that create, move, copy, delete or reconfigure a branch. */
export const GIT_BRANCH_MUTATING: readonly string[] = [
  "-d",
  "-D",
  "--delete",
  "-m",
  "-M",
  "--move",
  "-c",
  "-C",
  "--copy",
  "-f",
  "--force",
  "-u",
  "--set-upstream-to",
  "--unset-upstream",
  "--edit-description",
  "-t",
  "--track",
  "--no-track",
  "--create-reflog",
];
