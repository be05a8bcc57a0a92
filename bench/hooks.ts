/**
 * The PreToolUse hook's start-to-exit wall time against `node -e 0`, paired in one run: each round runs the
 * baselines and every hook case once, in turn (the order rotating), so load on the machine hits all of them
 * alike. Three inputs: a root-session call (`Write`), a leaf `Write` and a leaf `Bash` command, both from a
 * devrites role with an active packet (the guard reads the workspace and records a `guard.decision`).
 * Target: median ≤ 1.3×.
 *
 * Measured as the host runs it: the wired command, exactly as `projectHookCommand` renders it for the shipped
 * pack's wiring (the `node -e` launcher finding `.devrites/hooks/pre-tool-use.cjs` in the throwaway repository
 * and loading it in process), through `/bin/sh -c` with stdin piped and the repository as cwd, against
 * `/bin/sh -c "node -e 0"` (the same shell, so the ratio compares Node work with Node work). The launcher's
 * compile cache lives in the workspace (`TMPDIR`) and is filled by the warm-up call, as a user's is after the
 * first call; every case also runs with the cache off, to show what it saves. The bare bundle
 * (`node hooks/pre-tool-use.cjs`, no launcher, no shell) is timed beside it against a plain `node -e 0`.
 *
 * Runs the committed bundle `hooks/pre-tool-use.cjs` (`npm run build` first).
 */

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { projectHookCommand } from "../src/hosts/hooks.js";
import { HOOK_BUNDLE_EXT, HOOKS_DIR } from "../src/hosts/output-path.js";
import { loadPack } from "../src/pack/index.js";
import type { Row } from "./_types.js";

const ROUNDS = Number(process.env.DEVRITES_BENCH_ROUNDS ?? 40);
const TARGET = 1.3;
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = "pre-tool-use";
const BUNDLE = join(REPO, "hooks", `${ENTRY}${HOOK_BUNDLE_EXT}`);

const WRIGHT_RUN = "run-20261129T221500Z-0000000a";
const SCOUT_RUN = "run-20261129T221500Z-0000000b";

