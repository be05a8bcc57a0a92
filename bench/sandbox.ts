/**
 * What the sandbox adds to a leaf's shell call: the same command run the way Claude Code runs it
 * (`/bin/bash -c <command>`), with and without the devrites wrap, paired in the same rounds, for each role's
 * sandbox (read-only, the wright's allowlist, the proof runner's copy-on-write view). Target: ≤ 10 ms median
 * added. Planned as the hook plans it: the native helper (`dist/native`, found as the hook finds it beside
 * its bundle) starts bubblewrap; each role is also measured without the helper (a prelude shell inside, the
 * `unshare` chain for copy-on-write), to show what the helper saves. Skipped (one row saying why) where no
 * sandbox can start.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { landlockHelperPath } from "../src/sandbox/landlock-helper.js";
import { bwrapTools, chooseMechanism, detectMechanisms } from "../src/sandbox/mechanism.js";
import { nodeDetectFs, nodeProbe } from "../src/sandbox/node-fs.js";
import { planSandbox, type SandboxMode } from "../src/sandbox/plan.js";
import type { Row } from "./_types.js";

const ROUNDS = 40;
const TARGET_MS = 10;
const COMMAND = "git status --short >/dev/null && ls src >/dev/null";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function once(command: string, cwd: string): number {
  const t = performance.now();
  const r = spawnSync("/bin/bash", ["-c", command], { cwd, stdio: "ignore" });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${command.slice(0, 200)}`);
  return ms;
}

const PACKAGE_ROOT = fileURLToPath(new URL("../", import.meta.url));

export async function run(): Promise<Row[]> {
  const facts = detectMechanisms(nodeDetectFs, process.env, process.platform, process.getuid?.() ?? 0);
  const helper = landlockHelperPath(PACKAGE_ROOT);
  if (helper !== undefined) facts.landlock = helper;
  const m = chooseMechanism(facts);
  if (m.kind !== "bwrap") {
    return [
      {
        section: "sandbox",
        metric: "sandbox overhead",
        value: Number.NaN,
        unit: "ms",
        note: `skipped: ${m.kind === "none" ? m.why : "no bubblewrap"}`,
      },
    ];
  }
  const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-bench-sandbox-")));
  try {
    const root = join(top, "repo");
    mkdirSync(join(root, "src"), { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(root, "src", `f${i}.ts`), `export const v${i} = ${i};\n`);
    execFileSync("git", ["init", "-q"], { cwd: root });
    execFileSync("git", ["add", "-A"], { cwd: root });
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b.invalid", "commit", "-qm", "b"], {
      cwd: root,
    });
    const plan = (mode: SandboxMode, withHelper = true) => {
      if (m.kind !== "bwrap") throw new Error("unreachable");
      const tools = bwrapTools(m);
      if (!withHelper) {
        delete tools.helper;
        delete tools.helperCow;
      }
      const p = planSandbox(
        {
          mode,
          root,
          gitDir: join(root, ".git"),
          allowlist: mode === "wright" ? [join(root, "src/f1.ts"), join(root, "src/new.ts")] : [],
          command: COMMAND,
          cwd: root,
          shell: m.bash,
          tools,
        },
        nodeProbe,
      );
      if (!p.ok) throw new Error(p.why);
      return p.command;
    };
    const cases = [
      { metric: "unwrapped", command: COMMAND },
      { metric: "read-only", command: plan("read-only") },
      { metric: "wright", command: plan("wright") },
      { metric: "proof (copy-on-write)", command: plan("proof") },
      ...(helper !== undefined
        ? [
            { metric: "read-only, no helper", command: plan("read-only", false) },
            { metric: "wright, no helper", command: plan("wright", false) },
            { metric: "proof (copy-on-write), no helper", command: plan("proof", false) },
          ]
        : []),
    ];
    for (const c of cases) once(c.command, root);
    const times = cases.map(() => [] as number[]);
    for (let i = 0; i < ROUNDS; i++) {
      for (let k = 0; k < cases.length; k++) {
        const j = (k + i) % cases.length;
        times[j]?.push(once((cases[j] as { command: string }).command, root));
      }
    }
    const base = median(times[0] as number[]);
    const rows: Row[] = [
      {
        section: "sandbox",
        metric: `${COMMAND} median, unwrapped`,
        value: base,
        unit: "ms",
        note: `${ROUNDS} paired runs; ${helper !== undefined ? "native helper found" : "no native helper (run npm run build)"}`,
      },
    ];
    cases.slice(1).forEach((c, i) => {
      const t = times[i + 1] as number[];
      // paired difference: each round's wrapped run minus the same round's unwrapped run
      const diffs = t.map((x, r) => x - ((times[0] as number[])[r] as number));
      const added = median(diffs);
      rows.push({
        section: "sandbox",
        metric: `${c.metric}: added per call (median of paired differences)`,
        value: added,
        unit: "ms",
        target: `≤ ${TARGET_MS}`,
        ok: added <= TARGET_MS,
        note: `wrapped median ${median(t).toFixed(1)} ms`,
      });
    });
    return rows;
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}
