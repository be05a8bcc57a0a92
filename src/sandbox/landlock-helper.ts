/**
 * Where the Landlock helper (`native/landlock-exec.c`, built by `scripts/build-native.ts`) is, whether this
 * kernel can run it, and the argv that runs a program under it. Everything here runs inside the PreToolUse
 * hook, so nothing spawns: a handful of `stat`s and one small read (see `docs/sandbox-landlock.md`).
 *
 * Resolution order of `landlockHelperPath()` (first regular, executable file that no one else may write wins):
 *   1. an explicit package root: `<root>/dist/native/<name>` only;
 *   2. beside the running hook bundle `<dir>/<entry>.cjs`: `<dir>/../native/<name>` (a plugin install:
 *      `<plugin>/hooks/` and `<plugin>/native/`; a project install when the helper is copied to
 *      `.devrites/native/`);
 *   3. the checkout or package the bundle belongs to: `<dir>/../dist/native/<name>` (`<pkg>/hooks/`);
 *   4. the installed package, as Node resolves it from the bundle up: `<ancestor>/node_modules/devrites/
 *      dist/native/<name>` for each ancestor of `<dir>` (a project install: `<repo>/.devrites/hooks/`);
 *   5. the package installed in the repository the call is for, `<repo>/node_modules/devrites/dist/native/
 *      <name>`: a host plugin's bundle lives outside the repository (Codex's plugin cache), and its helper is
 *      the project's, installed with the roles (`init --host none --roles codex`). The same file rung 4 finds
 *      for a project install, and as closed to leaves (the sandbox never lets one write `node_modules/`).
 * Nothing comes from PATH or the environment: what the hook runs unsandboxed must not be chosen by a leaf.
 */

import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

/** The exit code with which the helper refuses (bad argument, no Landlock, a failed system call). */
export const LANDLOCK_REFUSED_EXIT = 125;

/** Where `scripts/build-native.ts` puts the helper, relative to the package root. */
export const NATIVE_DIR = "dist/native";

/** The helper's file name for a platform (`devrites-landlock-linux-x64`); undefined off Linux. */
export function landlockHelperName(platform: string = process.platform, arch: string = process.arch) {
  return platform === "linux" ? `devrites-landlock-linux-${arch}` : undefined;
}

/** Where the hook looks, in order (pure: see the module comment). `bundleFile` is the running hook bundle. */
export function landlockHelperCandidates(
  where: { packageRoot?: string; bundleFile?: string; repoRoot?: string },
  name: string,
): string[] {
  if (where.packageRoot !== undefined) return [join(where.packageRoot, NATIVE_DIR, name)];
  const out: string[] = [];
  if (where.bundleFile !== undefined && isAbsolute(where.bundleFile)) {
    const hooksDir = dirname(where.bundleFile);
    const above = dirname(hooksDir);
    out.push(join(above, "native", name), join(above, NATIVE_DIR, name));
    for (let d = hooksDir; ; d = dirname(d)) {
      out.push(join(d, "node_modules", "devrites", NATIVE_DIR, name));
      if (dirname(d) === d) break;
    }
  }
  if (where.repoRoot !== undefined && isAbsolute(where.repoRoot)) {
    const project = join(where.repoRoot, "node_modules", "devrites", NATIVE_DIR, name);
    if (!out.includes(project)) out.push(project);
  }
  return out;
}

/** The hook bundle running in this process, as the generated launcher publishes it (`src/hosts/launcher.ts`). */
function runningBundle(): string | undefined {
  const source = (globalThis as Record<symbol, unknown>)[Symbol.for("devrites.source")];
  const file = (source as { filename?: unknown } | undefined)?.filename;
  return typeof file === "string" ? file : undefined;
}

/**
 * A regular file, executable by its owner, owned by this user or root, and writable by no one else: a helper
 * another account could replace would run unsandboxed with this user's rights.
 */
export function usableHelper(path: string): boolean {
  try {
    // no throw for the common case (not there): a hook's first exception costs more than the whole stat
    const st = statSync(path, { throwIfNoEntry: false });
    if (st === undefined) return false;
    const uid = typeof process.getuid === "function" ? process.getuid() : 0;
    return (
      st.isFile() && (st.mode & 0o100) !== 0 && (st.mode & 0o022) === 0 && (st.uid === uid || st.uid === 0)
    );
  } catch {
    return false;
  }
}

