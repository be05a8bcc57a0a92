/**
 * Text rewrite tables: an ordered list of named rules, each a global regular expression and its replacement.
 * The pack is written in Claude Code's vocabulary; an adapter that needs other words applies its table to
 * every text it renders. Rules are applied in order, so specific phrases come before the words they contain.
 */

export interface RewriteRule {
  /** Stable name, used by tests (every rule has positive and near-miss cases) and in messages. */
  id: string;
  /** Global (`g`) expression. */
  pattern: RegExp;
  /** Replacement, with `$1`… references, as for `String.prototype.replace`. */
  replace: string;
}

/** Apply every rule of `table` in order. */
export function applyRewrites(text: string, table: readonly RewriteRule[]): string {
  let out = text;
  for (const rule of table) out = out.replace(rule.pattern, rule.replace);
  return out;
}

/** A token that must not survive a rewrite, with what to do about it. */
export interface Leftover {
  pattern: RegExp;
  what: string;
}

/** 1-based lines of `text` where a leftover token appears, with the token. */
export function findLeftovers(
  text: string,
  leftovers: readonly Leftover[],
): { line: number; what: string }[] {
  const out: { line: number; what: string }[] = [];
  text.split("\n").forEach((line, i) => {
    for (const l of leftovers) {
      l.pattern.lastIndex = 0;
      if (l.pattern.test(line)) out.push({ line: i + 1, what: l.what });
    }
  });
  return out;
}
