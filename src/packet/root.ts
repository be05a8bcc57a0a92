import { basename, dirname } from "node:path";
import { locateRoot, type RootFound } from "../baseline/find-repo-root.js";
import { WORKSPACE_DIR } from "../run/workspace.js";

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
