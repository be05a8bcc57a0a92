/**
 * The devrites block in `.codex/config.toml`: `[agents] max_depth = 1`, so a leaf cannot spawn agents of its
 * own (Codex's default is 1 today; devrites states it rather than rely on a default). Set only when the user
 * has no `agents` table at all: their own `[agents]` settings win, and devrites never edits a table it did not
 * write. Pure; every text returned has been parsed as TOML first, so devrites never writes invalid TOML.
 */

import { parse } from "smol-toml";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { GENERATED_NOTE } from "../hosts/headers.js";

export const CODEX_CONFIG = ".codex/config.toml";
export const TOML_BEGIN = "# BEGIN DEVRITES";
export const TOML_END = "# END DEVRITES";

/** The block devrites puts into `.codex/config.toml`. */
export function codexConfigBlock(): string {
  return [
    `${TOML_BEGIN} (${GENERATED_NOTE.replace("devrites generate", "devrites update")})`,
    "[agents]",
    "max_depth = 1",
    TOML_END,
  ].join("\n");
}

export type TomlMerge = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

function span(
  lines: readonly string[],
): { ok: true; span?: [number, number] } | { ok: false; diagnostic: Diagnostic } {
  const begins = lines.flatMap((l, i) => (l.trim().startsWith(TOML_BEGIN) ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === TOML_END ? [i] : []));
  if (begins.length === 0 && ends.length === 0) return { ok: true };
  const [b] = begins;
  const [e] = ends;
  if (begins.length !== 1 || ends.length !== 1 || b === undefined || e === undefined || e < b)
    return {
      ok: false,
      diagnostic: error(
        "install.marker-malformed",
        `expected one devrites block, found ${begins.length} begin and ${ends.length} end markers`,
        {
          path: CODEX_CONFIG,
          hint: `keep exactly one \`${TOML_BEGIN} …\` … \`${TOML_END}\` pair, or delete both`,
        },
      ),
    };
  return { ok: true, span: [b, e] };
}

/** `text` without the devrites block (the user's text, byte for byte outside the markers). */
export function removeTomlBlock(text: string): TomlMerge {
  const lines = text.split("\n");
  const found = span(lines);
  if (!found.ok) return found;
  if (!found.span) return { ok: true, text };
  const [b, e] = found.span;
  const before = lines.slice(0, b).join("\n").replace(/\s+$/, "");
  const after = lines
    .slice(e + 1)
    .join("\n")
    .replace(/^\s+/, "");
  const joined = [before, after].filter((s) => s !== "").join("\n\n");
  return { ok: true, text: joined === "" ? "" : `${joined.replace(/\s+$/, "")}\n` };
}

function parses(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  try {
    return { ok: true, value: parse(text) as Record<string, unknown> };
  } catch (e) {
    return { ok: false, message: (e as Error).message.split("\n")[0] ?? "invalid TOML" };
  }
}

/** The block replaced in place when the text has one, else appended after the user's text. */
function withBlock(text: string): string {
  const lines = text.split("\n");
  const found = span(lines);
  if (found.ok && found.span) {
    const [b, e] = found.span;
    return [...lines.slice(0, b), codexConfigBlock(), ...lines.slice(e + 1)].join("\n");
  }
  const base = text.replace(/\s+$/, "");
  return base === "" ? `${codexConfigBlock()}\n` : `${base}\n\n${codexConfigBlock()}\n`;
}

/**
 * What `.codex/config.toml` should hold: the user's text with devrites' block when the user has no `agents`
 * table, without it when they have one. `undefined` in, `undefined` out when nothing needs writing.
 */
export function mergeCodexConfig(current: string | undefined): TomlMerge & { userAgents?: boolean } {
  const stripped = current === undefined ? undefined : removeTomlBlock(current);
  if (stripped && !stripped.ok) return stripped;
  const userText = stripped?.text;
  if (userText !== undefined) {
    const user = parses(userText);
    if (!user.ok)
      return {
        ok: false,
        diagnostic: error("install.toml-malformed", `not valid TOML: ${user.message}`, {
          path: CODEX_CONFIG,
          hint: "fix the file by hand; devrites never writes a file it cannot parse",
        }),
      };
    if (Object.hasOwn(user.value, "agents")) return { ok: true, text: userText, userAgents: true };
  }
  const text = withBlock(current ?? "");
  const merged = parses(text);
  const agents = merged.ok ? merged.value.agents : undefined;
  if (
    !merged.ok ||
    typeof agents !== "object" ||
    agents === null ||
    (agents as { max_depth?: unknown }).max_depth !== 1
  )
    return {
      ok: false,
      diagnostic: error(
        "install.toml-merge-failed",
        `adding the devrites block would not give valid TOML${merged.ok ? "" : `: ${merged.message}`}`,
        {
          path: CODEX_CONFIG,
          hint: "set `[agents] max_depth = 1` by hand; devrites leaves the file as it is",
        },
      ),
    };
  return { ok: true, text, userAgents: false };
}
