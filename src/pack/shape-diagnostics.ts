/**
 * Turn zod issues about a frontmatter or wiring object into pack diagnostics with stable codes and lines:
 * an unknown key → `pack.unknown-field`, a required key that is absent → `pack.field-missing`, anything else
 * → `pack.field-invalid`.
 */

import type { z } from "zod";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { lineOf } from "./frontmatter.js";

export function shapeDiagnostics(
  path: string,
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
  keyLines: Record<string, number>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const at = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const dotted = [...at, key].join(".");
        out.push(
          error("pack.unknown-field", `unknown field \`${dotted}\``, {
            path,
            line: lineOf(keyLines, dotted),
            hint: "remove it or fix its spelling; unknown fields are rejected so no host drops or ignores them",
          }),
        );
      }
      continue;
    }
    const dotted = at.join(".");
    if (issue.code === "invalid_type" && valueAt(data, issue.path) === undefined) {
      out.push(
        error("pack.field-missing", `required field \`${dotted}\` is missing`, {
          path,
          line: lineOf(keyLines, dotted),
          hint: `add \`${dotted}\``,
        }),
      );
      continue;
    }
    out.push(
      error("pack.field-invalid", `field \`${dotted || "(root)"}\`: ${issue.message}`, {
        path,
        line: lineOf(keyLines, dotted),
      }),
    );
  }
  return out;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}
