/**
 * One shell-quoting function for every word the sandbox planner puts into a command. The result reads as the
 * same single word in POSIX sh, bash, zsh (also with `RC_QUOTES`) and fish: plain text goes inside single
 * quotes, and the two characters some shells treat specially inside single quotes (`'` everywhere, `\` in
 * fish) are written outside them as `\'` and `\\`. Never emits two adjacent single quotes except for the
 * empty word `''`.
 */

/** Characters that need no quoting in any of the shells above. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  if (word.includes("\u0000")) throw new Error("a shell word cannot contain a NUL byte");
  if (word === "") return "''";
  if (PLAIN.test(word)) return word;
  // runs of ordinary characters inside single quotes, each `'` and `\` outside them, escaped
  return word.replace(/[^'\\]+|['\\]/g, (m) => (m === "'" || m === "\\" ? `\\${m}` : `'${m}'`));
}

/** A command line from argv words. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
