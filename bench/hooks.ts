/**
 * The PreToolUse hook's start-to-exit wall time against `node -e 0`, paired in one run: each round runs the
 * baseline and every hook input once, in turn, so load on the machine hits all of them alike. Three inputs:
 * a root-session call (`Write`), a leaf `Write` and a leaf `Bash` command, both from a devrites role with an
 * active packet (the guard reads the workspace and records a `guard.decision`). Target: median ≤ 1.3×.
 *
 * Runs the committed bundle `hooks/pre-tool-use.mjs` (`npm run build` first).
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { Row } from "./_types.js";

const ROUNDS = Number(process.env.DEVRITES_BENCH_ROUNDS ?? 40);
const TARGET = 1.3;
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUNDLE = join(REPO, "hooks", "pre-tool-use.mjs");

const WRIGHT_RUN = "run-20261129T221500Z-0000000a";
const SCOUT_RUN = "run-20261129T221500Z-0000000b";

/** A throwaway repository with a workspace: one active wright run and one active scout run. */
function workspace(): { root: string; cleanup(): void } {
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
  return { root, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}

interface Case {
  metric: string;
  args: string[];
  stdin: string;
  /** The exit code the case must produce, so a broken hook is not measured as a fast one. */
  expect: number;
}

function cases(root: string, emptyModule: string): Case[] {
  const base = { session_id: "s", transcript_path: "/t", cwd: root, hook_event_name: "PreToolUse" };
  return [
    { metric: "node -e 0", args: ["-e", "0"], stdin: "", expect: 0 },
    // the floor for any `.mjs` hook: Node's ES module loader alone, with no code at all
    { metric: "empty .mjs", args: [emptyModule], stdin: "", expect: 0 },
    {
      metric: "root Write",
      args: [BUNDLE],
      stdin: JSON.stringify({
        ...base,
        tool_name: "Write",
        tool_input: { file_path: join(root, "src/parser.ts"), content: "export {};\n" },
      }),
      expect: 0,
    },
    {
      metric: "leaf Write (wright, allowlisted)",
      args: [BUNDLE],
      stdin: JSON.stringify({
        ...base,
        agent_id: "a1",
        agent_type: "devrites:devrites-slice-wright",
        tool_name: "Write",
        tool_input: { file_path: join(root, "src/parser.ts"), content: "export {};\n" },
      }),
      expect: 0,
    },
    {
      metric: "leaf Bash (scout, redirect denied)",
      args: [BUNDLE],
      stdin: JSON.stringify({
        ...base,
        agent_id: "a2",
        agent_type: "devrites-evidence-scout",
        tool_name: "Bash",
        tool_input: { command: "grep -rn parse src | sort | head -20 > notes.txt" },
      }),
      expect: 2,
    },
  ];
}

function once(c: Case, cwd: string): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, c.args, {
    input: c.stdin,
    cwd,
    env: { PATH: process.env.PATH ?? "" },
  });
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
    const emptyModule = join(ws.root, "..", "empty.mjs");
    writeFileSync(emptyModule, "");
    const all = cases(ws.root, emptyModule);
    for (const c of all) once(c, ws.root); // warm the file cache
    const times = all.map(() => [] as number[]);
    for (let i = 0; i < ROUNDS; i++) {
      // rotate the order each round so no case always runs first
      for (let k = 0; k < all.length; k++) {
        const j = (k + i) % all.length;
        times[j]!.push(once(all[j]!, ws.root));
      }
    }
    const base = median(times[0]!);
    const rows: Row[] = [
      {
        section: "hooks",
        metric: "node -e 0 median",
        value: base,
        unit: "ms",
        note: `${ROUNDS} paired runs`,
      },
    ];
    all.slice(1).forEach((c, i) => {
      const m = median(times[i + 1]!);
      const ratio = m / base;
      const hook = c.args[0] === BUNDLE;
      const name = hook ? `pre-tool-use ${c.metric}` : c.metric;
      rows.push({ section: "hooks", metric: `${name} median`, value: m, unit: "ms" });
      rows.push({
        section: "hooks",
        metric: `${name} / node -e 0`,
        value: ratio,
        unit: "×",
        ...(hook ? { target: `≤ ${TARGET}`, ok: ratio <= TARGET } : { note: "floor for any .mjs entry" }),
      });
    });
    return rows;
  } finally {
    ws.cleanup();
  }
}
