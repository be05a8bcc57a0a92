/**
 * The guard's decision on pathological shell commands, in process (`npm run bench -- guard`): each shape repeated
 * up to the size cap (128 KiB) and decided for the wright with an active packet. The worst case was 6 KB of
 * repeated `cd a; `, which took over 30 s before cd tracking was bounded; a decision must stay well inside the
 * PreToolUse hook's 3 s deadline on any input. Best of three per shape; the process CPU time is printed beside.
 */

import { performance } from "node:perf_hooks";
import { decide, MAX_COMMAND_CHARS } from "../src/guard/index.js";
import type { GuardContext } from "../src/guard/types.js";
import type { Row } from "./_types.js";

/** [name, unit, times (default: up to the size cap)] */
const SHAPES: [string, string, number?][] = [
  ["cd a; ×1000, the reported case (was > 30 s)", "cd a; ", 1000],
  ["cd a; ×999 then a write", "cd a; ", 999],
  ["cd a;", "cd a; "],
  ["cd a && cd b && …", "cd a && cd b && "],
  ["cd ..; cd -; pushd; popd", "cd ..; cd -; pushd a; popd; "],
  ["nested bash -c with cds", "bash -c 'cd a; cd b; cat f'; "],
  ["one command, single-letter words", "x "],
  ["cd then a write, repeated", "cd a; echo x >> f; "],
];

const TARGET_MS = 1500;

function ctx(): GuardContext {
  return {
    root: "/r",
    activePackets: [
      { run_id: "run-20260101T000000Z-00000001", role: "devrites-slice-wright", allowed_repo_writes: ["f"] },
    ],
    resolve: (p) => ({ ok: true, path: p }),
    isInstalledRole: () => true,
  };
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [name, unit, times] of SHAPES) {
    const repeated = unit.repeat(times ?? Math.floor((MAX_COMMAND_CHARS - 8) / unit.length));
    const command = name.endsWith("then a write") ? `${repeated.slice(0, -2)} && echo x > /r/f` : repeated;
    let best = Number.POSITIVE_INFINITY;
    let cpu = 0;
    let rule = "";
    for (let i = 0; i < 3; i++) {
      const c = process.cpuUsage();
      const t = performance.now();
      const d = decide(
        {
          agent_id: "a",
          agent_type: "devrites-slice-wright",
          tool_name: "Bash",
          tool_input: { command },
          cwd: "/r",
        },
        ctx(),
      );
      const ms = performance.now() - t;
      if (ms < best) {
        best = ms;
        const u = process.cpuUsage(c);
        cpu = (u.user + u.system) / 1000;
      }
      rule = d.decision === "deny" ? d.rule : "allow";
    }
    rows.push({
      section: "guard",
      metric: `decide ${(command.length / 1024).toFixed(1)} KiB: ${name}`,
      value: best,
      unit: "ms",
      target: `≤ ${TARGET_MS}`,
      ok: best <= TARGET_MS,
      note: `${rule}; cpu ${cpu.toFixed(0)} ms`,
    });
  }
  return rows;
}
