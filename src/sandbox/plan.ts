/**
 * The sandbox planner: a leaf's shell command → the command the host runs instead, which runs the original
 * inside a bubblewrap sandbox shaped by the leaf's role. Pure: the only file-system access is through the
 * injected `Probe` (lstat/realpath), so the planner is unit-tested with fakes and effect-tested for real.
 *
 * What every sandbox gets (bubblewrap ≥ 0.8):
 * - the whole file system read-only (`--ro-bind / /`), a fresh `/dev` and `/proc`;
 * - a private, empty, writable `/tmp` (a tmpfs that vanishes with the sandbox; `TMPDIR=/tmp`,
 *   `XDG_CACHE_HOME=/tmp/.cache`): the scratch directory; the folders that usually hold other programs' sockets
 *   are hidden the same way (`MASKED_DIRS`, `MASKED_HOME_DIRS`, `MASKED_SOCKETS`): connecting to a Unix socket
 *   needs no write access,
 *   so a read-only bind would still let the command drive a docker daemon, a tmux server or the session bus;
 * - no network, no view of or signals to other processes, no System V IPC (`--unshare-all`: net, pid, ipc, uts,
 *   cgroup), a user namespace of its own with every capability dropped and no further user namespaces
 *   (`--unshare-user --disable-userns --cap-drop ALL`), so nothing inside can remount what bubblewrap set up;
 * - a new session (`--new-session`: no `TIOCSTI` into the host's terminal), killed when its parent dies;
 * - no inherited file descriptor beyond 0, 1, 2 (bubblewrap passes them through: the native helper closes
 *   them before it starts bubblewrap, or without the helper the first shell inside does);
 * - the environment without `SCRUBBED_ENV_NAMES` / `SCRUBBED_ENV_PREFIXES` (./env.ts).
 *
 * Launch: with the native helper (`tools.helper`, the Landlock helper's launch modes), the script runs
 * `helper --plain|--cow … -- bwrap … -- <shell> -c <command>`: the helper removes the prefixed variables and
 * closes the descriptors, so the leaf's shell is the first program inside. Without it, a prelude bash inside
 * bubblewrap does both and execs the shell (one exec more per call).
 *
 * Per role:
 * - read-only roles: nothing else is writable;
 * - proof runner: the repository copy-on-write: the native helper's `--cow` (or, without the helper, an outer
 *   `unshare --user --map-root-user --mount` and `/bin/sh` running `mount`, `mkdir`, `mount`) makes a user +
 *   mount namespace of its own, mounts a tmpfs and an overlay of it over the repository, then execs
 *   bubblewrap, which binds the overlay writable and drops every capability before the command runs (so the
 *   command cannot undo the overlay). Writes land in the tmpfs and vanish when the command ends; the real tree
 *   and `.git` are never written. Without either, or for a repository path overlayfs cannot take, it runs like
 *   a read-only role;
 * - wright: each allowlisted file bound writable (its real path, which must be a regular file inside the
 *   repository with one link), nothing else. A missing allowlisted file (and its missing parent folders) is
 *   created empty before the sandbox starts, and removed afterwards if it is still empty; missing parent folders
 *   are created and left (see `docs/guard-policy.md`).
 *
 * The result is one `/bin/sh -c '<script>' devrites-sandbox` command: a single word list, so any host shell
 * (bash, zsh, sh, fish) runs it the same way. The script runs the sandbox; if that exits 1 and the same
 * sandbox cannot start `/bin/true`, the sandbox itself failed to start: it says so and exits 126. The leaf's
 * command never runs outside the sandbox.
 *
 * Landlock (`tools.landlock`, the helper of ./landlock-helper.ts): with bubblewrap, the start-failure branch
 * runs the command under the helper instead of exiting 126 (inside Codex's own sandbox bubblewrap cannot make
 * namespaces; the command never ran in the failed attempt, so this is no second run); without bubblewrap the
 * helper is the only mechanism. Under it: the scratch folder (`req.scratch`, also TMPDIR) writable, the
 * wright's allowlisted files writable in place, no non-unix socket, the same descriptor-closing and
 * environment scrub; the proof runner's repository is read-only (no copy-on-write); nothing is masked.
 */

