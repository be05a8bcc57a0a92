/**
 * Text normalisation for routing (pure): Unicode-folded lowercase tokens, a light stemmer so inflections
 * meet (`shipping` ~ `ship`, `releases` ~ `release`), and negation masking (`don't ship` does not vote for
 * shipping).
 */

/** The longest text the router reads; the rest is ignored (routing is about the start of a request). */
export const MAX_TEXT = 2000;

const NEGATORS = new Set(["not", "dont", "no", "never", "without", "cant", "wont", "stop", "nothing"]);
/** Tokens after a negator that it masks. */
const NEGATION_WINDOW = 2;
/** A masked token: matches no hint. */
export const MASK = "\u0000";

export const STOPWORDS = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "for",
  "and",
  "or",
  "in",
  "on",
  "at",
  "it",
  "its",
  "this",
  "that",
  "these",
  "those",
  "my",
  "our",
  "your",
  "me",
  "us",
  "we",
  "i",
  "im",
  "you",
  "please",
  "can",
  "could",
  "would",
  "will",
  "should",
  "let",
  "lets",
  "be",
  "is",
  "are",
  "was",
  "were",
  "so",
  "now",
  "then",
  "with",
  "some",
  "all",
  "any",
  "go",
  "ahead",
  "ok",
  "okay",
  "hey",
  "do",
  "does",
  "did",
  "have",
  "has",
  "get",
  "want",
  "need",
  "like",
  "also",
  "just",
  "there",
  "here",
  "from",
  "by",
  "as",
  "into",
  "about",
]);

/** Lowercased, accent-free words of letters and digits; apostrophes join (`what's` → `whats`). */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’`]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

const DOUBLE = /([bcdfgkmnprtvz])\1$/;

/** A deliberately small stemmer: one suffix off, a doubled consonant undoubled, a final `e` dropped. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && /(ss|x|z|ch|sh|s)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (DOUBLE.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Stemmed tokens of a request, negated words masked. */
export function requestTokens(text: string): string[] {
  const ws = words(text.slice(0, MAX_TEXT));
  const out: string[] = [];
  let masked = 0;
  for (const w of ws) {
    if (NEGATORS.has(w)) {
      masked = NEGATION_WINDOW;
      out.push(MASK);
      continue;
    }
    if (masked > 0 && !STOPWORDS.has(w)) {
      masked--;
      out.push(MASK);
      continue;
    }
    out.push(stem(w));
  }
  return out;
}

/** Stemmed tokens of a hint phrase. */
export function hintTokens(hint: string): string[] {
  return words(hint).map(stem);
}
