/**
 * Which sandbox mechanism a leaf's shell call gets on this machine. Two halves:
 *
 * - `chooseMechanism(facts)`: pure, from what was found → the mechanism, or `none` with the reason (the guard
 *   then decides alone: "classified" mode). This is the seam for further mechanisms: Landlock (no namespaces
 *   needed, so it also works inside Codex's own sandbox) and macOS `sandbox-exec` come in here as new kinds,
 *   each with its own planner.
 * - `detectMechanisms(fs, env)`: the facts, found cheaply enough for the hook's path: a `stat` per candidate
 *   folder and a read of up to three `/proc/sys` files; no process is started. Whether a sandbox really starts
 *   is only known when it runs: a wrapped command whose sandbox cannot start exits 126 with a message and
 *   never runs unsandboxed (see ./plan.ts). `devrites init` tries one for real.
 */

import type { SandboxTools } from "./plan.js";

export interface MechanismFacts {
  platform: string;
  /** Absolute paths of the programs found (undefined when absent). */
  bwrap?: string;
  unshare?: string;
  bash?: string;
  /** The Landlock helper the package ships, when the hook found a usable one (`landlockHelperPath`). */
  landlock?: string;
  /** Whether this kernel applies Landlock (`landlockSupported`); only asked when bubblewrap is unusable. */
  landlockOk?: boolean;
  /**
   * Whether a program without an AppArmor profile of its own may mount in a user namespace it makes (false
   * for an ordinary user under Ubuntu's `apparmor_restrict_unprivileged_userns`): the helper's `--cow`.
   */
  profilelessMounts?: boolean;
  /** Whether this user may create user namespaces, as far as `/proc/sys` tells; with the reason when not. */
  userns: { ok: true } | { ok: false; why: string };
}

export type MechanismChoice =
  /** `landlock`: the helper the script falls back to when bubblewrap cannot start (Codex's own sandbox). */
  | {
      kind: "bwrap";
      bwrap: string;
      unshare?: string;
      bash: string;
      landlock?: string;
      /** The helper (`landlock`) may make the proof runner's copy-on-write view here (`--cow`). */
      helperCow?: boolean;
    }
  /** No usable bubblewrap, but the Landlock helper and a kernel that applies it. */
  | { kind: "landlock"; landlock: string; bash: string }
  | { kind: "none"; why: string };

export function chooseMechanism(f: MechanismFacts): MechanismChoice {
  if (f.platform !== "linux") {
    return { kind: "none", why: `no sandbox mechanism for platform \`${f.platform}\` yet` };
  }
  if (f.bash === undefined) return { kind: "none", why: "no `bash` in /bin or /usr/bin" };
  if (f.bwrap !== undefined && f.userns.ok) {
    return {
      kind: "bwrap",
      bwrap: f.bwrap,
      bash: f.bash,
      ...(f.unshare !== undefined ? { unshare: f.unshare } : {}),
      ...(f.landlock !== undefined ? { landlock: f.landlock } : {}),
      ...(f.landlock !== undefined && f.profilelessMounts === true ? { helperCow: true } : {}),
    };
  }
  if (f.landlock !== undefined && f.landlockOk === true) {
    return { kind: "landlock", landlock: f.landlock, bash: f.bash };
  }
  if (f.bwrap === undefined) {
    return {
      kind: "none",
      why: "bubblewrap (`bwrap`) is not installed (Debian/Ubuntu: `apt-get install bubblewrap`)",
    };
  }
  return { kind: "none", why: f.userns.ok ? "no sandbox mechanism" : f.userns.why };
}

/**
 * The planner's programs for a bubblewrap choice, the native helper (when found) starting bubblewrap; the
 * helper as Landlock fallback is added by the caller, which also needs a scratch folder for it.
 */
export function bwrapTools(m: Extract<MechanismChoice, { kind: "bwrap" }>): SandboxTools {
  return {
    bwrap: m.bwrap,
    bash: m.bash,
    ...(m.unshare !== undefined ? { unshare: m.unshare } : {}),
    ...(m.landlock !== undefined ? { helper: m.landlock, ...(m.helperCow ? { helperCow: true } : {}) } : {}),
  };
}

