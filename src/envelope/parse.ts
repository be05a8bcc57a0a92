/**
 * Parse envelopes into typed values or diagnostics. This is the API the validator and the CLI call; it never
 * throws, whatever the input.
 *
 * Codes:
 * - `envelope.malformed-json`: the text is not JSON (line and column in the message where known);
 * - `envelope.not-object`: the JSON is not an object;
 * - `envelope.version`: the version field is present but not a supported version (nothing else is checked);
 * - `envelope.missing-field`, `envelope.unknown-field`: a required field is absent, a field is not allowed;
 * - `envelope.schema`: anything else the schema rejects (type, pattern, range, enum, constant).
 *
 * One diagnostic per issue, in a deterministic order (schema field order; unknown fields last, in document
 * order). Messages read `at <path>: <what was expected>, got <short echo of the input>`.
 */

import { isUtf8 } from "node:buffer";
import type { z } from "zod";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { diag } from "../judge/codes.js";
import { type AgentPacket, type AgentResult, PACKET_VERSION, RESULT_VERSION } from "./types.js";
import { AgentPacketSchema, AgentResultSchema, FORMATS, INTEGER_EXPECTED, repoPathProblem } from "./zod.js";

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; diagnostics: Diagnostic[] };

export const SUPPORTED_PACKET_VERSIONS: readonly string[] = [PACKET_VERSION];
export const SUPPORTED_RESULT_VERSIONS: readonly string[] = [RESULT_VERSION];

// ---------------------------------------------------------------- JSON text

/**
 * Parse JSON text strictly. A byte-order mark at the start is `envelope.byte-order-mark`; text that is not
 * well-formed Unicode (a lone surrogate: what invalid UTF-8 became once decoded) is `envelope.invalid-encoding`;
 * a syntax error is `envelope.malformed-json` with its line and column; an object naming one key twice is
 * `envelope.duplicate-key` (JSON.parse would keep the last one silently). Otherwise JSON.parse's value.
 */
export function parseJsonText(text: string, path?: string): ParseOutcome<unknown> {
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, diagnostics: [byteOrderMark(path)] };
  const lone = loneSurrogateAt(text);
  if (lone !== undefined) {
    const where = lineColumn(text, lone);
    return {
      ok: false,
      diagnostics: [
        diag(
          "envelope.invalid-encoding",
          `not valid Unicode at line ${where.line}, column ${where.column}: a lone surrogate (U+${text.charCodeAt(lone).toString(16).toUpperCase()})`,
          path,
        ),
      ],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, diagnostics: [malformedJson(text, e, path)] };
  }
  const dup = duplicateKey(text);
  if (dup !== undefined) {
    const where = lineColumn(text, dup.offset);
    const d = diag(
      "envelope.duplicate-key",
      `at ${formatPath(dup.path)}: the key ${JSON.stringify(dup.key)} appears twice in one object (line ${where.line}, column ${where.column})`,
      path,
    );
    d.line = where.line;
    return { ok: false, diagnostics: [d] };
  }
  return { ok: true, value };
}

/**
 * Decode bytes as UTF-8, strictly: a byte-order mark is refused (`envelope.byte-order-mark`), and so is any
 * byte sequence that is not UTF-8 (`envelope.invalid-encoding`, with the byte offset) — never replaced by U+FFFD.
 * The decoded text re-encodes to exactly these bytes.
 */
export function decodeUtf8Strict(bytes: Uint8Array, path?: string): ParseOutcome<string> {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { ok: false, diagnostics: [byteOrderMark(path)] };
  // `isUtf8` (native validation) then the fast decoder; the fatal TextDecoder is the reference (a test holds
  // the two to the same verdict) and several times slower on large records.
  if (isUtf8(bytes))
    return {
      ok: true,
      value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
    };
  try {
    return { ok: true, value: FATAL_UTF8.decode(bytes) };
  } catch {
    const at = invalidUtf8Offset(bytes);
    return {
      ok: false,
      diagnostics: [
        diag(
          "envelope.invalid-encoding",
          `not valid UTF-8${at === undefined ? "" : ` at byte ${at}`}; nothing was decoded or replaced`,
          path,
        ),
      ],
    };
  }
}

