/** Small predicates over parsed words. */

import { DYN, type Word } from "./parse.js";
import { GLOB_BRACKET } from "./prescan.js";

export { commandBase } from "./command-name.js";

/** The word's text when it is fully known (no expansion, no glob), else undefined. */
export function literal(w: Word | undefined): string | undefined {
  return w && !w.dynamic && !w.glob ? w.text : undefined;
}

/**
 * Whether the word could be (or expand to) an option: it starts with `-`, starts with an expansion, may split
 * into several words, or is a glob whose first character is a wildcard (a file named `-i` would match).
 */
export function mayBeOption(w: Word): boolean {
  const first = w.text[0];
  if (first === "-" || first === DYN || w.split) return true;
  return w.glob && (first === "*" || first === "?" || first === GLOB_BRACKET);
}

/**
 * A word whose text is not known (an expansion or a glob) that could still be an option: where one option
 * turns a reading command into one that writes or runs a program, such a word must be refused.
 */
export function mayBecomeOption(w: Word): boolean {
  return literal(w) === undefined && mayBeOption(w);
}

/**
 * A word of a command given as an argv (Codex's word-list form): its text exactly, never an expansion or a glob
 * (no shell reads it).
 */
export function literalWord(text: string): Word {
  return { text, dynamic: false, split: false, glob: false };
}
