/**
 * Whether devrites installed the project agent a bare `agent_type` names: the hooks give a bare role name that
 * role's powers only when the repository holds devrites' own generated agent file for it. Cheap enough for every
 * tool call: one `lstat` and one read of at most {@link HEAD_BYTES} per file, only for bare role names.
 *
 * A file counts when it is a regular file (not a symlink) at the path devrites generates, starts the way the
 * generator writes it, carries the generated header and declares exactly that name:
 *
 * - Claude Code: `.claude/agents/<role>.md`: `---` frontmatter with `name: <role>`, then the Markdown header;
 * - Codex: `.codex/agents/<role>.toml`: the `#` header on the first line, then `name = "<role>"`.
 *
 * Either host's file will do (the hook cannot always tell the hosts apart): both are files in the user's own
 * repository, written by `devrites init` or `devrites generate`.
 */

import { closeSync, lstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { RoleName } from "../envelope/roles.js";

/** The generator's note (`GENERATED_NOTE` in src/hosts/headers.ts; kept apart so the hook bundle stays small). */
export const AGENT_GENERATED_NOTE = "generated — do not edit; regenerate with devrites generate";

/**
 * The notes a generated agent file may carry: `devrites generate`'s, or the one `devrites init` and `update` write
 * (`devrites update`; src/install/render.ts). A hook of a host plugin meets roles `init --roles codex` installed,
 * so it must know both. (An installed bundle has its own note rewritten to the second; both entries are then it.)
 */
const AGENT_NOTES = [
  AGENT_GENERATED_NOTE,
  AGENT_GENERATED_NOTE.replace(/devrites generate$/, "devrites update"),
];

/** How much of an agent file is read: the frontmatter and the header are at its start. */
const HEAD_BYTES = 4096;

export function claudeAgentPath(role: RoleName): string {
  return join(".claude", "agents", `${role}.md`);
}

export function codexAgentPath(role: RoleName): string {
  return join(".codex", "agents", `${role}.toml`);
}

/** Whether `text` (the start of a Claude agent file) is devrites' generated agent `role`. */
export function isGeneratedClaudeAgent(text: string, role: RoleName): boolean {
  if (!text.startsWith("---\n")) return false;
  const end = text.indexOf("\n---\n", 3);
  if (end < 0) return false;
  const front = text.slice(4, end + 1).split("\n");
  if (!front.includes(`name: ${role}`)) return false;
  // the note is the frontmatter's first line; files generated before it moved there carry it above the body
  const body = text.slice(end + 5);
  return AGENT_NOTES.some((note) => front[0] === `# ${note}` || body.startsWith(`<!-- ${note} -->\n`));
}

/** Whether `text` (the start of a Codex agent file) is devrites' generated agent `role`. */
export function isGeneratedCodexAgent(text: string, role: RoleName): boolean {
  const lines = text.split("\n");
  return AGENT_NOTES.some((note) => lines[0] === `# ${note}`) && lines[1] === `name = "${role}"`;
}

/** Whether devrites installed the project agent `role` in the repository at `root`, for either host. */
export function isInstalledRole(root: string, role: RoleName): boolean {
  return (
    isGeneratedClaudeAgent(head(join(root, claudeAgentPath(role))), role) ||
    isGeneratedCodexAgent(head(join(root, codexAgentPath(role))), role)
  );
}

/** The first bytes of a regular file as text; "" when it is missing, a symlink, not a file or unreadable. */
function head(path: string): string {
  let fd: number | undefined;
  try {
    if (lstatSync(path, { throwIfNoEntry: false })?.isFile() !== true) return "";
    fd = openSync(path, "r");
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return "";
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // nothing to do
      }
    }
  }
}