import { isAbsolute, relative, sep } from "node:path";
import { HELPER_UNSET_PREFIXES, SCRUBBED_ENV_NAMES, scrubbedFrom, scrubPreamble } from "./env.js";
import { LandlockSpecError, landlockArgv } from "./landlock-helper.js";
import { shellJoin, shellQuote } from "./quote.js";

export type SandboxMode = "read-only" | "proof" | "wright";

/** What the planner may know about a path (production: `lstatSync` / `realpathSync`). */
export interface Probe {
  lstat(path: string): { kind: "file" | "dir" | "symlink" | "socket" | "other"; nlink: number } | undefined;
  realpath(path: string): string | undefined;
}

/** The programs a plan uses, from `chooseMechanism` (absolute paths): bubblewrap, the Landlock helper, or both. */
export interface SandboxTools {
  /** Absent: the plan runs the command under the Landlock helper directly. */
  bwrap?: string;
  /** util-linux `unshare`: the proof runner's copy-on-write view without the helper. */
  unshare?: string;
  /**
   * The native helper (the same program as `landlock`) in its launch modes, run before bubblewrap: it closes
   * inherited descriptors and removes the prefixed variables (`--plain`), so no prelude shell runs inside;
   * with `helperCow` it also makes the proof runner's copy-on-write view (`--cow`), one exec instead of
   * `unshare`, `sh`, `mount`, `mkdir`, `mount`.
   */
  helper?: string;
  /** Whether the helper may make the copy-on-write view here (it may mount in a user namespace it makes). */
  helperCow?: boolean;
  /** bash: the first shell inside the sandbox (closes descriptors, scrubs the environment). */
  bash: string;
  /**
   * The Landlock helper (`./landlock-helper.ts`). With `bwrap`: what the script runs the command under when
   * bubblewrap cannot start (inside Codex's own sandbox); without: the only mechanism.
   */
  landlock?: string;
}

export interface SandboxRequest {
  mode: SandboxMode;
  /** Repository root, a realpath. */
  root: string;
  /** The repository's git directory, a realpath (for a worktree: its private git dir). */
  gitDir: string;
  /** The wright's allowlist as absolute paths (ignored for other modes). */
  allowlist: readonly string[];
  /** The leaf's command, as the host would have run it. */
  command: string;
  /** Absolute directory the host would have run it in. */
  cwd: string;
  /** The shell that runs `command` inside the sandbox (absolute path; the host's shell: bash). */
  shell: string;
  tools: SandboxTools;
  /** The environment the hook sees (the host's): its prefixed names and exported functions are removed too. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A private, empty, writable folder for this call (realpath; the hook makes it, `./scratch.ts`): under
   * Landlock the only writable folder and `TMPDIR`. Required when `tools.landlock` is set.
   */
  scratch?: string;
}

export type SandboxRefusalCode = "sandbox.unsafe-allowlist" | "sandbox.bad-request";

export type SandboxPlan =
  | {
      ok: true;
      /** The command line the host runs: `/bin/sh -c '<script>' devrites-sandbox`. */
      command: string;
      /** The same as an argv, for hosts whose shell tool takes a word list. */
      argv: string[];
      /**
       * `bwrap`, `bwrap+overlay` for the proof runner's copy-on-write view, `landlock` when the helper is the
       * only mechanism. A bubblewrap plan with a Landlock fallback is still `bwrap`/`bwrap+overlay` (which one
       * ran is only known when it runs; the script says so on stderr when it falls back).
       */
      mechanism: "bwrap" | "bwrap+overlay" | "landlock";
      /** Whether the script falls back to the Landlock helper when bubblewrap cannot start. */
      landlockFallback: boolean;
      /** Decisions worth reporting (e.g. the proof runner fell back to read-only). */
      notes: string[];
    }
  | { ok: false; code: SandboxRefusalCode; path: string; why: string; hint: string };

/** Folders hidden behind an empty tmpfs when they exist: scratch space and other programs' sockets. */
export const MASKED_DIRS: readonly string[] = [
  "/tmp",
  "/var/tmp",
  "/run/user",
  "/run/dbus",
  "/run/systemd",
  "/run/docker",
  "/run/containerd",
  "/run/podman",
  "/run/lxd",
  "/run/screen",
  "/run/tmux",
  "/var/run/user",
  "/var/run/dbus",
  "/var/run/docker",
];

