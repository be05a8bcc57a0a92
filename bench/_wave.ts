/**
 * A wave of read-only runs on one frozen candidate, written the way `packet new` leaves them (baseline.json,
 * packet.json, the run's anchor in the git folder, the `packet.created` line with the digests, the state
 * entry) plus a valid result for each, without paying for a `packet new` per run.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { absoluteGitDir } from "../src/baseline/index.js";
import { sampleResult } from "../src/envelope/fixtures.js";
import { ROLES, type RoleName } from "../src/envelope/roles.js";
import type { AgentPacket } from "../src/envelope/types.js";
import { anchorFor, readAnchor, writeAnchor } from "../src/packet/anchor.js";
import { buildBaselineRecord, buildPacket } from "../src/packet/assemble.js";
import { gitAnchorHome } from "../src/run/anchor-home.js";
import { openRecordsJournal, writeStateJournaled } from "../src/run/records-journal.js";
import { appendEvent, readState, workspacePaths } from "../src/run/workspace.js";

const READ_ONLY: RoleName[] = [
  "devrites-evidence-scout",
  "devrites-plan-drafter",
  "devrites-proof-runner",
  "devrites-spec-reviewer",
  "devrites-code-reviewer",
];

/** `count` packets (the first is `first`, already written by `packet new`), each with a stored result. */
export async function writeWave(
  root: string,
  first: AgentPacket,
  count: number,
  inputs: string[],
): Promise<AgentPacket[]> {
  const record = JSON.parse(readFileSync(join(root, workspacePaths.baseline(first.run_id)), "utf8"));
  const gitDir = await absoluteGitDir(root);
  const firstAnchor = gitDir ? readAnchor(gitAnchorHome(gitDir), first.run_id) : undefined;
  const mark = firstAnchor?.ok ? firstAnchor.anchor.stat_mark : undefined;
  const now = new Date();
  const packets: AgentPacket[] = [first];
  for (let i = 1; i < count; i++) {
    const role = READ_ONLY[i % READ_ONLY.length]!;
    const runId = first.run_id.replace(/-[0-9a-f]{8}$/, `-${(i + 0x10000000).toString(16)}`);
    packets.push(
      buildPacket(
        {
          runId,
          role,
          rite: "rite-build",
          phase: "build",
          stepNumber: i + 1,
          objective: "Benchmark.",
          allow: [],
          inputs,
          now,
        },
        first.baseline,
        record.touched,
      ),
    );
  }
  const state = readState(root, now.toISOString());
  if (!state.ok) throw new Error("state unreadable");
  for (const p of packets) {
    mkdirSync(join(root, workspacePaths.runDir(p.run_id)), { recursive: true });
    if (p !== first) {
      const baselineBytes = Buffer.from(
        `${JSON.stringify(buildBaselineRecord(p.run_id, record.head, record.dirty, record.touched), null, 2)}\n`,
      );
      writeFileSync(join(root, workspacePaths.baseline(p.run_id)), baselineBytes);
      // the wave shares the first run's frozen candidate, so its snapshot's mark too
      const anchor = anchorFor(p, baselineBytes, mark);
      if (gitDir) {
        writeAnchor(gitAnchorHome(gitDir), anchor);
        openRecordsJournal(gitAnchorHome(gitDir), p.run_id, root);
      }
      writeFileSync(join(root, workspacePaths.packet(p.run_id)), `${JSON.stringify(p, null, 2)}\n`);
      appendEvent(root, {
        ts: now.toISOString(),
        run_id: p.run_id,
        type: "packet.created",
        data: {
          role: p.role,
          rite: p.rite,
          phase: p.phase,
          step_id: p.step_id,
          baseline_id: p.baseline.id,
          allowed_repo_writes: p.scope.allowed_repo_writes,
          inputs,
          packet_sha256: anchor.packet_sha256,
          baseline_sha256: anchor.baseline_sha256,
          ...(anchor.stat_mark ? { stat_mark: anchor.stat_mark } : {}),
        },
      });
      state.state.active_runs.push({
        run_id: p.run_id,
        role: p.role,
        step_id: p.step_id,
        packet_path: workspacePaths.packet(p.run_id),
        created_at: p.created_at,
      });
    }
    writeFileSync(join(root, p.result_path), `${JSON.stringify(benchResult(p), null, 2)}\n`);
  }
  writeStateJournaled(root, state.state, state.sha256);
  return packets;
}

/** An accepted-shape result for packet `p`: no writes, within its budgets. */
export function benchResult(p: AgentPacket): ReturnType<typeof sampleResult> {
  const r = sampleResult(ROLES[p.role].payload);
  r.run_id = p.run_id;
  r.role = p.role;
  r.baseline_id = p.baseline.id;
  r.budget = { files_used: 5, loaded_lines_used: 300, ...p.budgets };
  r.side_effects = { repo_writes: [], scratch_writes: [] };
  return r;
}

/** Deterministic filler text of about `bytes` bytes. */
export function filler(seed: number, bytes: number): string {
  const line = `// ${seed.toString(36)} the quick brown fox jumps over the lazy dog ${seed * 7919}\n`;
  return line.repeat(Math.max(1, Math.ceil(bytes / line.length)));
}
