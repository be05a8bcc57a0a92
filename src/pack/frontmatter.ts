/**
 * Split a markdown file into YAML frontmatter and body, and parse the frontmatter with positions so every
 * diagnostic can carry a line. gray-matter does the split; `yaml` parses (with a line counter). Never throws.
 */

import matter from "gray-matter";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { type Code, type Diagnostic, error } from "../core/diagnostics.js";

export interface ParsedDoc {
  data: Record<string, unknown>;
  frontmatterText: string;
  keyLines: Record<string, number>;
  bodyLine: number;
  body: string;
}

export type ParseDocResult = { ok: true; doc: ParsedDoc } | { ok: false; diagnostics: Diagnostic[] };

/** Parse `text` (the contents of pack file `path`). */
export function parseMarkdownDoc(path: string, text: string): ParseDocResult {
  // One line-ending convention from here on (lines are counted the same either way).
  const src = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n/g, "\n");
  const lines = src.split("\n");
  if (lines[0] !== "---") {
    return fail(
      path,
      "pack.frontmatter-missing",
      "the file does not start with a `---` frontmatter block",
      1,
    );
  }
  const close = lines.findIndex((l, i) => i > 0 && l === "---");
  if (close < 0) {
    return fail(path, "pack.frontmatter-malformed", "the frontmatter block is not closed by a `---` line", 1);
  }
  // gray-matter splits; we hand it a parser that keeps the raw text so `yaml` can parse with positions.
  let split: { matter: string; content: string };
  try {
    const m = matter(src, { engines: { yaml: { parse: () => ({}), stringify: () => "" } } });
    split = { matter: m.matter, content: m.content };
  } catch (e) {
    return fail(path, "pack.frontmatter-malformed", `cannot split frontmatter: ${(e as Error).message}`, 1);
  }
  // gray-matter closes on any line that starts with `---`; we accept only an exact `---` line. Disagreement
  // means a line such as `---x` inside the block: ambiguous, so reject rather than guess.
  const closeStart = lines.slice(0, close).reduce((n, l) => n + l.length + 1, 0);
  if (split.matter !== src.slice(3, closeStart - 1)) {
    return fail(
      path,
      "pack.frontmatter-malformed",
      "a line inside the frontmatter starts with `---`",
      close + 1,
    );
  }
  const parsed = parseYamlWithLines(path, split.matter, 0);
  if (!parsed.ok) return parsed;
  if (parsed.value === null || parsed.value === undefined) {
    return fail(path, "pack.frontmatter-malformed", "the frontmatter is empty", 1);
  }
  if (typeof parsed.value !== "object" || Array.isArray(parsed.value)) {
    return fail(path, "pack.frontmatter-malformed", "the frontmatter must be a YAML mapping of keys", 2);
  }
  const prefix = src.slice(0, src.length - split.content.length);
  const bodyLine = countNewlines(prefix) + 1;
  return {
    ok: true,
    doc: {
      data: parsed.value as Record<string, unknown>,
      frontmatterText: split.matter.replace(/^\n/, ""),
      keyLines: parsed.keyLines,
      bodyLine,
      body: split.content,
    },
  };
}

export type YamlResult =
  | { ok: true; value: unknown; keyLines: Record<string, number> }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Parse YAML text and record the 1-based line of every mapping key and sequence item by dotted path.
 * `lineOffset` is added to every line (the number of file lines before `text` starts). Duplicate keys and
 * syntax errors are diagnostics with `code`.
 */
export function parseYamlWithLines(
  path: string,
  text: string,
  lineOffset: number,
  code: Code = "pack.frontmatter-malformed",
): YamlResult {
  const lineCounter = new LineCounter();
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    return { ok: false, diagnostics: [error(code, `YAML error: ${(e as Error).message}`, { path })] };
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      diagnostics: doc.errors.map((err) => {
        const at = lineCounter.linePos(err.pos[0]);
        return error(code, `YAML error: ${firstLine(err.message)}`, {
          path,
          line: at.line + lineOffset,
          hint: "fix the YAML syntax; quote values that contain `: ` or start with a special character",
        });
      }),
    };
  }
  const keyLines: Record<string, number> = {};
  const walk = (node: unknown, prefix: string): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const dotted = prefix ? `${prefix}.${key}` : key;
        const range = (pair.key as Node | null)?.range;
        if (range) keyLines[dotted] = lineCounter.linePos(range[0]).line + lineOffset;
        walk(pair.value, dotted);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const dotted = `${prefix}.${i}`;
        const range = (item as Node | null)?.range;
        if (range) keyLines[dotted] = lineCounter.linePos(range[0]).line + lineOffset;
        walk(item, dotted);
      });
    }
  };
  walk(doc.contents, "");
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { ok: false, diagnostics: [error(code, `YAML error: ${(e as Error).message}`, { path })] };
  }
  return { ok: true, value, keyLines };
}

/** The line of `dotted`, or of its nearest ancestor that has one. */
export function lineOf(keyLines: Record<string, number>, dotted: string): number | undefined {
  let p = dotted;
  for (;;) {
    const l = keyLines[p];
    if (l !== undefined) return l;
    const cut = p.lastIndexOf(".");
    if (cut < 0) return undefined;
    p = p.slice(0, cut);
  }
}

function fail(path: string, code: Code, message: string, line: number): ParseDocResult {
  return {
    ok: false,
    diagnostics: [
      error(code, message, {
        path,
        line,
        hint: "start the file with `---`, then `name:` and `description:` lines, then a closing `---`",
      }),
    ],
  };
}

function countNewlines(s: string): number {
  let n = 0;
  for (const ch of s) if (ch === "\n") n++;
  return n;
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