/** `decodeUtf8Strict` then `parseJsonText`: the one strict reader of a stored JSON document. */
export function parseJsonBytes(bytes: Uint8Array, path?: string): ParseOutcome<unknown> {
  const text = decodeUtf8Strict(bytes, path);
  return text.ok ? parseJsonText(text.value, path) : text;
}

/** `ignoreBOM`: a leading mark stays in the text, so it is refused rather than silently dropped. */
const FATAL_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function byteOrderMark(path: string | undefined): Diagnostic {
  return diag("envelope.byte-order-mark", "the text starts with a byte-order mark (U+FEFF)", path);
}

/**
 * The byte offset of the first invalid UTF-8 sequence (for the message only; the lenient decoder locates
 * it, the fatal one above decided). Every U+FFFD the lenient decoder produced is compared with the bytes at
 * its offset: the first that is not a real `EF BF BD` marks the spot.
 */
function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  let byte = 0;
  let from = 0;
  for (let i = text.indexOf("\uFFFD"); i >= 0; i = text.indexOf("\uFFFD", i + 1)) {
    byte += Buffer.byteLength(text.slice(from, i), "utf8");
    from = i;
    if (bytes[byte] !== 0xef || bytes[byte + 1] !== 0xbf || bytes[byte + 2] !== 0xbd) return byte;
  }
  return undefined;
}

/** The UTF-16 offset of the first unpaired surrogate, or undefined when the text is well-formed. */
function loneSurrogateAt(text: string): number | undefined {
  const m = LONE_SURROGATE.exec(text);
  return m ? m.index : undefined;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface Frame {
  /** An object's keys so far: an array while the object is small (cheaper than a Set there), then a Set too. */
  keys: string[] | undefined;
  seen?: Set<string>;
  /** The current key (objects) or index (arrays), for the message. */
  at: string | number;
  expectKey: boolean;
}

/**
 * The first object key that occurs twice in one object of `text`, which JSON.parse has already accepted,
 * with the path of that object and the key's offset. Keys compare by their decoded value (`"a"` and
 * `"\u0061"` are the same key). Iterative: any nesting JSON.parse accepted is scanned, in one pass.
 */
export function duplicateKey(text: string): { key: string; path: Segment[]; offset: number } | undefined {
  const stack: Frame[] = [];
  const n = text.length;
  let top: Frame | undefined;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = text.indexOf('"', i + 1);
      while (end > 0 && text.charCodeAt(end - 1) === 0x5c && isEscaped(text, end))
        end = text.indexOf('"', end + 1);
      if (end < 0) return undefined; // unreachable for text JSON.parse accepted
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.seen ? top.seen.has(key) : top.keys.includes(key))
          return { key, path: stack.slice(0, -1).map((f) => f.at), offset: i };
        top.keys.push(key);
        if (top.seen) top.seen.add(key);
        else if (top.keys.length > SMALL_OBJECT) top.seen = new Set(top.keys);
        top.at = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      top = { keys: [], at: "", expectKey: true };
      stack.push(top);
    } else if (c === 0x5b /* [ */) {
      top = { keys: undefined, at: 0, expectKey: false };
      stack.push(top);
    } else if (c === 0x2c /* , */) {
      if (top?.keys) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      top = stack[stack.length - 1];
    }
  }
  return undefined;
}

const SMALL_OBJECT = 16;

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && text.charCodeAt(k) === 0x5c) k--;
  return (at - 1 - k) % 2 === 1;
}

function malformedJson(text: string, e: unknown, path: string | undefined): Diagnostic {
  const offset = jsonErrorOffset(text);
  const where = offset === undefined ? undefined : lineColumn(text, offset);
  const reason = engineReason(e);
  const message = where
    ? `not valid JSON at line ${where.line}, column ${where.column}: ${reason}`
    : `not valid JSON: ${reason}`;
  return error("envelope.malformed-json", message, {
    ...(path !== undefined ? { path } : {}),
    ...(where ? { line: where.line } : {}),
    hint: jsonHint(text),
  });
}

/** The engine's reason, without its position (we give our own) and without its echo of the input. */
function engineReason(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  return raw
    .replace(/\s+in JSON at position \d+(?: \(line \d+ column \d+\))?/, "")
    .replace(/, "[\s\S]*" is not valid JSON$/, "")
    .replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .trim();
}

