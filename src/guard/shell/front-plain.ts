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

import { FRONT_RULES } from "./front-table.js";
import { SHELLS } from "./known-words.js";
import { MAX_SIMPLE_COMMANDS, MAX_WORDS } from "./walk.js";
import { commandBase } from "./words.js";

/**
 * Longest command the shortcut reads. A simple command or a word takes at least two characters with its
 * separator, so a command this long holds at most half of each cap's count: derived from the smaller cap.
 */
export const PLAIN_MAX = Math.min(MAX_SIMPLE_COMMANDS, MAX_WORDS);

const PLAIN = /^[A-Za-z0-9_\-./,:=+@%^ \t\n|;&]*$/;
const SEPARATORS = /[ \t\n|;&]+/;

/** Every word that can start a match: the rules' programs, the wrappers, the shells. */
export function starters(wrappers: Iterable<string>): ReadonlySet<string> {
  const out = new Set<string>([...wrappers, ...SHELLS]);
  for (const rule of FRONT_RULES) {
    const first = rule.prefix[0];
    for (const name of typeof first === "string" ? [first] : first) out.add(name);
  }
  return out;
}

/** Whether no rule of the front table can match anything in `command` (see the module comment). */
export function plainlyUnmatched(command: string, startWords: ReadonlySet<string>): boolean {
  if (command.length > PLAIN_MAX || !PLAIN.test(command)) return false;
  for (const w of command.split(SEPARATORS)) {
    if (w !== "" && startWords.has(commandBase(w))) return false;
  }
  return true;
}