/** The file-system reads detection needs (production: node:fs). */
export interface DetectFs {
  /** Whether `path` is an executable regular file. */
  isExecutable(path: string): boolean;
  /** A small file's text, or undefined when it cannot be read. */
  readText(path: string): string | undefined;
  exists(path: string): boolean;
}

const FIXED_BIN_DIRS = ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin"];

function findProgram(name: string, fs: DetectFs, pathVar: string | undefined): string | undefined {
  const dirs = [...FIXED_BIN_DIRS];
  for (const d of (pathVar ?? "").split(":")) {
    // Only absolute PATH entries: a relative one would make the answer depend on the cwd.
    if (d.startsWith("/") && !dirs.includes(d)) dirs.push(d);
  }
  for (const d of dirs) {
    const p = `${d.replace(/\/+$/, "")}/${name}`;
    if (fs.isExecutable(p)) return p;
  }
  return undefined;
}

/**
 * Whether unprivileged user namespaces are allowed, from the kernel's knobs:
 * `user.max_user_namespaces` (0 = none for anyone), Debian's `kernel.unprivileged_userns_clone` (0 = root
 * only) and Ubuntu's AppArmor restriction `kernel.apparmor_restrict_unprivileged_userns` (1 = only programs
 * with an AppArmor profile that allows it; Ubuntu 24.04 ships one for bwrap only in some releases, so a
 * profile file named `bwrap*` under /etc/apparmor.d must be present).
 */
export function usernsAllowed(fs: DetectFs, uid: number): MechanismFacts["userns"] {
  const max = fs.readText("/proc/sys/user/max_user_namespaces")?.trim();
  if (max === "0") return { ok: false, why: "user namespaces are disabled (`user.max_user_namespaces = 0`)" };
  if (uid === 0) return { ok: true };
  if (fs.readText("/proc/sys/kernel/unprivileged_userns_clone")?.trim() === "0") {
    return {
      ok: false,
      why: "unprivileged user namespaces are disabled (`kernel.unprivileged_userns_clone = 0`); set it to 1",
    };
  }
  if (
    fs.readText("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")?.trim() === "1" &&
    !fs.exists("/etc/apparmor.d/bwrap") &&
    !fs.exists("/etc/apparmor.d/bwrap-userns-restrict")
  ) {
    return {
      ok: false,
      why: "AppArmor restricts unprivileged user namespaces (`kernel.apparmor_restrict_unprivileged_userns = 1`) and no AppArmor profile for bwrap is installed (see docs/guard-policy.md, Sandbox)",
    };
  }
  return { ok: true };
}

export function detectMechanisms(
  fs: DetectFs,
  env: { PATH?: string | undefined },
  platform: string,
  uid: number,
): MechanismFacts {
  if (platform !== "linux") return { platform, userns: { ok: false, why: "not Linux" } };
  const bwrap = findProgram("bwrap", fs, env.PATH);
  let unshare = findProgram("unshare", fs, env.PATH);
  // Under Ubuntu's AppArmor restriction a program needs a profile of its own to mount in a user namespace it
  // makes; without one the proof runner's copy-on-write view could not start, so it is planned read-only.
  const profilelessMounts =
    uid === 0 || fs.readText("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")?.trim() !== "1";
  if (unshare !== undefined && !profilelessMounts && !fs.exists("/etc/apparmor.d/unshare")) {
    unshare = undefined;
  }
  const bash = ["/bin/bash", "/usr/bin/bash"].find((p) => fs.isExecutable(p));
  return {
    platform,
    ...(bwrap !== undefined ? { bwrap } : {}),
    ...(unshare !== undefined ? { unshare } : {}),
    ...(bash !== undefined ? { bash } : {}),
    profilelessMounts,
    userns: usernsAllowed(fs, uid),
  };
}