/**
 * Offset of the first syntax error in text that JSON.parse rejected, found by a small RFC 8259 scanner so
 * the position does not depend on the JavaScript engine's wording. Undefined if the scanner finds none
 * (it agrees with JSON.parse; a test holds it to that) or the nesting is too deep to scan.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const at = (k: number) => text.charCodeAt(k);
  const fail = (): never => {
    throw new JsonSyntaxAt(i);
  };
  const space = () => {
    while (i < text.length && (at(i) === 32 || at(i) === 9 || at(i) === 10 || at(i) === 13)) i++;
  };
  const expect = (c: string) => {
    if (text[i] !== c) fail();
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const c = at(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c !== 92) {
        i++;
        continue;
      }
      i++;
      const e = text[i];
      if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
      else fail();
    }
  };
  const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === "{") {
          space();
          string();
          space();
          expect(":");
        }
        value();
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        expect(close);
        return;
      }
    }
    if (c === '"') {
      string();
      return;
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    number.lastIndex = i;
    if (!number.test(text)) fail();
    i = number.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (e) {
    return e instanceof JsonSyntaxAt ? e.offset : undefined;
  }
}

class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}

function jsonHint(text: string): string {
  if (text.startsWith("\uFEFF")) return "remove the byte-order mark at the start of the file";
  if (text.trim() === "") return "the file is empty; it must hold one JSON object";
  return "the file must hold exactly one JSON object, with no comments or trailing commas";
}

/** 1-based line and column (in UTF-16 units) of an offset; `\n`, `\r\n` and `\r` end lines. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

// ---------------------------------------------------------------- envelopes

interface EnvelopeKind<T> {
  /** `agent-packet/v1` */
  name: string;
  versionField: string;
  supported: readonly string[];
  schema: z.ZodType<T>;
  /** The other envelope, to recognise a document handed to the wrong parser. */
  sibling: { name: string; versionField: string };
  /** What to do about an unsupported version. */
  versionHint: string;
}

const PACKET_KIND: EnvelopeKind<AgentPacket> = {
  name: PACKET_VERSION,
  versionField: "packet_version",
  supported: SUPPORTED_PACKET_VERSIONS,
  schema: AgentPacketSchema,
  sibling: { name: RESULT_VERSION, versionField: "result_version" },
  versionHint: "write the packet with this version of devrites (`devrites packet new`)",
};

const RESULT_KIND: EnvelopeKind<AgentResult> = {
  name: RESULT_VERSION,
  versionField: "result_version",
  supported: SUPPORTED_RESULT_VERSIONS,
  schema: AgentResultSchema,
  sibling: { name: PACKET_VERSION, versionField: "packet_version" },
  versionHint: `the leaf must return "result_version": "${RESULT_VERSION}", as its packet's result_schema says`,
};

/** Check a parsed JSON value against `agent-packet/v1`. */
export function parsePacket(input: unknown, path?: string): ParseOutcome<AgentPacket> {
  return parseEnvelope(PACKET_KIND, input, path);
}

/** Check a parsed JSON value against `agent-result/v1`. */
export function parseResult(input: unknown, path?: string): ParseOutcome<AgentResult> {
  return parseEnvelope(RESULT_KIND, input, path);
}

function parseEnvelope<T>(kind: EnvelopeKind<T>, input: unknown, path: string | undefined): ParseOutcome<T> {
  const at = path !== undefined ? { path } : {};
  try {
    if (!isObject(input)) {
      return fail([
        error(
          "envelope.not-object",
          `at ${formatPath([])}: expected a JSON object (the ${kind.name} envelope), got ${echo(input)}`,
          { ...at, hint: `the file must hold one ${kind.name} object` },
        ),
      ]);
    }
    if (
      Object.hasOwn(input, kind.versionField) &&
      !kind.supported.includes(input[kind.versionField] as string)
    ) {
      const supported = kind.supported.map((v) => JSON.stringify(v)).join(", ");
      return fail([
        error(
          "envelope.version",
          `at ${kind.versionField}: expected a supported version (${supported}), got ${echo(input[kind.versionField])}`,
          { ...at, hint: kind.versionHint },
        ),
      ]);
    }
    const parsed = kind.schema.safeParse(input);
    if (parsed.success) return { ok: true, value: parsed.data };
    return fail(issuesToDiagnostics(parsed.error.issues, input, kind, at));
  } catch (e) {
    // Fail closed: an input the schema library cannot even walk is rejected, never accepted.
    return fail([
      error("envelope.schema", `the ${kind.name} envelope could not be checked: ${describeError(e)}`, {
        ...at,
        hint: "the input must be plain JSON data",
      }),
    ]);
  }
}

