/**
 * Shared fragments are written once in `fragments/<name>.md` and included with a line of its own:
 *
 *     <!-- devrites:include fragments/<name>.md -->
 *
 * The loader replaces the line with the fragment's text, so a fix lands in every role at once. A fragment may
 * not include another (one level, no cycles to reason about).
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import type { FragmentModel } from "./types.js";

/** An exact include line. The path is pack-relative and must be under `fragments/`. */
export const INCLUDE_LINE = /^<!--\s*devrites:include\s+(fragments\/[a-z0-9][a-z0-9-]*\.md)\s*-->\s*$/;
/** Anything that looks like an attempt at an include, used to catch misspelled ones. */
const INCLUDE_ATTEMPT = /devrites:\s*include/i;

export interface Expansion {
  text: string;
  /** Fragment paths that were included. */
  used: string[];
  diagnostics: Diagnostic[];
}

/**
 * Expand includes in `body` (from pack file `path`, whose body starts at file line `bodyLine`). A missing or
 * malformed include is a diagnostic and the line is kept as written.
 */
export function expandIncludes(
  path: string,
  body: string,
  bodyLine: number,
  fragments: ReadonlyMap<string, FragmentModel>,
): Expansion {
  const used: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const out: string[] = [];
  body.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const m = INCLUDE_LINE.exec(line.trim());
    if (m) {
      const target = m[1] as string;
      const frag = fragments.get(target);
      if (frag) {
        used.push(target);
        out.push(frag.content.replace(/\n+$/, ""));
        return;
      }
      diagnostics.push(
        error("pack.include-missing", `included fragment \`${target}\` does not exist`, {
          path,
          line: bodyLine + i,
          hint: "create it under fragments/ or fix the name",
        }),
      );
    } else if (INCLUDE_ATTEMPT.test(line)) {
      diagnostics.push(
        error(
          "pack.include-malformed",
          "include line is not of the form `<!-- devrites:include fragments/<name>.md -->`",
          {
            path,
            line: bodyLine + i,
            hint: "put the include alone on its line, with a kebab-case fragment name under fragments/",
          },
        ),
      );
    }
    out.push(raw);
  });
  return { text: out.join("\n"), used, diagnostics };
}
