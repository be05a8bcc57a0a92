/**
 * `devrites init`'s sandbox check: finds the mechanism the hook would use and actually starts one, the way the
 * planner starts it (the native helper's `--plain` when the package has one, then bubblewrap with the same
 * namespaces and flags a leaf's call gets, running `/bin/true`), and the proof runner's copy-on-write view of
 * the repository (`--cow`, or the `unshare` chain), so the answer is what this machine does, not what its
 * files suggest.
 */

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { landlockHelperPath } from "./landlock-helper.js";
import { bwrapTools, chooseMechanism, detectMechanisms } from "./mechanism.js";
import { nodeDetectFs, nodeProbe } from "./node-fs.js";
import { BWRAP_BASE_ARGS, copyOnWriteRefusal, launchArgv, launcherOf } from "./plan.js";

/** This package's root (`dist/sandbox/` or `src/sandbox/` → two folders up), where `dist/native` lies. */
const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export type SandboxCheck =
  | { ok: true; mechanism: "bwrap"; bwrap: string; copyOnWrite: boolean }
  | { ok: false; why: string; hint: string };

const HINT =
  "leaf shell calls then run unsandboxed and the guard's classifier decides alone (guard_strength `enforced`, not `sandboxed`). Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`; see docs/guard-policy.md (Sandbox) for distributions that restrict user namespaces";

export function checkSandbox(
  env: { PATH?: string | undefined } = process.env,
  run: (argv: string[]) => { status: number | null; stderr: string } = spawnQuiet,
  opts: {
    /** The repository the copy-on-write view is tried on (a realpath; default: the current folder's). */
    root?: string;
    /** The native helper (default: this package's, when built); null: none. */
    helper?: string | null;
  } = {},
): SandboxCheck {
  const facts = detectMechanisms(nodeDetectFs, env, process.platform, process.getuid?.() ?? 0);
  const helper = opts.helper === null ? undefined : (opts.helper ?? landlockHelperPath(PACKAGE_ROOT));
  if (helper !== undefined && facts.platform === "linux") facts.landlock = helper;
  const m = chooseMechanism(facts);
  if (m.kind !== "bwrap") {
    // Landlock alone is not offered here: it is what the hook falls back to inside another sandbox
    return { ok: false, why: m.kind === "none" ? m.why : "bubblewrap is not usable here", hint: HINT };
  }
  const tools = bwrapTools(m);
  const probe = run(
    launchArgv(launcherOf(tools, false), undefined, [m.bwrap, ...BWRAP_BASE_ARGS, "--", "/bin/true"]),
  );
  if (probe.status !== 0) {
    const said = probe.stderr.trim().split("\n")[0] ?? "";
    return {
      ok: false,
      why: `bubblewrap is installed but cannot start a sandbox here${said ? ` (${said})` : ""}`,
      hint: HINT,
    };
  }
  const root = opts.root ?? nodeProbe.realpath(process.cwd()) ?? process.cwd();
  const cow =
    copyOnWriteRefusal(root, tools, nodeProbe) === undefined &&
    run(
      launchArgv(launcherOf(tools, true), root, [
        m.bwrap,
        ...BWRAP_BASE_ARGS,
        "--bind",
        root,
        root,
        "--",
        "/bin/true",
      ]),
    ).status === 0;
  return { ok: true, mechanism: "bwrap", bwrap: m.bwrap, copyOnWrite: cow };
}

function spawnQuiet(argv: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(argv[0] as string, argv.slice(1), {
    encoding: "utf8",
    timeout: 5000,
    stdio: ["ignore", "ignore", "pipe"],
  });
  return { status: r.status, stderr: r.stderr ?? String(r.error ?? "") };
}