/**
 * Folders under the user's home (`HOME` of the hook's environment) hidden the same way: they hold sockets that
 * reach past the sandbox (an ssh ControlMaster socket runs commands on another machine, a desktop Docker or
 * Colima/Lima/OrbStack socket drives a daemon, the gpg agent signs) and keys a read-only role has no need of.
 */
export const MASKED_HOME_DIRS: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".docker/run",
  ".docker/desktop",
  ".colima",
  ".lima",
  ".orbstack/run",
];

/** Socket files covered with `/dev/null` when they exist. */
export const MASKED_SOCKETS: readonly string[] = [
  "/run/docker.sock",
  "/var/run/docker.sock",
  "/run/snapd.socket",
  "/run/snapd-snap.socket",
  "/var/run/snapd.socket",
];

/**
 * Allowlist entries the wright's sandbox never makes writable: files that tooling outside the sandbox runs or
 * loads later without asking (git hooks and config, dependencies and their `.bin`, host and editor settings
 * that start commands, shell environment hooks). `segment` matches any path segment, `top` the first one,
 * `file` the whole repository path.
 */
export const EXECUTED_LATER: readonly { match: "segment" | "top" | "file"; name: string; why: string }[] = [
  { match: "segment", name: ".git", why: "git runs hooks and reads config from it" },
  { match: "segment", name: ".devrites", why: "only the devrites CLI writes the workspace" },
  { match: "segment", name: "node_modules", why: "package managers and `npx` run what it holds" },
  { match: "top", name: ".husky", why: "git hooks run from it" },
  { match: "top", name: ".githooks", why: "git hooks run from it" },
  { match: "top", name: ".claude", why: "Claude Code runs hooks named in its settings" },
  { match: "top", name: ".codex", why: "Codex runs hooks named in its config" },
  { match: "top", name: ".agents", why: "agent hosts load skills and plugins from it" },
  { match: "top", name: ".vscode", why: "editors run tasks and settings from it" },
  { match: "top", name: ".direnv", why: "direnv loads it on `cd`" },
  { match: "file", name: ".envrc", why: "direnv runs it on `cd`" },
  { match: "file", name: ".mcp.json", why: "agent hosts start the servers it names" },
  { match: "file", name: ".npmrc", why: "npm runs the shell and scripts it names" },
  { match: "file", name: ".yarnrc.yml", why: "yarn runs the binary it names" },
  { match: "file", name: ".pnpmfile.cjs", why: "pnpm runs it" },
  { match: "file", name: "mise.toml", why: "mise runs its hooks on `cd`" },
  { match: "file", name: ".mise.toml", why: "mise runs its hooks on `cd`" },
];

/** Why `repoPath` (relative, `/`-separated) may not be writable by the wright's sandbox; undefined if it may. */
export function executedLater(repoPath: string): string | undefined {
  const segs = repoPath.split("/");
  for (const rule of EXECUTED_LATER) {
    const hit =
      rule.match === "segment"
        ? segs.includes(rule.name)
        : rule.match === "top"
          ? segs[0] === rule.name
          : repoPath === rule.name;
    if (hit) return `\`${rule.name}\`: ${rule.why}`;
  }
  return undefined;
}

/**
 * What every bubblewrap sandbox starts with (see the module comment): killed with its parent, a new session, every
 * namespace its own with no capability and no further user namespace, the whole file system read-only, a fresh
 * `/dev` and `/proc`. `devrites init`'s check starts exactly this (`./check.ts`).
 */
export const BWRAP_BASE_ARGS: readonly string[] = [
  "--die-with-parent",
  "--new-session",
  "--unshare-all",
  "--unshare-user",
  "--disable-userns",
  "--cap-drop",
  "ALL",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
];

const SANDBOX_NAME = "devrites-sandbox";
const FELL_BACK =
  "devrites sandbox: bubblewrap could not start here (see the message above); the command runs under Landlock instead: only its allowlisted files (a wright) and a private scratch folder are writable, no network.";
const PROOF_READ_ONLY =
  "The proof runner's repository is read-only there (no copy-on-write): write caches and reports to $TMPDIR.";
/** Runs the Landlock helper with the variables removed and set (bubblewrap's `--unsetenv`/`--setenv`). */
const ENV_PROGRAM = "/usr/bin/env";
const START_FAILED =
  "devrites sandbox: the sandbox could not start here (see the message above), so the command did not run; a leaf's shell command never runs outside it. Report this to the root session.";

