/**
 * `devrites validate` (the pre-commit and CI check), on this repository and on a large one: 20,000 committed
 * files (2,000 of them dirty), devrites installed by `devrites init` for both hosts, and a workspace of 200
 * runs whose results were checked and accepted (each with its 2,000-entry baseline to re-hash). Measures the
 * check in process and the CLI end to end (node startup included), full and `--staged`.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { commandNames } from "../src/cli/registry.js";
import "../src/cli/main.js"; // registers every command (the pack lint checks the commands the pack names)
import type { RoleName } from "../src/envelope/roles.js";
import { standInBundles } from "../src/hosts/fixtures.js";
import { runInstall } from "../src/install/run.js";
import { PACKAGE_HOOKS } from "../src/install/sources.js";
import { runPacketNew } from "../src/packet/create.js";
import { runResultChecks } from "../src/result/check.js";
import { workspacePaths } from "../src/run/workspace.js";
import { validateRepo } from "../src/validate-repo/index.js";
import type { Row } from "./_types.js";
import { writeWave } from "./_wave.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(REPO, "bin", "devrites.js");
const FILES = 20_000;
const DIRS = 200;
const DIRTY = 2_000;
const RUNS = 200;
const _READ_ONLY: RoleName[] = [
  "devrites-evidence-scout",
  "devrites-plan-drafter",
  "devrites-proof-runner",
  "devrites-spec-reviewer",
  "devrites-code-reviewer",
];

function git(root: string, ...args: string[]): void {
  execFileSync("git", args, { cwd: root, stdio: "ignore", maxBuffer: 1 << 28 });
}

async function best(n: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

/**
 * CPU time (user + system, ms) of the children this process has waited for, from /proc (Linux); NaN elsewhere.
 * Unlike wall time it does not grow when the machine is busy with other work.
 */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state); cutime and cstime are fields 16 and 17, in clock ticks (100 per second).
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * The CLI as a user runs it: a fresh node process, best of `n` (wall time, and the least CPU time of a run),
 * or undefined when dist/ is not built.
 */
function cliMs(
  cwd: string,
  args: string[],
  n: number,
  env: NodeJS.ProcessEnv = process.env,
): { ms: number; cpu: number; code: number } | undefined {
  if (!existsSync(join(REPO, "dist", "cli", "main.js"))) return undefined;
  let ms = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  let code = -1;
  for (let i = 0; i < n; i++) {
    const c = childrenCpuMs();
    const t = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, stdio: "ignore" });
    ms = Math.min(ms, performance.now() - t);
    cpu = Math.min(cpu, childrenCpuMs() - c);
    code = r.status ?? -1;
  }
  return { ms, cpu, code };
}

