/**
 * `devrites init`'s sandbox check: finds the mechanism the hook would use and actually starts one (bubblewrap
 * with the same namespaces and flags a leaf's call gets, running `/bin/true`), so the answer is what this
 * machine does, not what its files suggest.
 */

import { spawnSync } from "node:child_process";
import { chooseMechanism, detectMechanisms } from "./mechanism.js";
import { nodeDetectFs } from "./node-fs.js";
import { BWRAP_BASE_ARGS } from "./plan.js";

export type SandboxCheck =
  | { ok: true; mechanism: "bwrap"; bwrap: string; copyOnWrite: boolean }
  | { ok: false; why: string; hint: string };

const HINT =
  "leaf shell calls then run unsandboxed and the guard's classifier decides alone (guard_strength `enforced`, not `sandboxed`). Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`; see docs/guard-policy.md (Sandbox) for distributions that restrict user namespaces";

export function checkSandbox(
  env: { PATH?: string | undefined } = process.env,
  run: (argv: string[]) => { status: number | null; stderr: string } = spawnQuiet,
): SandboxCheck {
  const m = chooseMechanism(detectMechanisms(nodeDetectFs, env, process.platform, process.getuid?.() ?? 0));
  if (m.kind !== "bwrap") {
    // detectMechanisms alone never offers Landlock (the hook adds the helper it finds)
    return { ok: false, why: m.kind === "none" ? m.why : "bubblewrap is not usable here", hint: HINT };
  }
  const probe = run([m.bwrap, ...BWRAP_BASE_ARGS, "--", "/bin/true"]);
  if (probe.status !== 0) {
    const said = probe.stderr.trim().split("\n")[0] ?? "";
    return {
      ok: false,
      why: `bubblewrap is installed but cannot start a sandbox here${said ? ` (${said})` : ""}`,
      hint: HINT,
    };
  }
  const cow =
    m.unshare !== undefined &&
    run([
      "/bin/sh",
      "-c",
      '"$1" --user --map-root-user --mount mount -t tmpfs devrites-check /dev/shm',
      "devrites-check",
      m.unshare,
    ]).status === 0;
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
