/**
 * Test support for judging the sandbox by its effects: a throwaway git repository, a byte-for-byte snapshot of
 * its work tree and `.git`, and running a planned command the way the hosts run a shell call.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { landlockHelperPath } from "../../src/sandbox/landlock-helper.js";
import {
  bwrapTools,
  chooseMechanism,
  detectMechanisms,
  type MechanismChoice,
} from "../../src/sandbox/mechanism.js";
import { nodeDetectFs, nodeProbe } from "../../src/sandbox/node-fs.js";
import { planSandbox, type SandboxMode } from "../../src/sandbox/plan.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The native helper `npm run build` made (`dist/native`), as the hook would find it; undefined when absent. */
export function helperHere(): string | undefined {
  return process.platform === "linux" ? landlockHelperPath(PACKAGE_ROOT) : undefined;
}

/** The mechanism the hook would choose here, the native helper included when it is built. */
export function mechanismHere(): MechanismChoice {
  const facts = detectMechanisms(nodeDetectFs, process.env, process.platform, process.getuid?.() ?? 0);
  const helper = helperHere();
  if (helper !== undefined) facts.landlock = helper;
  return chooseMechanism(facts);
}

/** A git repository with one commit under a fresh temp folder. */
export function makeRepo(files: Record<string, string>, parent = tmpdir()): string {
  const root = realpathSync(mkdtempSync(join(parent, "devrites-sbx-")));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "init");
  return root;
}

/** Every path under `root` (including `.git`) → its type, mode and content hash. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = lstatSync(p);
      const rel = p.slice(root.length + 1);
      if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = `dir ${st.mode.toString(8)}`;
        walk(p);
      } else {
        out[rel] =
          `file ${st.mode.toString(8)} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
      }
    }
  };
  walk(root);
  return out;
}

export interface PlanOpts {
  mode: SandboxMode;
  root: string;
  command: string;
  allowlist?: string[];
  cwd?: string;
  /** The environment the hook would see (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the native helper starts bubblewrap, as the hook plans it when the helper is built (default
   * true); false plans as without a helper (a prelude shell inside, `unshare` for copy-on-write).
   */
  helper?: boolean;
}

/** The planned command (throws when the planner refuses or no mechanism is here). */
export function planned(o: PlanOpts): string {
  const m = mechanismHere();
  if (m.kind !== "bwrap") throw new Error(`no sandbox here: ${m.kind === "none" ? m.why : m.kind}`);
  const tools = bwrapTools(m);
  if (o.helper === false) {
    delete tools.helper;
    delete tools.helperCow;
  }
  const p = planSandbox(
    {
      mode: o.mode,
      root: o.root,
      gitDir: join(o.root, ".git"),
      allowlist: (o.allowlist ?? []).map((a) => join(o.root, a)),
      command: o.command,
      cwd: o.cwd ?? o.root,
      shell: "/bin/bash",
      tools,
      env: o.env ?? process.env,
    },
    nodeProbe,
  );
  if (!p.ok) throw new Error(`planner refused: ${p.code} ${p.path}: ${p.why}`);
  return p.command;
}

export type HostShell = "claude" | "codex" | "sh";

/** How each host runs a shell call's command text: Claude in bash, Codex in a login shell. */
export function hostArgv(host: HostShell, command: string): string[] {
  if (host === "claude") return ["/bin/bash", "-c", command];
  if (host === "codex") return ["/bin/bash", "-lc", command];
  return ["/bin/sh", "-c", command];
}

export function run(
  command: string,
  opts: {
    host?: HostShell;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    stdio?: ("pipe" | "ignore" | number)[];
    wrap?: string[];
  } = {},
): { status: number | null; stdout: string; stderr: string } {
  const argv = [...(opts.wrap ?? []), ...hostArgv(opts.host ?? "claude", command)];
  const r = spawnSync(argv[0] as string, argv.slice(1), {
    encoding: "utf8",
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    stdio: opts.stdio ?? ["ignore", "pipe", "pipe"],
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
