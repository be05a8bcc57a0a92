/**
 * Parse a JSON document that repeats a large value already parsed before. A wave of runs stores the same
 * dirty manifest (thousands of entries) in every run's `baseline.json`; checking the wave would otherwise
 * parse it once per run. The value is found by scanning only the top level of the document; everything
 * else is parsed by `JSON.parse`, which stays the judge of whether the text is JSON at all.
 */

/** A JSON value's exact text and what `JSON.parse` made of it. */
export interface KnownValue {
  /** Must be an array or object text (self-delimiting), exactly as it appears in documents. */
  text: string;
  value: unknown;
}

/**
 * `JSON.parse(text)` as a plain object, except that the value of its top-level property `key` is
 * `known.value` (the same object, not a copy) instead of being parsed again. Applies only when the text of
 * that value is exactly `known.text` and `key` occurs once at the top level; otherwise `undefined`, and the
 * caller parses the whole text. Never returns a document that `JSON.parse(text)` would not: the rest of the
 * text, with `null` in the value's place, must parse, which proves the value sat in a value position.
 */
export function parseReusing(
  text: string,
  key: string,
  known: KnownValue,
): Record<string, unknown> | undefined {
  const first = known.text.charCodeAt(0);
  if (first !== OPEN_ARRAY && first !== OPEN_OBJECT) return undefined;
  const at = topLevelValue(text, key, known.text);
  if (at === undefined) return undefined;
  let rest: unknown;
  try {
    rest = JSON.parse(`${text.slice(0, at.start)}null${text.slice(at.end)}`);
  } catch {
    return undefined;
  }
  if (typeof rest !== "object" || rest === null || Array.isArray(rest)) return undefined;
  const doc = rest as Record<string, unknown>;
  // Always true once the rest parsed (the scan found `key` once, at the top level); checked all the same.
  if (!Object.hasOwn(doc, key) || doc[key] !== null) return undefined;
  Object.defineProperty(doc, key, {
    value: known.value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
  return doc;
}

/**
 * The exact text of the top-level property `key` of a JSON object text, or `undefined` when the text is not
 * an object, the key is absent or repeated, or the scan fails. For remembering a value to reuse later: the
 * caller must have parsed `text` successfully, so the scan reads the same structure `JSON.parse` did.
 */
export function topLevelValueText(text: string, key: string): string | undefined {
  const at = topLevelValue(text, key, undefined);
  return at === undefined ? undefined : text.slice(at.start, at.end);
}

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Where the value of top-level `key` starts and ends. With `known`, that value must start with exactly
 * `known` and is taken to end after it (a complete array or object text ends where it ends); without, it is
 * scanned. Keys are compared after decoding, so an escaped spelling of `key` counts as a repeat.
 */
function topLevelValue(
  text: string,
  key: string,
  known: string | undefined,
): { start: number; end: number } | undefined {
  let i = skipWs(text, 0);
  if (text.charCodeAt(i) !== OPEN_OBJECT) return undefined;
  i = skipWs(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return undefined;
  let found: { start: number; end: number } | undefined;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    let name: unknown;
    try {
      name = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return undefined;
    }
    i = skipWs(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const start = skipWs(text, i + 1);
    let end: number;
    if (name === key) {
      if (found !== undefined) return undefined;
      if (known === undefined) end = skipValue(text, start);
      // (a sliced comparison is several times faster than startsWith on long texts)
      else end = text.slice(start, start + known.length) === known ? start + known.length : -1;
      if (end < 0) return undefined;
      found = { start, end };
    } else {
      end = skipValue(text, start);
      if (end < 0) return undefined;
    }
    i = skipWs(text, end);
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      i = skipWs(text, i + 1);
      continue;
    }
    if (c === CLOSE_OBJECT) break;
    return undefined;
  }
  if (skipWs(text, i + 1) !== text.length) return undefined;
  return found;
}

/** JSON whitespace: space, tab, line feed, carriage return. */
function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
}

/** The index after the string starting at `i` (a quote), or -1 when it does not end. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/**
 * The index after the value starting at `i`, or -1. Strings and nesting are followed exactly; a number or
 * literal runs to the next delimiter (JSON.parse checks its spelling).
 */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === QUOTE) {
        j = skipString(text, j) - 1;
        if (j < 0) return -1;
      } else if (d === OPEN_ARRAY || d === OPEN_OBJECT) depth++;
      else if (d === CLOSE_ARRAY || d === CLOSE_OBJECT) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (
      d === COMMA ||
      d === CLOSE_OBJECT ||
      d === CLOSE_ARRAY ||
      d === 0x20 ||
      d === 0x09 ||
      d === 0x0a ||
      d === 0x0d
    )
      break;
    j++;
  }
  return j > i ? j : -1;
}
