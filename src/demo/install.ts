/**
 * Install the pack into the demo's sample project the way a user does: `devrites init` (through the CLI
 * shell), which installs this package's pack for both hosts. The org chart is read from the same pack.
 */

import type { Diagnostic } from "../core/diagnostics.js";
import { PACKAGE_PACK } from "../install/sources.js";
import { type DelegationGraph, loadPack } from "../pack/index.js";
import { cli } from "./cli.js";

export interface InstallOutcome {
  /** `devrites init`'s exit code. */
  exitCode: number;
  diagnostics: Diagnostic[];
  hosts: string[];
  /** How many files init created or changed. */
  changed: number;
  /** The pack's delegation graph (the org chart). */
  graph: DelegationGraph;
}

export async function installPack(target: string): Promise<InstallOutcome> {
  const r = await cli(target, ["init", "--json"]);
  const data = (r.json?.data ?? {}) as { hosts?: string[]; changed?: number };
  const loaded = await loadPack(PACKAGE_PACK);
  return {
    exitCode: r.code,
    diagnostics: r.json?.diagnostics ?? [],
    hosts: data.hosts ?? [],
    changed: data.changed ?? 0,
    graph: loaded.missing ? { nodes: [], edges: [] } : loaded.model.graph,
  };
}