const loadNote = () => `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`;

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, extra: Partial<Row> = {}) =>
    rows.push({ section: "validate-repo", metric, value, unit, ...extra });
  const known = commandNames();

  // ---------------------------------------------------------------- this repository
  const self = await validateRepo({ cwd: REPO, staged: false, knownCommands: known });
  row(
    "this repo: in process",
    await best(5, () => validateRepo({ cwd: REPO, staged: false, knownCommands: known })),
    "ms",
    {
      note: `exit ${self.exitCode}: ${self.data.checks.map((c) => c.name).join(", ")}`,
    },
  );
  const selfCli = cliMs(REPO, ["validate"], 5);
  if (selfCli)
    row("this repo: CLI end to end", selfCli.ms, "ms", {
      target: "≤ 300",
      ok: selfCli.ms <= 300,
      note: `exit ${selfCli.code}; node startup included; CPU ${selfCli.cpu.toFixed(0)} ms; ${loadNote()}`,
    });
  else
    row("this repo: CLI end to end", Number.NaN, "ms", {
      target: "≤ 300",
      note: "dist/ not built (npm run build)",
    });
  const nodeOnly = await best(5, () => spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" }));
  row("node startup alone (node -e 0)", nodeOnly, "ms");

  // ---------------------------------------------------------------- the bench repository
  const top = mkdtempSync(join(tmpdir(), "devrites-bench-vr-"));
  const root = join(top, "repo");
  try {
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
      writeFileSync(join(root, p), `// file ${i}\nexport const v${i} = ${i};\n`.repeat(20));
    }
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "bench fixture");

    let hooks = PACKAGE_HOOKS;
    if (!existsSync(join(hooks, "pre-tool-use.cjs"))) {
      hooks = join(top, "hooks");
      mkdirSync(hooks);
      for (const [e, text] of standInBundles()) writeFileSync(join(hooks, `${e}.cjs`), text);
    }
    const installed = await runInstall({
      mode: "init",
      cwd: root,
      dryRun: false,
      force: false,
      now: new Date(),
      knownCommands: known,
      version: "bench",
      hooksDir: hooks,
    });
    if (installed.exitCode !== 0) throw new Error(`init failed: ${JSON.stringify(installed.diagnostics)}`);
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "devrites init");
    for (let k = 0; k < DIRTY; k++) {
      const p = paths[k * Math.floor(FILES / DIRTY)]!;
      writeFileSync(join(root, p), `// changed ${k}\n`);
    }

    // 200 runs on one frozen candidate, all checked and accepted.
    const first = await runPacketNew({
      cwd: root,
      role: "devrites-evidence-scout",
      rite: "rite-build",
      objective: "Benchmark.",
      allow: [],
      inputs: ["d0/f0.ts"],
      now: new Date(),
    });
    if (first.exitCode !== 0 || !first.data)
      throw new Error(`packet new: ${JSON.stringify(first.diagnostics)}`);
    const packets = await writeWave(root, first.data.packet, RUNS, ["d0/f0.ts"]);
    const checked = await runResultChecks({
      cwd: root,
      items: packets.map((p) => ({ result: p.result_path })),
      now: new Date(),
    });
    const accepted = checked.filter((o) => o.data?.verdict === "accepted").length;
    row("bench repository", FILES, "files", {
      target: `${RUNS} runs accepted`,
      ok: accepted === RUNS,
      note: `${DIRTY} dirty; ${RUNS} runs, ${accepted} accepted; devrites init (claude, codex)`,
    });

    const opts = { cwd: root, knownCommands: known, hooksDir: hooks };
    const fullOnce = await validateRepo({ ...opts, staged: false });
    row("bench: full, in process", await best(3, () => validateRepo({ ...opts, staged: false })), "ms", {
      note: `exit ${fullOnce.exitCode}; ${fullOnce.data.checks.map((c) => `${c.name} ${c.ms.toFixed(0)} ms`).join(", ")}`,
    });
    const env = { ...process.env };
    const fullCli =
      hooks === PACKAGE_HOOKS
        ? cliMs(root, ["validate"], 3, env)
        : cliMs(root, ["validate", "--hooks", hooks], 3, env);
    if (fullCli)
      row("bench: full, CLI end to end", fullCli.ms, "ms", {
        target: "≤ 1500",
        ok: fullCli.ms <= 1500,
        note: `exit ${fullCli.code}; CPU ${fullCli.cpu.toFixed(0)} ms; ${loadNote()}`,
      });

    // A commit that touches one run and ten source files.
    git(root, "add", "-f", workspacePaths.runDir(packets[7]!.run_id));
    const step = Math.floor(FILES / DIRTY);
    git(root, "add", ...Array.from({ length: 10 }, (_, k) => paths[k * step]!));
    const stagedOnce = await validateRepo({ ...opts, staged: true });
    row(
      "bench: --staged (1 run + 10 files), in process",
      await best(3, () => validateRepo({ ...opts, staged: true })),
      "ms",
      {
        note: `exit ${stagedOnce.exitCode}; ${stagedOnce.data.staged?.evaluated}/${stagedOnce.data.staged?.paths} evaluated`,
      },
    );
    const stagedCli = cliMs(
      root,
      hooks === PACKAGE_HOOKS ? ["validate", "--staged"] : ["validate", "--staged", "--hooks", hooks],
      3,
      env,
    );
    if (stagedCli)
      row("bench: --staged, CLI end to end", stagedCli.ms, "ms", {
        target: "≤ 1500",
        ok: stagedCli.ms <= 1500,
        note: `exit ${stagedCli.code}; CPU ${stagedCli.cpu.toFixed(0)} ms; ${loadNote()}`,
      });
    return rows;
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}