/** The built helper for this platform, if present and usable (stat only). */
export function landlockHelperPath(
  packageRoot?: string,
  opts: { bundleFile?: string; repoRoot?: string; platform?: string; arch?: string } = {},
): string | undefined {
  const name = landlockHelperName(opts.platform, opts.arch);
  if (name === undefined) return undefined;
  const bundleFile = opts.bundleFile ?? runningBundle();
  const where = {
    ...(packageRoot !== undefined ? { packageRoot } : {}),
    ...(bundleFile !== undefined ? { bundleFile } : {}),
    ...(opts.repoRoot !== undefined ? { repoRoot: opts.repoRoot } : {}),
  };
  return landlockHelperCandidates(where, name).find(usableHelper);
}

/** What a wrapped command may write and whether it may use the network. */
export interface LandlockSpec {
  /** Directories writable with everything beneath them (created, removed, renamed, linked within). */
  readWrite: readonly string[];
  /** Existing regular files writable in place (written, truncated); nothing may be created beside them. */
  writeFiles: readonly string[];
  /** No IP socket at all (TCP denied by Landlock, every non-unix socket by the helper's seccomp filter). */
  denyTcp: boolean;
}

/** A spec or argv the helper would refuse, found before anything runs. */
export class LandlockSpecError extends Error {
  constructor(
    readonly code: "landlock.path-not-absolute" | "landlock.nul-byte" | "landlock.empty-argv",
    message: string,
  ) {
    super(message);
    this.name = "LandlockSpecError";
  }
}

function checkPath(flag: string, p: string): string {
  if (p.includes("\0"))
    throw new LandlockSpecError("landlock.nul-byte", `${flag} ${JSON.stringify(p)}: NUL byte`);
  if (!isAbsolute(p)) {
    throw new LandlockSpecError(
      "landlock.path-not-absolute",
      `${flag} ${JSON.stringify(p)}: not an absolute path (hint: resolve it against the repository root)`,
    );
  }
  return p;
}

/** The argv that runs `argv` under the helper with `spec` (throws LandlockSpecError on what it would refuse). */
export function landlockArgv(helper: string, spec: LandlockSpec, argv: readonly string[]): string[] {
  if (argv.length === 0) throw new LandlockSpecError("landlock.empty-argv", "no program to run");
  for (const a of argv) {
    if (a.includes("\0"))
      throw new LandlockSpecError("landlock.nul-byte", `argument ${JSON.stringify(a)}: NUL byte`);
  }
  return [
    helper,
    ...spec.readWrite.flatMap((d) => ["--rw", checkPath("--rw", d)]),
    ...spec.writeFiles.flatMap((f) => ["--rw-file", checkPath("--rw-file", f)]),
    ...(spec.denyTcp ? ["--no-tcp"] : []),
    "--",
    ...argv,
  ];
}

/** The kernel's active security modules, when securityfs is mounted (it is not in every container). */
export const LSM_LIST = "/sys/kernel/security/lsm";

/**
 * Whether this kernel runs Landlock, from the LSM list: `yes`/`no` when the list can be read, `unknown` when
 * it cannot (securityfs not mounted, as in many containers and on the machines devrites is tested on).
 */
export function landlockListed(lsmFile: string = LSM_LIST): "yes" | "no" | "unknown" {
  let text: string;
  try {
    text = readFileSync(lsmFile, "utf8");
  } catch {
    return "unknown";
  }
  return text.trim().split(",").includes("landlock") ? "yes" : "no";
}

let probed: { helper: string; abi: number | undefined } | undefined;

/** The helper's `--abi` answer (one spawn, so remembered for the process). */
export function probeLandlockAbi(helper: string): number | undefined {
  if (probed?.helper === helper) return probed.abi;
  const r = spawnSync(helper, ["--abi"], {
    encoding: "utf8",
    timeout: 2000,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const abi = r.status === 0 && /^\d+\n$/.test(r.stdout) ? Number(r.stdout) : undefined;
  probed = { helper, abi };
  return abi;
}

/**
 * Whether Landlock can apply here. The LSM list decides when it can be read (no spawn: a read of a tiny
 * file). When it cannot, the answer is false unless `probeHelper` is given, which is then asked once
 * (`--abi`, exit 0). A wrong "true" never runs a command unsandboxed: the helper refuses with exit 125 on a
 * kernel without Landlock; a wrong "false" only means another mechanism or the classifier decides.
 */
export function landlockSupported(opts: { lsmFile?: string; probeHelper?: string } = {}): boolean {
  const listed = landlockListed(opts.lsmFile);
  if (listed !== "unknown") return listed === "yes";
  return opts.probeHelper !== undefined && probeLandlockAbi(opts.probeHelper) !== undefined;
}