function fail<T>(diagnostics: Diagnostic[]): ParseOutcome<T> {
  return { ok: false, diagnostics };
}

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

function issuesToDiagnostics(
  issues: Issue[],
  input: Record<string, unknown>,
  kind: EnvelopeKind<unknown>,
  at: { path?: string },
): Diagnostic[] {
  const missing: Segment[][] = [];
  const unknown: Segment[][] = [];
  issues = withoutLooserBounds(issues);
  for (const issue of issues) {
    if (isMissing(issue, input)) missing.push(issue.path);
    if (issue.code === "unrecognized_keys") for (const key of issue.keys) unknown.push([...issue.path, key]);
  }
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const p = [...issue.path, key];
        const twin = similarSibling(p, missing);
        out.push(
          error(
            "envelope.unknown-field",
            `at ${formatPath(p)}: unknown field, got ${echo(valueAt(input, p))}`,
            {
              ...at,
              hint:
                twin !== undefined
                  ? `did you mean "${twin}"?`
                  : `remove it: ${kind.name} objects are closed and unknown fields are rejected`,
            },
          ),
        );
      }
    } else if (isMissing(issue, input)) {
      const p = issue.path;
      const twin = similarSibling(p, unknown);
      const field = String(p[p.length - 1]);
      const wrongEnvelope =
        p.length === 1 && field === kind.versionField && Object.hasOwn(input, kind.sibling.versionField);
      out.push(
        error(
          "envelope.missing-field",
          `at ${formatPath(p)}: expected ${expectedOf(issue)} (required field), got nothing`,
          {
            ...at,
            hint: wrongEnvelope
              ? `this looks like an ${kind.sibling.name} document, not an ${kind.name}`
              : twin !== undefined
                ? `found "${twin}"; rename it to "${field}"`
                : `add the field "${field}"`,
          },
        ),
      );
    } else {
      const value = valueAt(input, issue.path);
      const problem = formatProblem(issue, value);
      out.push(
        error(
          "envelope.schema",
          `at ${formatPath(issue.path)}: expected ${expectedOf(issue)}, got ${echo(value)}${problem ? `: ${problem}` : ""}`,
          { ...at, ...schemaHint(issue.path) },
        ),
      );
    }
  }
  return out;
}

/** Advice for fields whose rule is not visible in the message alone. */
function schemaHint(path: readonly Segment[]): { hint?: string } {
  if (path[path.length - 1] === "sha256_after") {
    return { hint: "sha256_after is null exactly when op is delete, and the file's SHA-256 otherwise" };
  }
  return {};
}

/** An issue about a key its parent object does not have (a type, constant, enum or discriminator issue). */
function isMissing(issue: Issue, input: unknown): boolean {
  if (issue.code === "unrecognized_keys") return false;
  const p = issue.path;
  if (p.length === 0) return false;
  const parent = valueAt(input, p.slice(0, -1));
  return isObject(parent) && valueAt(parent, p.slice(-1)) === undefined;
}

const FORMAT_BY_REGEX = new Map<string, (typeof FORMATS)[keyof typeof FORMATS]>(
  Object.values(FORMATS).map((f) => [String(new RegExp(f.pattern, "u")), f]),
);

/**
 * zod reports an out-of-range integer twice, once against the safe-integer range and once against the
 * schema's own bound; keep only the tighter bound per path and direction.
 */
function withoutLooserBounds(issues: readonly Issue[]): Issue[] {
  const tightest = new Map<string, Issue>();
  for (const issue of issues) {
    if (issue.code !== "too_big" && issue.code !== "too_small") continue;
    const key = `${issue.code} ${formatPath(issue.path)}`;
    const seen = tightest.get(key);
    if (!seen || tighter(issue, seen)) tightest.set(key, issue);
  }
  return issues.filter(
    (issue) =>
      (issue.code !== "too_big" && issue.code !== "too_small") ||
      tightest.get(`${issue.code} ${formatPath(issue.path)}`) === issue,
  );
}

