/**
 * Baseline + validate, end to end, on a large repository: 20,000 committed files of which 2,000 are dirty
 * (1,800 modified, 200 untracked). Freezes the baseline once (as `packet new` does), writes 200 packets
 * and results for read-only leaves on that frozen candidate, then validates all 200 (as a wave is checked:
 * one look at the tree, every result judged against it). Also compares hashing throughput with
 * `sha256sum` over the same bytes in the same run (best of five each, the two alternated).
 *
 * The 199 other packets are written directly rather than by 199 `packet new` runs, with what `packet new`
 * leaves behind (`_wave.ts`): `baseline.json`, `packet.json`, the run's anchor, the `packet.created` line of
 * the run's ledger and the state entry. (Until the ledger line was written here too, the timed check also paid for creating 199
 * ledger files, which no real run lacks.) Wall times on a shared machine swing with its load, so the
 * process CPU time of each timed phase and the load average are printed beside them.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describePaths } from "../src/baseline/index.js";
import { sha256File } from "../src/core/hash.js";
import { runPacketNew } from "../src/packet/create.js";
import { runResultCheck, runResultChecks } from "../src/result/check.js";
import type { Row } from "./_types.js";
import { filler, writeWave } from "./_wave.js";

const FILES = 20_000;
const DIRS = 200;
const MODIFIED = 1_800;
const UNTRACKED = 200;
const RESULTS = 200;
const BIG_FILE_MB = 64;

function git(root: string, ...args: string[]): void {
  execFileSync("git", args, { cwd: root, stdio: "ignore", maxBuffer: 1 << 28 });
}

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; cpu: number; value: T }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const ms = performance.now() - t;
  const used = process.cpuUsage(c);
  return { ms, cpu: (used.user + used.system) / 1000, value };
}

/** Process CPU time beside a wall time, and how busy the machine was. */
const cpuNote = (cpu: number) =>
  `CPU ${cpu.toFixed(0)} ms; load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`;

/**
 * Best of `n` runs of each of two contenders, alternated (a, b, a, b, …) so a burst of load on the shared
 * machine hits both alike; in ms.
 */
async function pairedBest(
  n: number,
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
): Promise<[number, number]> {
  let minA = Number.POSITIVE_INFINITY;
  let minB = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    minA = Math.min(minA, (await time(a)).ms);
    minB = Math.min(minB, (await time(b)).ms);
  }
  return [minA, minB];
}

/** Best of `n` runs (warm cache), in ms. */
async function best(n: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) min = Math.min(min, (await time(fn)).ms);
  return min;
}

