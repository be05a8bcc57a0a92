/**
 * Every generated file says that it is generated and by which command: a comment where the format has one, and
 * the root's sidecar manifest (`manifest.ts`) where it has none (JSON).
 */

import { stringify } from "yaml";

/** The command that regenerates every file. */
export const GENERATE_COMMAND = "devrites generate";
export const GENERATED_NOTE = `generated — do not edit; regenerate with ${GENERATE_COMMAND}`;

export const MARKDOWN_HEADER = `<!-- ${GENERATED_NOTE} -->`;
export const HASH_HEADER = `# ${GENERATED_NOTE}`;
/**
 * The note for JavaScript (the hook bundles), in ASCII: a hook reads its bundle on every tool call, and V8 keeps
 * an all-ASCII text as one byte per character (half the memory, and less to read and hash on every call; see
 * docs/hooks.md, Speed); an em dash would make the whole text two bytes per character.
 */
export const SLASH_HEADER = `// ${GENERATED_NOTE.replace("\u2014", "-")}`;

/** YAML frontmatter from an ordered record, without line folding. */
export function frontmatterText(fields: Record<string, unknown>): string {
  return stringify(fields, { lineWidth: 0 }).trimEnd();
}

/**
 * A markdown document. With frontmatter, the generated note is its first line, as a YAML comment: hosts require
 * `---` on the file's first line, and a host shows the model a skill's or agent's body without its frontmatter,
 * so the note costs no context there. Without frontmatter the note is an HTML comment above the body.
 */
export function markdownDoc(fields: Record<string, unknown> | undefined, body: string): string {
  const rest = body.replace(/^\n+/, "");
  const text = fields === undefined ? `${MARKDOWN_HEADER}\n\n${rest}` : rest;
  const withNewline = text.endsWith("\n") ? text : `${text}\n`;
  if (fields === undefined) return withNewline;
  return `---\n${HASH_HEADER}\n${frontmatterText(fields)}\n---\n${withNewline}`;
}

/** A JavaScript module with the header after any shebang line. */
export function scriptWithHeader(source: string): string {
  if (source.startsWith("#!")) {
    const nl = source.indexOf("\n");
    if (nl < 0) return `${source}\n${SLASH_HEADER}\n`;
    return `${source.slice(0, nl + 1)}${SLASH_HEADER}\n${source.slice(nl + 1)}`;
  }
  return `${SLASH_HEADER}\n${source}`;
}

/** Stable JSON text: two-space indent and a final newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
