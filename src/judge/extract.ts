/**
 * Pull the single JSON object out of a leaf's final message. Accepted shapes, nothing else:
 * - the whole text (trimmed) is one JSON object;
 * - the text contains exactly one fenced block opened by ```json (prose around it is allowed).
 * The object is not judged here; `devrites result check` does that.
 */

import type { Diagnostic } from "../core/diagnostics.js";
import { duplicateKey, formatPath } from "../envelope/parse.js";
import { diag } from "./codes.js";

export type Extracted =
  | { ok: true; json: string; value: Record<string, unknown> }
  | { ok: false; diagnostics: Diagnostic[] };

/** A fence line: optional indentation, three or more backticks, then the info string. */
const FENCE_OPEN = /^[ \t]{0,3}(`{3,})[ \t]*([^`\s]*)[^`]*$/;

export function extractResultJson(text: string, path?: string): Extracted {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return parseObject(trimmed, path);
  const blocks = jsonBlocks(text);
  if (blocks.length === 0) {
    return fail("record.no-json", "no bare JSON object and no ```json fenced block found", path);
  }
  if (blocks.length > 1) {
    return fail(
      "record.multiple-json",
      `found ${blocks.length} \`\`\`json fenced blocks; expected one`,
      path,
    );
  }
  return parseObject(blocks[0]!, path);
}

/**
 * The bodies of every fenced block whose info string is `json` (case-insensitive). Unclosed blocks count.
 * A body is the exact text between the fences (its line ends as received, less the last one).
 */
function jsonBlocks(text: string): string[] {
  // Each line with its own ending, so a body is a slice of what was received, never re-joined.
  const lines = text.split(/(?<=\n)/);
  const bare = (k: number) => lines[k]!.replace(/\r?\n$/, "");
  const blocks: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const m = FENCE_OPEN.exec(bare(i));
    if (!m) {
      i++;
      continue;
    }
    const fence = m[1]!;
    const info = m[2]!.toLowerCase();
    let body = "";
    i++;
    while (i < lines.length && !isClose(bare(i), fence)) body += lines[i++]!;
    i++; // skip the closing fence (or run off the end)
    if (info === "json") blocks.push(body.replace(/\r?\n$/, ""));
  }
  return blocks;
}

function isClose(line: string, fence: string): boolean {
  const t = line.trim();
  return t.length >= fence.length && /^`+$/.test(t);
}

function parseObject(json: string, path?: string): Extracted {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return fail("record.malformed-json", `the result is not valid JSON: ${(e as Error).message}`, path);
  }
  const dup = duplicateKey(json);
  if (dup !== undefined) {
    return {
      ok: false,
      diagnostics: [
        diag(
          "envelope.duplicate-key",
          `at ${formatPath(dup.path)}: the key ${JSON.stringify(dup.key)} appears twice in one object of the result`,
          path,
        ),
      ],
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return fail("record.not-object", `the result is ${kind}, not a JSON object`, path);
  }
  return { ok: true, json, value: value as Record<string, unknown> };
}

function fail(
  code: "record.no-json" | "record.multiple-json" | "record.malformed-json" | "record.not-object",
  message: string,
  path?: string,
): Extracted {
  return { ok: false, diagnostics: [diag(code, message, path)] };
}