export async function run(): Promise<Row[]> {
  const top = mkdtempSync(join(tmpdir(), "devrites-bench-"));
  const root = join(top, "repo");
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, extra: Partial<Row> = {}) =>
    rows.push({ section: "validate", metric, value, unit, ...extra });
  try {
    // ---------------------------------------------------------------- setup (not timed)
    mkdirSync(root);
    git(root, "init", "-q", "-b", "main");
    git(root, "config", "user.email", "bench@example.invalid");
    git(root, "config", "user.name", "bench");
    git(root, "config", "commit.gpgsign", "false");
    const paths: string[] = [];
    for (let d = 0; d < DIRS; d++) mkdirSync(join(root, `d${d}`));
    for (let i = 0; i < FILES; i++) {
      const p = `d${i % DIRS}/f${i}.ts`;
      paths.push(p);
      writeFileSync(join(root, p), filler(i, 1024));
    }
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "bench fixture");
    const dirty: string[] = [];
    for (let k = 0; k < MODIFIED; k++) {
      const p = paths[k * Math.floor(FILES / MODIFIED)]!;
      writeFileSync(join(root, p), filler(k + FILES, 4096 + (k % 8) * 1024));
      dirty.push(p);
    }
    for (let k = 0; k < UNTRACKED; k++) {
      const p = `d${k % DIRS}/new${k}.ts`;
      writeFileSync(join(root, p), filler(k + 2 * FILES, 8192));
      dirty.push(p);
    }
    const dirtyBytes = dirty.reduce((n, p) => n + statSync(join(root, p)).size, 0);
    row("repository", FILES, "files", { note: `${MODIFIED} modified + ${UNTRACKED} untracked dirty` });
    row("dirty bytes", dirtyBytes / 1e6, "MB");

    // ---------------------------------------------------------------- hashing throughput vs sha256sum
    const [ours, theirs] = await pairedBest(
      5,
      () => describePaths(root, dirty),
      () =>
        execFileSync("sha256sum", ["--", ...dirty], {
          cwd: root,
          stdio: ["ignore", "pipe", "ignore"],
          maxBuffer: 1 << 26,
        }),
    );
    row("hash 2,000 dirty files: devrites", (dirtyBytes / 1e6 / ours) * 1000, "MB/s", {
      note: `${ours.toFixed(0)} ms`,
    });
    row("hash 2,000 dirty files: sha256sum", (dirtyBytes / 1e6 / theirs) * 1000, "MB/s", {
      note: `${theirs.toFixed(0)} ms`,
    });
    const ratioSmall = theirs / ours;
    row("throughput ratio, dirty files", ratioSmall, "× sha256sum", {
      target: "≥ 0.7",
      ok: ratioSmall >= 0.7,
    });

    const big = join(top, "big.bin");
    writeFileSync(big, Buffer.alloc(BIG_FILE_MB * 1024 * 1024, 0x5a));
    const [oursBig, theirsBig] = await pairedBest(
      5,
      () => sha256File(big),
      () => execFileSync("sha256sum", [big], { stdio: ["ignore", "pipe", "ignore"] }),
    );
    const ratioBig = theirsBig / oursBig;
    row(`hash one ${BIG_FILE_MB} MB file: devrites`, (BIG_FILE_MB / oursBig) * 1000, "MB/s", {
      note: `${oursBig.toFixed(0)} ms`,
    });
    row(`hash one ${BIG_FILE_MB} MB file: sha256sum`, (BIG_FILE_MB / theirsBig) * 1000, "MB/s", {
      note: `${theirsBig.toFixed(0)} ms`,
    });
    row("throughput ratio, one large file", ratioBig, "× sha256sum", {
      target: "≥ 0.7",
      ok: ratioBig >= 0.7,
    });

    // ---------------------------------------------------------------- baseline: `packet new`, end to end
    const inputs = ["d0/f0.ts", "d1/f1.ts"];
    const freeze = await time(() =>
      runPacketNew({
        cwd: root,
        role: "devrites-evidence-scout",
        rite: "rite-build",
        objective: "Benchmark: map the fixture.",
        allow: [],
        inputs,
        now: new Date(),
      }),
    );
    if (freeze.value.exitCode !== 0 || !freeze.value.data) {
      throw new Error(`packet new failed: ${JSON.stringify(freeze.value.diagnostics)}`);
    }
    row("baseline: packet new (freeze + write)", freeze.ms, "ms", { note: cpuNote(freeze.cpu) });
    const first = freeze.value.data.packet;

    // ---------------------------------------------------------------- 200 packets and results (setup)
    const packets = await writeWave(root, first, RESULTS, inputs);

    // ---------------------------------------------------------------- validate all 200, end to end
    const checks = await time(() =>
      runResultChecks({ cwd: root, items: packets.map((p) => ({ result: p.result_path })), now: new Date() }),
    );
    const accepted = checks.value.filter((o) => o.data?.verdict === "accepted").length;
    row(`validate ${RESULTS} results (one tree snapshot)`, checks.ms, "ms", {
      target: `${RESULTS} accepted`,
      ok: accepted === RESULTS,
      note: `${accepted}/${RESULTS} accepted; ${cpuNote(checks.cpu)}`,
    });
    row("validate, per result", checks.ms / RESULTS, "ms");
    const total = freeze.ms + checks.ms;
    row("end to end: baseline + validate 200", total, "ms", {
      target: "≤ 1500",
      ok: total <= 1500,
      note: `CPU ${(freeze.cpu + checks.cpu).toFixed(0)} ms`,
    });

    // ---------------------------------------------------------------- one `result check`, cold snapshot
    const single = await best(3, () =>
      runResultCheck({ cwd: root, result: first.result_path, now: new Date() }),
    );
    row("one result check (own snapshot)", single, "ms");
    const cycle = freeze.ms + single;
    row("end to end: baseline + one check", cycle, "ms", { target: "≤ 1500", ok: cycle <= 1500 });
    if (accepted !== RESULTS) {
      const bad = checks.value.find((o) => o.data?.verdict !== "accepted");
      row("first non-accepted codes", 0, "", {
        note: JSON.stringify(bad?.diagnostics.slice(0, 5).map((d) => [d.code, d.path])),
      });
    }
    return rows;
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}
