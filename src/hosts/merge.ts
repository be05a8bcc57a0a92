/**
 * Pure merges into files devrites shares with the user: the hooks block of a JSON settings file
 * (`.claude/settings.json`, `.codex/hooks.json`) and a marked block in a markdown file (`AGENTS.md`).
 * Both are idempotent, never touch what is not devrites', and refuse (with a diagnostic) rather than guess when
 * the existing file is malformed.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import { GENERATED_NOTE } from "./headers.js";

/** Every hook command devrites generates for a settings file contains this marker; nothing else is devrites'. */
export const DEVRITES_HOOK_MARKER = "devrites-hook";

export type MergeResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A hook handler devrites owns: a command handler whose command carries the marker. */
export function isDevritesHandler(handler: unknown): boolean {
  return (
    isObject(handler) && typeof handler.command === "string" && handler.command.includes(DEVRITES_HOOK_MARKER)
  );
}

/**
 * `hooks` with every devrites handler removed, keeping each event key in its place. Matcher groups left empty
 * go; `emptied` lists the events that lost every group that way (the caller drops them if nothing is re-added,
 * so an event devrites alone used disappears on uninstall, and re-adding keeps the key order).
 */
function withoutDevritesHooks(hooks: JsonObject): { hooks: JsonObject; emptied: string[] } {
  const out: JsonObject = {};
  const emptied: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      out[event] = groups;
      continue;
    }
    const kept: Json[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.filter((h) => !isDevritesHandler(h));
      if (handlers.length === group.hooks.length) kept.push(group);
      else if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    out[event] = kept;
    if (kept.length === 0 && groups.length > 0) emptied.push(event);
  }
  return { hooks: out, emptied };
}

type Parsed = { ok: true; value: JsonObject } | { ok: false; diagnostic: Diagnostic };

function parseObject(text: string | undefined, what: string): Parsed {
  if (text === undefined || text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return malformed(`${what} is not valid JSON: ${(e as Error).message}`);
  }
  return isObject(value) ? { ok: true, value } : malformed(`${what} is not a JSON object`);
}

function malformed(message: string): { ok: false; diagnostic: Diagnostic } {
  return {
    ok: false,
    diagnostic: error("generate.json-malformed", message, {
      hint: "fix the file by hand (devrites never overwrites a file it cannot read), then generate again",
    }),
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Merge devrites' hooks (`ours`: JSON text `{"hooks": {Event: [group…]}}`) into an existing settings or hooks
 * file. User keys, user hooks and their order are kept; every devrites handler already there (found by
 * `DEVRITES_HOOK_MARKER`) is replaced by ours, appended to its event. With `ours` = `{"hooks": {}}` this removes
 * devrites' hooks (uninstall). When the result means the same as the existing text, the text is returned as is.
 */
export function mergeSettingsJson(existingText: string | undefined, ours: string): MergeResult {
  const existing = parseObject(existingText, "the existing settings file");
  if (!existing.ok) return existing;
  const mine = parseObject(ours, "devrites' hooks");
  if (!mine.ok) return mine;
  const current = existing.value;
  const add = mine.value.hooks ?? {};
  if (current.hooks !== undefined && !isObject(current.hooks)) {
    return malformed("the existing `hooks` key is not an object");
  }
  if (!isObject(add)) return malformed("devrites' `hooks` is not an object");
  const { hooks, emptied } = withoutDevritesHooks(isObject(current.hooks) ? current.hooks : {});
  for (const [event, groups] of Object.entries(add)) {
    if (!Array.isArray(groups) || groups.length === 0) continue;
    const prior = hooks[event];
    hooks[event] = [...(Array.isArray(prior) ? prior : []), ...groups];
  }
  for (const event of emptied) {
    const groups = hooks[event];
    if (Array.isArray(groups) && groups.length === 0) delete hooks[event];
  }
  const next: JsonObject = { ...current };
  if (Object.keys(hooks).length === 0 && current.hooks === undefined) delete next.hooks;
  else next.hooks = hooks;
  if (existingText !== undefined && existingText.trim() !== "" && sameJson(next, current)) {
    return { ok: true, text: existingText };
  }
  return { ok: true, text: `${JSON.stringify(next, null, 2)}\n` };
}

export const BLOCK_BEGIN = "<!-- BEGIN DEVRITES";
export const BLOCK_END = "<!-- END DEVRITES -->";

/** Wrap `body` in the devrites markers; the opening marker carries the generated note. */
export function markedBlock(body: string): string {
  return `${BLOCK_BEGIN} (${GENERATED_NOTE}) -->\n${body.trim()}\n${BLOCK_END}`;
}

/** Line indexes of the markers, or a diagnostic when they are not exactly one well-ordered pair or none. */
type Found = { ok: true; span?: [number, number] } | { ok: false; diagnostic: Diagnostic };

function findBlock(lines: readonly string[]): Found {
  const begins = lines.flatMap((l, i) => (l.trimStart().startsWith(BLOCK_BEGIN) ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === BLOCK_END ? [i] : []));
  if (begins.length === 0 && ends.length === 0) return { ok: true };
  const [b] = begins;
  const [e] = ends;
  if (begins.length !== 1 || ends.length !== 1 || b === undefined || e === undefined || e < b) {
    return {
      ok: false,
      diagnostic: error(
        "generate.marker-malformed",
        `expected one devrites block, found ${begins.length} begin and ${ends.length} end markers${
          b !== undefined && e !== undefined && e < b ? " (end before begin)" : ""
        }`,
        { hint: `keep exactly one \`${BLOCK_BEGIN} …\` … \`${BLOCK_END}\` pair, or delete both` },
      ),
    };
  }
  return { ok: true, span: [b, e] };
}

/**
 * Put `block` (from `markedBlock`) into `existingText`: replace the existing devrites block in place, or append
 * it after the user's text. Idempotent; everything outside the markers is kept byte for byte.
 */
export function upsertMarkedBlock(existingText: string | undefined, block: string): MergeResult {
  const text = existingText ?? "";
  const lines = text.split("\n");
  const found = findBlock(lines);
  if (!found.ok) return found;
  const span = found.span;
  if (span) {
    const [b, e] = span;
    return { ok: true, text: [...lines.slice(0, b), block, ...lines.slice(e + 1)].join("\n") };
  }
  const body = text.replace(/\s+$/, "");
  return { ok: true, text: body === "" ? `${block}\n` : `${body}\n\n${block}\n` };
}

/** Remove the devrites block (uninstall); the user's text stays. */
export function removeMarkedBlock(existingText: string): MergeResult {
  const lines = existingText.split("\n");
  const found = findBlock(lines);
  if (!found.ok) return found;
  const span = found.span;
  if (!span) return { ok: true, text: existingText };
  const [b, e] = span;
  const before = lines.slice(0, b).join("\n").replace(/\s+$/, "");
  const after = lines
    .slice(e + 1)
    .join("\n")
    .replace(/^\s+/, "");
  const joined = [before, after].filter((s) => s !== "").join("\n\n");
  return { ok: true, text: joined === "" ? "" : `${joined.replace(/\s+$/, "")}\n` };
}