/** A throwaway repository with a workspace: one active wright run and one active scout run. */
function workspace(): { root: string; tmp: string; cleanup(): void } {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-bench-hooks-")));
  const root = join(top, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  const runs = [
    { run_id: WRIGHT_RUN, role: "devrites-slice-wright", writes: ["src/parser.ts", "src/parser.test.ts"] },
    { run_id: SCOUT_RUN, role: "devrites-evidence-scout", writes: [] },
  ];
  for (const r of runs) {
    const dir = join(root, ".devrites", "runs", r.run_id);
    mkdirSync(dir, { recursive: true });
    const packet = {
      run_id: r.run_id,
      role: r.role,
      scope: { in: ["src"], out: [], allowed_repo_writes: r.writes },
    };
    writeFileSync(join(dir, "packet.json"), JSON.stringify(packet, null, 2));
  }
  const state = {
    schema: "devrites-state/v1",
    active_rite: "rite-build",
    phase: "build",
    active_runs: runs.map((r, i) => ({
      run_id: r.run_id,
      role: r.role,
      step_id: `rite-build/${r.role}#${i + 1}`,
      packet_path: `.devrites/runs/${r.run_id}/packet.json`,
      created_at: "2026-11-29T22:15:00.000Z",
    })),
    updated_at: "2026-11-29T22:15:00.000Z",
  };
  writeFileSync(join(root, ".devrites", "state.json"), JSON.stringify(state, null, 2));
  // the project layout's copy of the bundle, where the wired command looks for it
  mkdirSync(join(root, HOOKS_DIR), { recursive: true });
  copyFileSync(BUNDLE, join(root, HOOKS_DIR, `${ENTRY}${HOOK_BUNDLE_EXT}`));
  const tmp = join(top, "tmp");
  mkdirSync(tmp);
  return { root, tmp, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}

interface Case {
  metric: string;
  /** Which baseline the case is compared with; undefined for a baseline. */
  base?: "node" | "sh";
  cmd: string;
  args: string[];
  stdin: string;
  /** The exit code the case must produce, so a broken hook is not measured as a fast one. */
  expect: number;
  /** Extra environment for this case. */
  env?: Record<string, string>;
}

/** The command the shipped pack wires for the guard, in the project layout. */
async function wiredCommand(): Promise<string> {
  const pack = await loadPack(join(REPO, "pack", ".claude"));
  const w = pack.model.hooks.find((h) => h.event === "PreToolUse");
  if (!w) throw new Error("the shipped pack wires no PreToolUse hook");
  return projectHookCommand(w);
}

function cases(root: string, wired: string): Case[] {
  const base = { session_id: "s", transcript_path: "/t", cwd: root, hook_event_name: "PreToolUse" };
  const inputs = [
    {
      name: "root Write",
      stdin: JSON.stringify({
        ...base,
        tool_name: "Write",
        tool_input: { file_path: join(root, "src/parser.ts"), content: "export {};\n" },
      }),
      expect: 0,
    },
    {
      name: "leaf Write (wright, allowlisted)",
      stdin: JSON.stringify({
        ...base,
        agent_id: "a1",
        agent_type: "devrites:devrites-slice-wright",
        tool_name: "Write",
        tool_input: { file_path: join(root, "src/parser.ts"), content: "export {};\n" },
      }),
      expect: 0,
    },
    // the scout as the plugin names it: this workspace installs no agent files, so a bare role name would be a
    // foreign agent (src/envelope/roles.ts), judged without a packet and kept out of the ledger
    {
      name: "leaf Bash (scout, redirect denied)",
      stdin: JSON.stringify({
        ...base,
        agent_id: "a2",
        agent_type: "devrites:devrites-evidence-scout",
        tool_name: "Bash",
        tool_input: { command: "grep -rn parse src | sort | head -20 > notes.txt" },
      }),
      expect: 2,
    },
    {
      // allowed and rewritten to run in the sandbox (where one can start: stdout carries the updatedInput)
      name: "leaf Bash (scout, sandboxed allow)",
      stdin: JSON.stringify({
        ...base,
        agent_id: "a2",
        agent_type: "devrites:devrites-evidence-scout",
        tool_name: "Bash",
        tool_input: { command: "grep -rn parse src | sort | head -20" },
      }),
      expect: 0,
    },
  ];
  const node = process.execPath;
  return [
    { metric: "node -e 0", cmd: node, args: ["-e", "0"], stdin: "", expect: 0 },
    { metric: "sh -c node -e 0", cmd: "/bin/sh", args: ["-c", `"${node}" -e 0`], stdin: "", expect: 0 },
    ...inputs.map((c) => ({
      metric: `wired ${c.name}`,
      base: "sh" as const,
      cmd: "/bin/sh",
      args: ["-c", wired],
      stdin: c.stdin,
      expect: c.expect,
    })),
    // every call again with the compile cache off (src/hosts/compile-cache/bootstrap.ts): what it saves, and
    // whether the hook would meet its target without it
    ...inputs.map((c) => ({
      metric: `wired ${c.name}, no compile cache`,
      base: "sh" as const,
      cmd: "/bin/sh",
      args: ["-c", wired],
      stdin: c.stdin,
      expect: c.expect,
      env: { DEVRITES_NO_COMPILE_CACHE: "1" },
    })),
    ...inputs.map((c) => ({
      metric: `bare bundle ${c.name}`,
      base: "node" as const,
      cmd: node,
      args: [BUNDLE],
      stdin: c.stdin,
      expect: c.expect,
    })),
  ];
}

function once(c: Case, cwd: string, path: string, tmp: string): number {
  const t = performance.now();
  // TMPDIR: the launcher's compile cache lives in the throwaway workspace, filled by the warm-up call
  const r = spawnSync(c.cmd, c.args, { input: c.stdin, cwd, env: { PATH: path, TMPDIR: tmp, ...c.env } });
  const ms = performance.now() - t;
  if (r.status !== c.expect) {
    throw new Error(`${c.metric}: exit ${r.status}, expected ${c.expect}: ${String(r.stderr).slice(0, 500)}`);
  }
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function run(): Promise<Row[]> {
  const ws = workspace();
  try {
    // the wired command says `node`: put this Node first on PATH so it runs the same binary as the baselines
    const path = [dirname(process.execPath), process.env.PATH ?? ""].join(":");
    const all = cases(ws.root, await wiredCommand());
    for (const c of all) once(c, ws.root, path, ws.tmp); // warm the file cache and the compile cache
    const times = all.map(() => [] as number[]);
    for (let i = 0; i < ROUNDS; i++) {
      // rotate the order each round so no case always runs first
      for (let k = 0; k < all.length; k++) {
        const j = (k + i) % all.length;
        times[j]!.push(once(all[j]!, ws.root, path, ws.tmp));
      }
    }
    const medians = new Map(all.map((c, i) => [c.metric, median(times[i]!)]));
    const mins = new Map(all.map((c, i) => [c.metric, Math.min(...times[i]!)]));
    const baseOf = { node: medians.get("node -e 0")!, sh: medians.get("sh -c node -e 0")! };
    const minBaseOf = { node: mins.get("node -e 0")!, sh: mins.get("sh -c node -e 0")! };
    const rows: Row[] = [];
    for (const c of all) {
      const m = medians.get(c.metric)!;
      rows.push({
        section: "hooks",
        metric: `${c.metric} median`,
        value: m,
        unit: "ms",
        ...(c.base ? {} : { note: `${ROUNDS} paired runs` }),
      });
      if (!c.base) continue;
      const ratio = m / baseOf[c.base];
      // on a loaded machine the medians swing with the load; the fastest runs show the work itself
      const minRatio = mins.get(c.metric)! / minBaseOf[c.base];
      rows.push({
        section: "hooks",
        metric: `${c.metric} / ${c.base === "sh" ? "sh -c node -e 0" : "node -e 0"}`,
        value: ratio,
        unit: "×",
        target: `≤ ${TARGET}`,
        ok: ratio <= TARGET,
        note: `${c.base === "sh" ? "what the host runs" : "bundle alone, for comparison"}; fastest/fastest ${minRatio.toFixed(2)}×`,
      });
    }
    return rows;
  } finally {
    ws.cleanup();
  }
}