function inside(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function under(dir: string, p: string): boolean {
  return p === dir || p.startsWith(dir === "/" ? "/" : `${dir}/`);
}

/**
 * Where, inside the proof runner's own mount namespace, the tmpfs holding the overlay's upper layer is mounted.
 * Any existing folder would do; `/dev/shm` is on every Linux, and bubblewrap's fresh `/dev` hides it from the
 * command. No temporary folder is made, so none is left behind and the script has nothing to remove (Claude
 * Code asks before a rewritten script that removes anything, which in `-p` mode is a refusal).
 */
const COW_MOUNT = "/dev/shm";

/** Overlayfs takes `lowerdir=` paths without these (`,` splits options, `:` lower layers, `\` escapes). */
const OVERLAY_UNSAFE = /[,:\\\n\r]/;

/** Why the proof runner's repository at `root` cannot be copy-on-write here (a note for the plan), if it can. */
export function copyOnWriteRefusal(root: string, tools: SandboxTools, probe: Probe): string | undefined {
  if (tools.unshare === undefined && !(tools.helper !== undefined && tools.helperCow === true)) {
    return "no `unshare` and no native helper that may mount here: the proof runner's repository is read-only instead of copy-on-write";
  }
  if (probe.lstat(COW_MOUNT)?.kind !== "dir" || under(COW_MOUNT, root)) {
    return `no \`${COW_MOUNT}\` folder to mount the copy-on-write layer on: the proof runner's repository is read-only instead`;
  }
  if (OVERLAY_UNSAFE.test(root)) {
    return "the repository path has a character overlayfs cannot take (`,` `:` `\\` or a line break): the proof runner's repository is read-only instead of copy-on-write";
  }
  return undefined;
}

/**
 * What starts bubblewrap: the native helper (`--plain`, or `--cow` for the copy-on-write view), the `unshare`
 * chain (copy-on-write without a helper that may mount), or nothing (bubblewrap directly).
 */
export type Launcher =
  | { via: "helper"; helper: string }
  | { via: "unshare"; unshare: string }
  | { via: "direct" };

export function launcherOf(tools: SandboxTools, cow: boolean): Launcher {
  if (tools.helper !== undefined && (!cow || tools.helperCow === true))
    return { via: "helper", helper: tools.helper };
  if (cow && tools.unshare !== undefined) return { via: "unshare", unshare: tools.unshare };
  return { via: "direct" };
}

/**
 * The argv that starts `sandbox` (bubblewrap's argv) through `launcher`; with `cowRoot`, inside the
 * copy-on-write view of that folder (mounted on `COW_MOUNT`). `devrites init`'s check runs this too.
 */
export function launchArgv(
  launcher: Launcher,
  cowRoot: string | undefined,
  sandbox: readonly string[],
): string[] {
  if (launcher.via === "helper") {
    return [
      launcher.helper,
      ...(cowRoot !== undefined ? ["--cow", cowRoot, "--cow-at", COW_MOUNT] : ["--plain"]),
      ...HELPER_UNSET_PREFIXES.flatMap((p) => ["--unset-prefix", p]),
      "--",
      ...sandbox,
    ];
  }
  if (cowRoot === undefined) return [...sandbox];
  if (launcher.via !== "unshare") throw new Error("copy-on-write needs the helper or unshare (a bug)");
  const mountScript =
    'mount -t tmpfs devrites-cow "$1" && mkdir "$1/u" "$1/w" && mount -t overlay devrites-cow -o "lowerdir=$2,upperdir=$1/u,workdir=$1/w" "$2" || exit 1; shift 2; exec "$@"';
  return [
    launcher.unshare,
    "--user",
    "--map-root-user",
    "--mount",
    "/bin/sh",
    "-c",
    mountScript,
    "devrites-cow",
    COW_MOUNT,
    cowRoot,
    ...sandbox,
  ];
}

interface WrightFile {
  /** The path to bind writable (a realpath). */
  bind: string;
  /** Set when the file is missing: create it (and these missing folders, outermost first) beforehand. */
  create?: { file: string; dirs: string[] };
}

function refuse(
  code: SandboxRefusalCode,
  path: string,
  why: string,
  hint: string,
): Extract<SandboxPlan, { ok: false }> {
  return { ok: false, code, path, why, hint };
}

function planWright(
  req: SandboxRequest,
  probe: Probe,
): { ok: true; files: WrightFile[] } | Extract<SandboxPlan, { ok: false }> {
  const files: WrightFile[] = [];
  const hint =
    "ask the root for a packet whose allowlist holds only regular files of the repository, or write this file with the Edit/Write tools";
  for (const path of req.allowlist) {
    if (typeof path !== "string" || !isAbsolute(path) || path.includes("\u0000")) {
      return refuse("sandbox.bad-request", String(path), "an allowlist entry is not an absolute path", hint);
    }
    if (!inside(req.root, path) || path === req.root) {
      return refuse("sandbox.unsafe-allowlist", path, "the allowlisted path is outside the repository", hint);
    }
    const lexical = executedLater(relative(req.root, path).split(sep).join("/"));
    if (lexical) {
      return refuse(
        "sandbox.unsafe-allowlist",
        path,
        `the allowlisted path is one that tooling outside the sandbox runs later (${lexical})`,
        hint,
      );
    }
    const st = probe.lstat(path);
    if (st === undefined) {
      // Missing: the nearest existing ancestor must be a real folder (no symlink on the way) in the repository.
      const dirs: string[] = [];
      let dir = path.slice(0, path.lastIndexOf("/")) || "/";
      for (;;) {
        const d = probe.lstat(dir);
        if (d === undefined) {
          dirs.unshift(dir);
          dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
          continue;
        }
        if (d.kind !== "dir" || probe.realpath(dir) !== dir || !inside(req.root, dir)) {
          return refuse(
            "sandbox.unsafe-allowlist",
            path,
            `the allowlisted file is missing and its folder \`${dir}\` is not a plain folder of the repository (a symlink, or not a folder)`,
            hint,
          );
        }
        break;
      }
      files.push({ bind: path, create: { file: path, dirs } });
      continue;
    }
    const real = probe.realpath(path);
    const target = real === undefined ? undefined : probe.lstat(real);
    if (real === undefined || target === undefined) {
      return refuse("sandbox.unsafe-allowlist", path, "the allowlisted path is a dangling symlink", hint);
    }
    if (!inside(req.root, real) || inside(req.gitDir, real)) {
      return refuse(
        "sandbox.unsafe-allowlist",
        path,
        `the allowlisted path resolves to \`${real}\`, outside the repository's work tree`,
        hint,
      );
    }
    const realWhy = executedLater(relative(req.root, real).split(sep).join("/"));
    if (realWhy) {
      return refuse(
        "sandbox.unsafe-allowlist",
        path,
        `the allowlisted path resolves to \`${real}\`, which tooling outside the sandbox runs later (${realWhy})`,
        hint,
      );
    }
    if (target.kind !== "file") {
      return refuse(
        "sandbox.unsafe-allowlist",
        path,
        `the allowlisted path is not a regular file (${target.kind})`,
        hint,
      );
    }
    if (target.nlink > 1) {
      return refuse(
        "sandbox.unsafe-allowlist",
        path,
        `the allowlisted file has ${target.nlink} hard links, so writing it would change another path too`,
        hint,
      );
    }
    files.push({ bind: real });
  }
  return { ok: true, files };
}

/** Plan the sandboxed command for one leaf shell call. */
export function planSandbox(req: SandboxRequest, probe: Probe): SandboxPlan {
  for (const [name, p] of [
    ["root", req.root],
    ["git dir", req.gitDir],
    ["cwd", req.cwd],
    ["shell", req.shell],
    ["bash", req.tools.bash],
    ...(req.tools.bwrap !== undefined ? [["bwrap", req.tools.bwrap] as const] : []),
    ...(req.tools.helper !== undefined ? [["native helper", req.tools.helper] as const] : []),
    ...(req.tools.landlock !== undefined
      ? [["Landlock helper", req.tools.landlock] as const, ["scratch folder", req.scratch] as const]
      : []),
  ] as const) {
    if (typeof p !== "string" || !isAbsolute(p) || p.includes("\u0000")) {
      return refuse(
        "sandbox.bad-request",
        String(p),
        `the ${name} is not an absolute path`,
        "a wiring problem",
      );
    }
  }
  if (typeof req.command !== "string" || req.command.includes("\u0000")) {
    return refuse(
      "sandbox.bad-request",
      "command",
      "the command contains a NUL byte",
      "send the command as plain text",
    );
  }
  if (req.tools.bwrap === undefined && req.tools.landlock === undefined) {
    return refuse(
      "sandbox.bad-request",
      "tools",
      "neither bubblewrap nor the Landlock helper",
      "a wiring problem",
    );
  }
  const notes: string[] = [];
  let wright: WrightFile[] = [];
  if (req.mode === "wright") {
    const w = planWright(req, probe);
    if (!w.ok) return w;
    wright = w.files;
  }
  let cow = req.mode === "proof" && req.tools.bwrap !== undefined;
  if (req.mode === "proof" && req.tools.landlock !== undefined && req.tools.bwrap === undefined) {
    notes.push(
      "under Landlock the proof runner's repository is read-only (no copy-on-write): writes go to the scratch folder ($TMPDIR) only",
    );
  }
  if (cow) {
    const why = copyOnWriteRefusal(req.root, req.tools, probe);
    if (why !== undefined) {
      cow = false;
      notes.push(why);
    }
  }
  const launcher = launcherOf(req.tools, cow);

  // --- bubblewrap's arguments --------------------------------------------------------------------------
  const args: string[] = [req.tools.bwrap ?? "bwrap", ...BWRAP_BASE_ARGS];
  const masked: string[] = [];
  for (const d of MASKED_DIRS) {
    if (masked.some((m) => under(m, d))) continue;
    // A path through a symlink (`/var/run` → `/run`) is masked under its real name, or not at all.
    if (probe.lstat(d)?.kind === "dir" && probe.realpath(d) === d) {
      args.push("--tmpfs", d);
      masked.push(d);
    }
  }
  for (const s of MASKED_SOCKETS) {
    if (masked.some((m) => under(m, s))) continue;
    const k = probe.lstat(s)?.kind;
    if (k !== undefined && k !== "dir" && k !== "symlink" && probe.realpath(s) === s)
      args.push("--ro-bind", "/dev/null", s);
  }
  // Bring back, read-only, what the masks hid but the command needs: the repository, its git dir, the cwd.
  // (the copy-on-write repository is bound writable below, over anything restored inside it)
  const restored: string[] = cow ? [req.root] : [];
  for (const p of [req.root, req.gitDir, req.cwd]) {
    if (!masked.some((m) => under(m, p) && p !== m)) continue;
    if (restored.some((r) => under(r, p))) continue;
    if (probe.lstat(p) === undefined) continue;
    args.push("--ro-bind", p, p);
    restored.push(p);
  }
  if (cow) args.push("--bind", req.root, req.root);
  for (const f of wright) args.push("--bind", f.bind, f.bind);
  // The home folders last, over anything restored or bound: a repository in the home never brings them back.
  const home = req.env?.HOME;
  if (home?.startsWith("/") && home !== "/" && probe.realpath(home) === home) {
    for (const rel of MASKED_HOME_DIRS) {
      const d = `${home}/${rel}`;
      if (probe.lstat(d)?.kind === "dir" && probe.realpath(d) === d) {
        args.push("--tmpfs", d);
      }
    }
  }
  // The same environment changes, descriptor closing and scrub for both mechanisms.
  const unset = [...SCRUBBED_ENV_NAMES, ...scrubbedFrom(req.env ?? {})];
  const tmp = (dir: string) => [
    ["TMPDIR", dir],
    ["XDG_CACHE_HOME", `${dir}/.cache`],
  ];
  for (const [k, v] of tmp("/tmp")) args.push("--setenv", k as string, v as string);
  for (const name of unset) args.push("--unsetenv", name);
  args.push("--chdir", req.cwd, "--");
  const closeFds =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
    'for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *) eval "exec $n>&-";; esac; done';
  const inner = `${closeFds}; ${scrubPreamble()}; exec ${shellQuote(req.shell)} -c "$1"`;
  // With the helper the descriptors are closed and the variables removed before bubblewrap starts: the leaf's
  // shell is the first program inside, exactly as the host would have started it.
  const innerShell = (command: string) =>
    launcher.via === "helper"
      ? [req.shell, "-c", command]
      : [req.tools.bash, "--noprofile", "--norc", "-c", inner, SANDBOX_NAME, command];
  const sandboxRun = (command: string) => [...args, ...innerShell(command)];

  /** The command under the Landlock helper: the scratch folder writable, the wright's files, no network. */
  const landlockRun = (command: string): string => {
    const scratch = req.scratch as string;
    return shellJoin([
      ENV_PROGRAM,
      ...unset.flatMap((n) => ["-u", n]),
      ...tmp(scratch).map(([k, v]) => `${k}=${v}`),
      ...landlockArgv(
        req.tools.landlock as string,
        { readWrite: [scratch], writeFiles: [...new Set(wright.map((f) => f.bind))], denyTcp: true },
        // the helper does not change directory; the inner bash does, as bubblewrap's --chdir would
        [
          req.tools.bash,
          "--noprofile",
          "--norc",
          "-c",
          `cd -- ${shellQuote(req.cwd)} || exit 125; ${inner}`,
          SANDBOX_NAME,
          command,
        ],
      ),
    ]);
  };

  const launch = (command: string): string =>
    shellJoin(launchArgv(launcher, cow ? req.root : undefined, sandboxRun(command)));

  // --- the outer script --------------------------------------------------------------------------------
  try {
    return outerScript();
  } catch (e) {
    // The checks above leave nothing for the helper's argv to reject; should one be missed, refuse, never run.
    if (e instanceof LandlockSpecError)
      return refuse("sandbox.bad-request", "landlock", e.message, "a wiring problem");
    throw e;
  }

  function outerScript(): SandboxPlan {
    const lines: string[] = [];
    const dirs = [...new Set(wright.flatMap((f) => f.create?.dirs ?? []))];
    const created = wright.filter((f) => f.create);
    // Missing folders are made and left in place (an empty folder is invisible to git): removing them would
    // put `rmdir` in the script, and Claude Code asks before any rewritten script that removes something.
    for (const d of dirs) lines.push(`mkdir -- ${shellQuote(d)} 2>/dev/null`);
    created.forEach((f, i) => {
      const q = shellQuote(f.bind);
      lines.push(
        // noclobber: O_EXCL, so never through a symlink that appeared meanwhile; `command` keeps a failed
        // redirect from ending the script (no subshell: one fork less per missing file)
        `c${i}=; if [ ! -e ${q} ] && [ ! -L ${q} ]; then set -C; if command : 2>/dev/null > ${q}; then c${i}=1; fi; set +C; fi`,
      );
    });
    if (req.tools.bwrap === undefined) {
      lines.push(landlockRun(req.command));
      lines.push("s=$?");
    } else {
      lines.push(launch(req.command));
      lines.push("s=$?");
      // The command never ran when the sandbox did not start, so running it under Landlock is no second run.
      const fallback =
        req.tools.landlock === undefined
          ? `printf '%s\\n' ${shellQuote(START_FAILED)} >&2; s=126`
          : `printf '%s\\n' ${shellQuote(req.mode === "proof" ? `${FELL_BACK} ${PROOF_READ_ONLY}` : FELL_BACK)} >&2; ${landlockRun(req.command)}; s=$?`;
      // bubblewrap exits 1 when it cannot start; the helper 125 (both also possible exits of the command).
      const startFailed =
        launcher.via === "helper" ? '{ [ "$s" -eq 1 ] || [ "$s" -eq 125 ]; }' : '[ "$s" -eq 1 ]';
      lines.push(`if ${startFailed} && ! ${launch("true")} >/dev/null 2>&1; then ${fallback}; fi`);
    }
    created.forEach((f, i) => {
      const q = shellQuote(f.bind);
      lines.push(
        `if [ -n "$c${i}" ] && [ -f ${q} ] && [ ! -L ${q} ] && [ ! -s ${q} ]; then unlink -- ${q}; fi`,
      );
    });
    lines.push('exit "$s"');
    const script = lines.join("\n");
    const argv = ["/bin/sh", "-c", script, SANDBOX_NAME];
    return {
      ok: true,
      command: shellJoin(argv),
      argv,
      mechanism: req.tools.bwrap === undefined ? "landlock" : cow ? "bwrap+overlay" : "bwrap",
      landlockFallback: req.tools.bwrap !== undefined && req.tools.landlock !== undefined,
      notes,
    };
  }
}
