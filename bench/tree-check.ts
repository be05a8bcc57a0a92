/**
 * The tree check's cost with ignored content (docs/tree-check.md): the 20,000-file repository with 2,000
 * dirty files, plus an ignored `node_modules/` of 20,000 files, then the same with the ignored folder
 * doubled. Per size: one `result check` (its own snapshot, best of five) against `git status --porcelain`
 * in the same run (alternated, best of five each; target ≤ 4×) once the tree has sat for two seconds (and,
 * for the first size, also right after it was written: the worst case, reported without a target), a wave (`packet new` + 200 results
 * checked; target ≤ 1.5 s, as `validate` measures it without ignored files), and `devrites validate`
 * over the 200 accepted runs (target ≤ 1.5 s).
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { runCapture } from "../src/cli/test-io.js";
import type { AgentPacket } from "../src/envelope/types.js";
import { runPacketNew } from "../src/packet/create.js";
import { runResultCheck, runResultChecks } from "../src/result/check.js";
import { recordResult } from "../src/result/record.js";
import { listRunDirs } from "../src/run/workspace.js";
import type { Row } from "./_types.js";
import { benchResult, filler, writeWave } from "./_wave.js";

const FILES = 20_000;
const DIRS = 200;
const MODIFIED = 1_800;
const UNTRACKED = 200;
const IGNORED = 20_000;
const IGNORED_DIRS = 400;
const WAVE = 200;

function git(root: string, ...args: string[]): Buffer {
  return execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 });
}

/** How many accepted runs `devrites validate --json` re-derived (its workspace check's detail). */
function acceptedByValidate(stdout: string): number {
  try {
    const checks = (JSON.parse(stdout) as { data?: { checks?: { name: string; detail?: string }[] } }).data
      ?.checks;
    const m = /(\d+) accepted/.exec(checks?.find((c) => c.name === "workspace")?.detail ?? "");
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function ms(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function addIgnored(root: string, from: number, count: number): void {
  for (let i = from; i < from + count; i++) {
    const dir = join(
      root,
      "node_modules",
      `pkg${i % IGNORED_DIRS}`,
      `lib${Math.floor(i / IGNORED_DIRS) % 5}`,
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `m${i}.js`), `module.exports = ${i};\n`);
  }
}

async function scoutPacket(root: string): Promise<AgentPacket> {
  const out = await runPacketNew({
    cwd: root,
    role: "devrites-evidence-scout",
    rite: "rite-build",
    objective: "Benchmark: map the fixture.",
    allow: [],
    inputs: ["d0/f0.ts"],
    now: new Date(),
  });
  if (out.exitCode !== 0 || !out.data)
    throw new Error(`packet new failed: ${JSON.stringify(out.diagnostics)}`);
  return out.data.packet;
}

/**
 * How long the fixture sits before its packets: past the mark's slack (`PROBED_SLACK_MS`), as a repository does
 * between the user's last save and a run.
 */
const SETTLE_WAIT_MS = 2_000;

/** A new scout packet with a stored result, then its check against `git status`: alternated, best of five. */
async function checkAgainstStatus(root: string): Promise<{ status: number; check: number; verdict: string }> {
  const p = await scoutPacket(root);
  const rec = recordResult({
    root,
    runId: p.run_id,
    text: JSON.stringify(benchResult(p)),
    source: "bench",
    now: new Date(),
  });
  if (rec.exitCode !== 0) throw new Error(`record failed: ${JSON.stringify(rec.diagnostics)}`);
  let status = Number.POSITIVE_INFINITY;
  let check = Number.POSITIVE_INFINITY;
  let verdict = "";
  for (let i = 0; i < 5; i++) {
    status = Math.min(status, await ms(() => git(root, "status", "--porcelain")));
    check = Math.min(
      check,
      await ms(async () => {
        verdict =
          (await runResultCheck({ cwd: root, result: p.result_path, now: new Date() })).data?.verdict ??
          "none";
      }),
    );
  }
  return { status, check, verdict };
}

export async function run(): Promise<Row[]> {
  const top = mkdtempSync(join(tmpdir(), "devrites-bench-tree-"));
  const root = join(top, "repo");
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, extra: Partial<Row> = {}) =>
    rows.push({ section: "tree-check", metric, value, unit, ...extra });
  try {
    mkdirSync(root);
    git(root, "init", "-q", "-b", "main");
    git(root, "config", "user.email", "bench@example.invalid");
    git(root, "config", "user.name", "bench");
    git(root, "config", "commit.gpgsign", "false");
    writeFileSync(join(root, ".gitignore"), "node_modules/\n");
    const paths: string[] = [];
    for (let d = 0; d < DIRS; d++) mkdirSync(join(root, `d${d}`));
    for (let i = 0; i < FILES; i++) {
      const p = `d${i % DIRS}/f${i}.ts`;
      paths.push(p);
      writeFileSync(join(root, p), filler(i, 1024));
    }
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "bench fixture");
    for (let k = 0; k < MODIFIED; k++)
      writeFileSync(join(root, paths[k * Math.floor(FILES / MODIFIED)]!), filler(k + FILES, 4096));
    for (let k = 0; k < UNTRACKED; k++) writeFileSync(join(root, `d${k % DIRS}/new${k}.ts`), filler(k, 8192));

    let ignored = 0;
    for (const size of [IGNORED, 2 * IGNORED]) {
      addIgnored(root, ignored, size - ignored);
      ignored = size;
      const label = `${FILES / 1000}k files, ${MODIFIED + UNTRACKED} dirty, node_modules ${size / 1000}k ignored`;

      // The worst case first: a packet made right after the whole tree was written, so nothing has settled
      // (docs/tree-check.md, "Settled paths") and every clean file and ignored entry is read again.
      if (size === IGNORED) {
        const fresh = await checkAgainstStatus(root);
        row(`one result check, packet made right after the tree was written (${label})`, fresh.check, "ms", {
          note: `${(fresh.check / fresh.status).toFixed(1)}× git status ${fresh.status.toFixed(1)} ms; verdict ${fresh.verdict}`,
        });
      }
      // Then the tree as it sits when a run starts: nothing written in the seconds before `packet new`.
      await new Promise((r) => setTimeout(r, SETTLE_WAIT_MS));
      const { status, check, verdict } = await checkAgainstStatus(root);
      row(`git status --porcelain (${label})`, status, "ms");
      row(`one result check (${label})`, check, "ms", { note: `verdict ${verdict}` });
      row(`result check / git status (${label})`, check / status, "×", {
        target: "≤ 4",
        ok: check / status <= 4,
      });

      // a wave: packet new + 200 results checked on one snapshot
      const t0 = performance.now();
      const first = await scoutPacket(root);
      const freeze = performance.now() - t0;
      const packets = await writeWave(root, first, WAVE, ["d0/f0.ts"]);
      let accepted = 0;
      const wave = await ms(async () => {
        const outcomes = await runResultChecks({
          cwd: root,
          items: packets.map((q) => ({ result: q.result_path })),
          now: new Date(),
        });
        accepted = outcomes.filter((o) => o.data?.verdict === "accepted").length;
      });
      row(`baseline + ${WAVE} result checks (${label})`, freeze + wave, "ms", {
        target: "≤ 1500",
        ok: freeze + wave <= 1500 && accepted === WAVE,
        note: `${accepted}/${WAVE} accepted; packet new ${freeze.toFixed(0)} ms; load average ${os.loadavg()[0]?.toFixed(1)}`,
      });

      // devrites validate over every accepted run (re-derived from packet, result and anchored evidence)
      await runCapture(["validate", "--json"], root); // warm the command's modules
      let code = -1;
      let stdout = "";
      const validate = await ms(async () => {
        ({ code, stdout } = await runCapture(["validate", "--json"], root));
      });
      const reDerived = acceptedByValidate(stdout);
      const runs = listRunDirs(root).length;
      row(`devrites validate, every run so far (${label})`, validate, "ms", {
        target: "≤ 1500",
        // every run so far was accepted, and validate must have re-derived each of them
        ok: validate <= 1500 && code === 0 && reDerived === runs,
        note: `exit ${code}; ${runs} runs, ${reDerived} accepted verdicts re-derived`,
      });
    }
    return rows;
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}
