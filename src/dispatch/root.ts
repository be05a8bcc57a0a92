import { basename, dirname } from "node:path";
import { findRepoRoot } from "../baseline/index.js";
import { type Diagnostic, ExitCode, error } from "../core/diagnostics.js";
import { WORKSPACE_DIR } from "../run/workspace.js";

export type RootFound =
  | { ok: true; root: string }
  | { ok: false; exitCode: ExitCode; diagnostics: Diagnostic[] };

/**
 * The repository root for `cwd`: the git top level, or `cwd` itself outside git (a `no-git` baseline).
 * A directory that does not exist, or a `.git` that git cannot read, is missing input (exit 5): devrites
 * never falls back to treating a broken repository as a plain folder.
 */
export async function locateRoot(cwd: string): Promise<RootFound> {
  try {
    return { ok: true, root: (await findRepoRoot(cwd)).root };
  } catch (e) {
    return {
      ok: false,
      exitCode: ExitCode.MissingInput,
      diagnostics: [
        error("input.no-repo", `no usable repository at ${cwd}: ${(e as Error).message}`, {
          hint: "run the command inside the project's repository",
        }),
      ],
    };
  }
}

/**
 * The root a packet belongs to. A packet in its run folder (`<root>/.devrites/runs/<run-id>/packet.json`)
 * names its root by where it is, which also works outside git; a packet anywhere else belongs to the
 * repository that contains it.
 */
export async function rootOfPacket(packetAbs: string, runId: string): Promise<RootFound> {
  const runDir = dirname(packetAbs);
  const runsDir = dirname(runDir);
  const workspace = dirname(runsDir);
  if (basename(runDir) === runId && basename(runsDir) === "runs" && basename(workspace) === WORKSPACE_DIR) {
    return { ok: true, root: dirname(workspace) };
  }
  return locateRoot(dirname(packetAbs));
}
