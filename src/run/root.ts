import { findRepoRoot } from "../baseline/find-repo-root.js";
import { type Diagnostic, error } from "../core/diagnostics.js";

/**
 * The folder that holds `.devrites/`: the git top level above `cwd`, or `cwd` itself outside git. A `.git`
 * that git cannot read is a diagnostic (`workspace.no-root`), never a silent fallback to `cwd`.
 */
export async function findWorkspaceRoot(
  cwd: string,
): Promise<{ ok: true; root: string } | { ok: false; diagnostics: Diagnostic[] }> {
  try {
    return { ok: true, root: (await findRepoRoot(cwd)).root };
  } catch (e) {
    return {
      ok: false,
      diagnostics: [
        error("workspace.no-root", (e as Error).message, {
          hint: "run devrites inside the project (a git repository or the folder that holds .devrites/)",
        }),
      ],
    };
  }
}