function tighter(a: Issue, b: Issue): boolean {
  if (a.code === "too_big" && b.code === "too_big") return a.maximum < b.maximum;
  if (a.code === "too_small" && b.code === "too_small") return a.minimum > b.minimum;
  return false;
}

/** Which rule of a named format a string breaks, where the format can say (repository paths). */
function formatProblem(issue: Issue, value: unknown): string | undefined {
  if (issue.code !== "invalid_format" || issue.pattern === undefined || typeof value !== "string")
    return undefined;
  return FORMAT_BY_REGEX.get(issue.pattern) === FORMATS.repoPath ? repoPathProblem(value) : undefined;
}

/** What the schema expected, in words: `a string`, `an integer`, `at most 3`, `one of "a", "b"`. */
function expectedOf(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.message === INTEGER_EXPECTED
        ? INTEGER_EXPECTED
        : (TYPE_WORDS[issue.expected] ?? issue.expected);
    case "invalid_value":
      return issue.values.length === 1
        ? `the constant ${literal(issue.values[0])}`
        : `one of ${issue.values.map(literal).join(", ")}`;
    case "invalid_union":
      return issue.discriminator !== undefined && "options" in issue && issue.options
        ? `one of ${issue.options.map(literal).join(", ")}`
        : "one of the allowed shapes";
    case "invalid_format": {
      const format = issue.pattern !== undefined ? FORMAT_BY_REGEX.get(issue.pattern) : undefined;
      return format ? format.expected : `a string matching ${issue.pattern ?? issue.format}`;
    }
    case "too_small":
      return bound(issue.origin, "at least", issue.minimum);
    case "too_big":
      return bound(issue.origin, "at most", issue.maximum);
    default:
      return issue.message;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  null: "null",
  array: "an array",
  object: "an object",
  record: "an object",
};

function bound(origin: string, words: string, n: number | bigint): string {
  if (origin === "string") return `${words} ${n} character${n === 1 ? "" : "s"}`;
  if (origin === "array") return `${words} ${n} item${n === 1 ? "" : "s"}`;
  return `${words} ${n}`;
}

function literal(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/**
 * The field in `others` that sits under the same parent and is named almost the same (a typo such as
 * `run-id` for `run_id`, `Role` for `role`).
 */
function similarSibling(p: readonly Segment[], others: readonly Segment[][]): string | undefined {
  const name = p[p.length - 1];
  if (typeof name !== "string") return undefined;
  const parent = formatPath(p.slice(0, -1));
  for (const o of others) {
    const other = o[o.length - 1];
    if (typeof other === "string" && formatPath(o.slice(0, -1)) === parent && nearlySame(name, other))
      return other;
  }
  return undefined;
}

function nearlySame(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[-\s.]/g, "_");
  if (norm(a) === norm(b)) return true;
  return Math.min(a.length, b.length) >= 4 && editDistance(a, b, 2) <= 2;
}

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    if (Math.min(...cur) > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length] ?? limit + 1;
}

// ---------------------------------------------------------------- paths and echoes

/** `payload.content.findings[0].claim`; the document itself is `(root)`. */
export function formatPath(path: readonly Segment[]): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (typeof seg === "string" && /^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

/** The value at a path, or undefined when any step is missing. Own properties only. */
function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    const key = typeof seg === "symbol" ? seg : String(seg);
    if (!Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

const ECHO_MAX = 40;

/** A short, safe rendering of a value for a message: `"run-x"`, `42`, `an array of 3 items`, `nothing`. */
export function echo(v: unknown): string {
  switch (typeof v) {
    case "undefined":
      return "nothing";
    case "string": {
      const points = [...v];
      const shown = points.length > ECHO_MAX ? `${points.slice(0, ECHO_MAX - 1).join("")}…` : v;
      return JSON.stringify(shown);
    }
    case "number":
    case "boolean":
      return String(v);
    case "bigint":
      return `${v}n`;
    case "object":
      if (v === null) return "null";
      if (Array.isArray(v)) return `an array of ${v.length} item${v.length === 1 ? "" : "s"}`;
      return "an object";
    default:
      return `a ${typeof v}`;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describeError(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return "unknown error";
  }
}
