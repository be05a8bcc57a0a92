/**
 * Rules on leaf roles: each agent is a known devrites role whose mode and payload agree with the role table
 * (`src/envelope/roles.ts`), and whose tools allowlist matches its mode. Tool rules fail closed: a tool this
 * file does not know might write or spawn, so it is rejected.
 */

import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { isRoleName, ROLES } from "../envelope/roles.js";
import type { PackModel } from "./types.js";

/** Tools that only read (Bash is policed by the guard hook for read-only roles). */
export const READ_TOOLS = ["Read", "Grep", "Glob", "Bash", "WebFetch", "WebSearch"] as const;
/** File-writing tools; the writer may have the first three. */
export const WRITE_TOOLS = ["Edit", "Write", "MultiEdit", "NotebookEdit"] as const;
/** Tools that start other agents; no leaf may have one (depth one). */
export const SPAWN_TOOLS = ["Agent", "Task"] as const;

const WRITER_EXTRA: readonly string[] = ["Edit", "Write", "MultiEdit"];

export function lintRoles(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const dispatched = new Set(model.graph.edges.map((e) => e.to));
  for (const a of model.agents) {
    const path = a.source.path;
    const kl = a.source.keyLines;
    if (!isRoleName(a.name)) {
      out.push(
        error("pack.role-unknown", `\`${a.name}\` is not a devrites role`, {
          path,
          line: kl.name,
          hint: `roles are listed in src/envelope/roles.ts: ${Object.keys(ROLES).join(", ")}`,
        }),
      );
    } else {
      const spec = ROLES[a.name];
      if (a.mode !== spec.mode) {
        out.push(
          error("pack.role-mode-mismatch", `mode is \`${a.mode}\`; the role table says \`${spec.mode}\``, {
            path,
            line: kl["devrites.mode"],
            hint: "the validator and the guard use the role table; make the file agree with it",
          }),
        );
      }
      if (a.payload !== spec.payload) {
        out.push(
          error(
            "pack.role-payload-mismatch",
            `payload is \`${a.payload}\`; the role table says \`${spec.payload}\``,
            { path, line: kl["devrites.payload"] },
          ),
        );
      }
    }
    if (a.tools.length === 0) {
      out.push(
        error("pack.role-tools-missing", "no `tools` allowlist: the role would inherit every tool", {
          path,
          line: kl.name,
          hint: `add e.g. \`tools: ${READ_TOOLS.slice(0, 4).join(", ")}\``,
        }),
      );
    }
    const allowed: readonly string[] = a.mode === "writer" ? [...READ_TOOLS, ...WRITER_EXTRA] : READ_TOOLS;
    for (const t of a.tools) {
      if ((SPAWN_TOOLS as readonly string[]).includes(t)) {
        out.push(
          error("pack.role-tool-forbidden", `tool \`${t}\` spawns agents; leaves never dispatch`, {
            path,
            line: kl.tools,
          }),
        );
      } else if ((WRITE_TOOLS as readonly string[]).includes(t) && !allowed.includes(t)) {
        out.push(
          error("pack.role-tool-forbidden", `tool \`${t}\` writes files; a ${a.mode} role may not have it`, {
            path,
            line: kl.tools,
            hint: "only devrites-slice-wright writes, and only Edit, Write and MultiEdit",
          }),
        );
      } else if (!allowed.includes(t)) {
        out.push(
          error("pack.role-tool-unknown", `tool \`${t}\` is not on the known list for a ${a.mode} role`, {
            path,
            line: kl.tools,
            hint: `allowed: ${allowed.join(", ")}`,
          }),
        );
      }
    }
    if (!dispatched.has(a.name)) {
      out.push(
        warning("pack.role-undispatched", `no rite dispatches \`${a.name}\``, {
          path,
          hint: "add it to a rite's `devrites.dispatches`, or remove the role",
        }),
      );
    }
  }
  return out;
}
