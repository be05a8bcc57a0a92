/**
 * The front table's shortcut: a command that no rule can match is answered without parsing it. Most of a leaf's
 * shell calls are plain reads (`grep -rn x src | sort | head`); parsing them only to find that nothing matches
 * costs the hook more than the rest of the answer (docs/hooks.md, Speed).
 *
 * A command is *plainly unmatched* when all of this holds:
 * - it is at most `PLAIN_MAX` characters, so far below the walk's caps (`MAX_SIMPLE_COMMANDS`, `MAX_WORDS`)
 *   that skipping the walk can never skip a cap's refusal;
 * - it holds only letters, digits, `_-./,:=+@%^`, blanks and the separators `|`, `;`, `&`: no quote, escape,
 *   expansion, glob, brace, parenthesis, comment or redirect, so its words are exactly the runs between blanks
 *   and separators and the shell sees them as written;
 * - none of its words, by base name (as `commandBase` reads a program name), is a program a rule starts with,
 *   a wrapper the walk looks through, or a shell whose `-c` script it reads.
 *
 * Then the walk would find no rule (a rule matches only from its program word), no redirect and no writer, so
 * its answer is no effect: the kernel decides, as it does for any command the table does not name. The full
 * walk stays the definition; front-plain.test.ts checks the shortcut against it on generated commands.
 */

import { MAX_SIMPLE_COMMANDS, MAX_WORDS } from "./caps.js";
import { commandBase } from "./command-name.js";

/**
 * Longest command the shortcut reads. A simple command or a word takes at least two characters with its
 * separator, so a command this long holds at most half of each cap's count: derived from the smaller cap.
 */
export const PLAIN_MAX = Math.min(MAX_SIMPLE_COMMANDS, MAX_WORDS);

const PLAIN = /^[A-Za-z0-9_\-./,:=+@%^ \t\n|;&]*$/;
const SEPARATORS = /[ \t\n|;&]+/;

/** Whether no rule of the front table can match anything in `command` (see the module comment). */
export function plainlyUnmatched(command: string, startWords: ReadonlySet<string> = FRONT_STARTERS): boolean {
  if (command.length > PLAIN_MAX || !PLAIN.test(command)) return false;
  for (const w of command.split(SEPARATORS)) {
    if (w !== "" && startWords.has(commandBase(w))) return false;
  }
  return true;
}

/**
 * Every word that can start a match of the front table: its rules' programs, its wrappers, the shells. A list
 * here, not derived from the table, so the shortcut sits in the hook bundle's eager part without the table;
 * front-plain.test.ts fails when it is not exactly `frontStarters()` (./front.ts), which derives it.
 */
export const FRONT_STARTERS: ReadonlySet<string> = new Set([
  "aider",
  "amp",
  "apk",
  "apt",
  "apt-get",
  "ash",
  "bash",
  "brew",
  "bun",
  "bundle",
  "bunx",
  "busybox",
  "cargo",
  "chattr",
  "chgrp",
  "chmod",
  "chown",
  "claude",
  "codex",
  "command",
  "copilot",
  "cp",
  "crush",
  "cursor-agent",
  "dash",
  "devin",
  "devrites",
  "dnf",
  "doas",
  "droid",
  "env",
  "exec",
  "gem",
  "gemini",
  "gh",
  "git",
  "go",
  "goose",
  "gsed",
  "install",
  "kiro-cli",
  "ksh",
  "ln",
  "mkdir",
  "mkfifo",
  "mknod",
  "mksh",
  "mv",
  "nice",
  "nohup",
  "npm",
  "npx",
  "opencode",
  "openhands",
  "perl",
  "pip",
  "pip3",
  "pipx",
  "pnpm",
  "poetry",
  "port",
  "python",
  "python3",
  "qwen",
  "rm",
  "rmdir",
  "rsync",
  "sed",
  "setfacl",
  "sh",
  "shred",
  "snap",
  "stdbuf",
  "sudo",
  "tee",
  "time",
  "timeout",
  "touch",
  "truncate",
  "twine",
  "unlink",
  "uv",
  "xargs",
  "yarn",
  "yum",
  "zsh",
]);
