/**
 * The Landlock helper judged by effects: each attack runs the way the hook will run it (the helper wrapping
 * `sh -c CMD`), then the tree (work tree and `.git`, modes and owners included) is compared byte for byte,
 * TCP connections to a listener are counted, markers are looked for. Every attack is also run without the
 * helper (the control) to show it would have had an effect. Runs as this user, as an unprivileged user (made
 * with useradd when this is root), and nested inside bubblewrap.
 */

import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildNative, NATIVE_SOURCE } from "../../scripts/build-native.js";
import { CODEX_VERSION, hostCacheDir } from "../../tests/hosts/harness/install.js";
import {
  LANDLOCK_REFUSED_EXIT,
  type LandlockSpec,
  LandlockSpecError,
  landlockArgv,
  landlockHelperCandidates,
  landlockHelperName,
  landlockHelperPath,
  landlockListed,
  landlockSupported,
  probeLandlockAbi,
  usableHelper,
} from "./landlock-helper.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const IS_ROOT = process.getuid?.() === 0;
const TEST_USER = "devrites-ll";

/** The helper the package ships, built here when missing; why not, when it cannot be. */
function findOrBuildHelper(): { helper?: string; reason?: string } {
  const found = landlockHelperPath(ROOT);
  // a helper older than its source is rebuilt: the tests judge the source as it is
  if (found && statSync(found).mtimeMs >= statSync(join(ROOT, NATIVE_SOURCE)).mtimeMs)
    return { helper: found };
  const built = buildNative(ROOT);
  return built.status === "built" ? { helper: built.path } : { reason: built.reason };
}

const { helper, reason: noHelper } =
  process.platform === "linux" ? findOrBuildHelper() : { reason: "not Linux" };
const abi = helper ? probeLandlockAbi(helper) : undefined;

function sh(argv: readonly string[], opts: { cwd?: string; stdio?: (number | "ignore" | "pipe")[] } = {}) {
  return spawnSync(argv[0]!, argv.slice(1), {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH, HOME: opts.cwd ?? tmpdir(), LANG: "C", LC_ALL: "C" },
    encoding: "utf8",
    stdio: opts.stdio ?? ["ignore", "pipe", "pipe"],
    timeout: 20_000,
  });
}

/** A python3 one-liner with the socket module, as a shell word. */
const py = (body: string) => `python3 -c ${JSON.stringify(`import socket; ${body}`)}`;

function ok(r: SpawnSyncReturns<string>): SpawnSyncReturns<string> {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return r;
}

// ---------------------------------------------------------------------------------------------------------
// Who runs the helper: this user, an unprivileged one, this user inside bubblewrap.

interface Runner {
  name: string;
  skip?: string;
  /** Owner given to the fixture, so the control shows that file permissions are not what stops a write. */
  owner?: { uid: number; gid: number };
  /** Runs in a mount namespace of its own: a mount made there is not seen from here. */
  ownMounts?: boolean;
  /** Why the runner's own sandbox already stops this kind of control (network, inherited descriptors). */
  noNetworkControl?: string;
  noFdControl?: string;
  /**
   * The runner is itself a sandbox (Codex): its own refusals (a read-only `.git`, no sockets) may come
   * first, and a control it already stops is skipped with that reason.
   */
  outer?: string;
  wrap(argv: readonly string[], base: string): string[];
}

function unprivilegedRunner(): Runner {
  const name = "an unprivileged user";
  if (!IS_ROOT) return { name, skip: "already unprivileged (the first runner is)", wrap: (a) => [...a] };
  if (sh(["id", "-u", TEST_USER]).status !== 0) {
    const made = sh(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", TEST_USER]);
    if (made.status !== 0) return { name, skip: `useradd failed: ${made.stderr}`, wrap: (a) => [...a] };
  }
  const uid = Number(sh(["id", "-u", TEST_USER]).stdout);
  const gid = Number(sh(["id", "-g", TEST_USER]).stdout);
  return {
    name: `${name} (${TEST_USER}, uid ${uid})`,
    owner: { uid, gid },
    wrap: (a) => ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--", ...a],
  };
}

function bwrapRunner(): Runner {
  const name = "inside bwrap --ro-bind / /";
  const probe = sh(["bwrap", "--ro-bind", "/", "/", "--", "true"]);
  if (probe.status !== 0)
    return { name, skip: `bwrap cannot start: ${probe.error ?? probe.stderr}`, wrap: (a) => [...a] };
  return {
    name,
    ownMounts: true,
    wrap: (a, base) => [
      "bwrap",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--bind",
      base,
      base,
      "--",
      ...a,
    ],
  };
}

/**
 * Inside Codex 0.169.0's own sandbox (`codex sandbox`, workspace-write: the temp dir is writable), where
 * bubblewrap cannot start: the case the helper exists for. Uses the pinned binary only if the real-host
 * harness already installed it; its home must lie outside the temp dir (see the host facts reference).
 */
function codexRunner(): Runner {
  const name = `inside Codex ${CODEX_VERSION}'s sandbox`;
  const codex = join(hostCacheDir(), "node_modules", ".bin", "codex");
  const none = (skip: string): Runner => ({ name, skip, wrap: (a) => [...a] });
  if (!existsSync(codex))
    return none(`Codex ${CODEX_VERSION} not installed (tests/hosts/harness/install.ts)`);
  const home = join(hostCacheDir(), "..", "landlock-test-home");
  mkdirSync(join(home, ".codex"), { recursive: true });
  const wrap = (a: readonly string[]) => [
    "env",
    `HOME=${home}`,
    `CODEX_HOME=${join(home, ".codex")}`,
    codex,
    "sandbox",
    "-c",
    'sandbox_mode="workspace-write"',
    "--",
    ...a,
  ];
  const probe = sh(wrap(["bwrap", "--ro-bind", "/", "/", "true"]));
  if (!/Creating new namespace failed|Operation not permitted/.test(probe.stderr)) {
    return none(
      `codex sandbox did not refuse a nested namespace: exit ${probe.status}, ${probe.stderr.slice(0, 200)}`,
    );
  }
  return {
    name,
    ownMounts: true,
    noNetworkControl: "Codex's own sandbox has no network (nor unix sockets)",
    noFdControl: "Codex's own sandbox does not pass descriptors through",
    outer: "Codex's own sandbox",
    wrap,
  };
}

const RUNNERS: Runner[] =
  helper && abi !== undefined
    ? [
        { name: `this user (uid ${process.getuid?.()})`, wrap: (a) => [...a] },
        unprivilegedRunner(),
        codexRunner(),
        bwrapRunner(),
      ]
    : [];

// ---------------------------------------------------------------------------------------------------------
// The fixture: a git repository, a scratch directory (--rw) and a file outside both.

interface Fixture {
  base: string;
  repo: string;
  scratch: string;
  allowed: string;
  outside: string;
  spec: LandlockSpec;
}

function makeFixture(owner?: { uid: number; gid: number }): Fixture {
  const base = mkdtempSync(join(tmpdir(), "devrites-ll-"));
  const repo = join(base, "repo");
  const scratch = join(base, "scratch");
  mkdirSync(join(repo, "src"), { recursive: true });
  mkdirSync(scratch);
  writeFileSync(join(repo, "a.txt"), "a\n");
  writeFileSync(join(repo, "src", "b.txt"), "b\n");
  writeFileSync(join(repo, "allowed.txt"), "allowed\n");
  writeFileSync(join(base, "outside.txt"), "outside\n");
  const git = (...a: string[]) =>
    ok(sh(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...a], { cwd: repo }));
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  if (owner) sh(["chown", "-R", `${owner.uid}:${owner.gid}`, base]);
  const allowed = join(repo, "allowed.txt");
  return {
    base,
    repo,
    scratch,
    allowed,
    outside: join(base, "outside.txt"),
    spec: { readWrite: [scratch], writeFiles: [allowed], denyTcp: true },
  };
}

/** Every entry under `dir` but `skip`: type, mode, owner, and content hash or link target. */
function snapshot(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (skip.includes(p)) continue;
      const st = lstatSync(p);
      const what = st.isSymbolicLink()
        ? `link ${readlinkSync(p)}`
        : st.isFile()
          ? `file ${createHash("sha256").update(readFileSync(p)).digest("hex")}`
          : st.isDirectory()
            ? "dir"
            : "other";
      out[p.slice(dir.length)] = `${what} mode ${st.mode.toString(8)} owner ${st.uid}:${st.gid}`;
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The attacks. `cmd` runs in the repository; `stderr` is what the kernel's refusal looks like.

interface Attack {
  name: string;
  cmd: (f: Fixture) => string;
  stderr: RegExp;
  /** The control needs root (chown to another user, a bind mount). */
  controlNeedsRoot?: boolean;
  /** A mount: its control shows only in the runner's own mount namespace. */
  mount?: boolean;
  /** The attack writes the --rw-file first (which may land); the rest must not change. */
  writesAllowed?: boolean;
  /** State the snapshot does not hold (extended attributes), read from outside. */
  extra?: (f: Fixture) => string;
}

const EACCES = /Permission denied/;
const ATTACKS: Attack[] = [
  { name: "overwrite a tracked file", cmd: () => "echo x > a.txt", stderr: EACCES },
  { name: "append to a nested file", cmd: () => "echo x >> src/b.txt", stderr: EACCES },
  { name: "truncate a tracked file", cmd: () => "truncate -s 0 a.txt", stderr: EACCES },
  {
    name: "truncate(2) a tracked file by path (no open)",
    cmd: () => `python3 -c 'import os; os.truncate("a.txt", 0)'`,
    stderr: EACCES,
  },
  { name: "create a file beside the --rw-file", cmd: () => "echo x > new.txt", stderr: EACCES },
  { name: "make a directory", cmd: () => "mkdir d", stderr: EACCES },
  { name: "remove a tracked file", cmd: () => "rm -f a.txt", stderr: EACCES },
  { name: "rename a tracked file", cmd: () => "mv a.txt c.txt", stderr: EACCES },
  { name: "write a git hook", cmd: () => "printf '#!/bin/sh\\n' > .git/hooks/pre-commit", stderr: EACCES },
  {
    name: "git add the writable file",
    cmd: () => "echo y > allowed.txt && git add allowed.txt",
    stderr: EACCES,
    writesAllowed: true,
  },
  { name: "write a file outside the repository", cmd: (f) => `echo x > ${f.outside}`, stderr: EACCES },
  {
    name: "hard link the writable file out of its directory",
    cmd: (f) => `ln allowed.txt ${f.base}/link.txt`,
    stderr: EACCES,
  },
  {
    name: "hard link a tracked file into the scratch directory, then write it (REFER)",
    cmd: (f) => `ln a.txt ${f.scratch}/a && echo x > ${f.scratch}/a`,
    stderr: /Invalid cross-device link/,
  },
  {
    name: "move an outside file into the scratch directory, then write it",
    cmd: (f) => `mv -f ${f.outside} ${f.scratch}/o; echo x > ${f.outside}`,
    stderr: EACCES,
  },
  {
    name: "symlink from the scratch directory to a tracked file, then write through it",
    cmd: (f) => `ln -s ${f.repo}/a.txt ${f.scratch}/s && echo x > ${f.scratch}/s`,
    stderr: EACCES,
  },
  {
    name: "replace the writable file with a symlink to a tracked file",
    cmd: () => "ln -sf a.txt allowed.txt.tmp && mv -f allowed.txt.tmp allowed.txt",
    stderr: EACCES,
  },
  {
    name: "move the writable file away and a tracked file in its place",
    cmd: (f) => `mv allowed.txt ${f.scratch}/x && mv a.txt allowed.txt`,
    stderr: EACCES,
  },
  {
    name: "chown a tracked file",
    cmd: () => "chown 1:1 a.txt",
    stderr: /Operation not permitted/,
    controlNeedsRoot: true,
  },
  { name: "set the set-user-ID bit", cmd: () => "chmod u+s a.txt", stderr: /Operation not permitted/ },
  {
    name: "set an extended attribute on a tracked file",
    cmd: () => `python3 -c 'import os; os.setxattr("a.txt", "user.devrites", b"1")'`,
    stderr: /Operation not supported/,
    extra: (f) =>
      ok(sh(["python3", "-c", "import os, sys; print(os.listxattr(sys.argv[1]))", join(f.repo, "a.txt")]))
        .stdout,
  },
  {
    name: "bind mount the scratch directory over src/",
    cmd: (f) => `mount --bind ${f.scratch} src && echo x > src/b.txt`,
    stderr: /permission denied|Operation not permitted|must be superuser/i,
    controlNeedsRoot: true,
    mount: true,
  },
];

// ---------------------------------------------------------------------------------------------------------
// The pure parts and the resolution, which need no kernel support.

describe("landlockArgv", () => {
  const spec: LandlockSpec = { readWrite: ["/s", "/t"], writeFiles: ["/r/a.txt"], denyTcp: true };
  it("puts the grants first, then -- and the program untouched", () => {
    expect(landlockArgv("/h", spec, ["bash", "-c", "--rw /x"])).toEqual([
      "/h",
      "--rw",
      "/s",
      "--rw",
      "/t",
      "--rw-file",
      "/r/a.txt",
      "--no-tcp",
      "--",
      "bash",
      "-c",
      "--rw /x",
    ]);
    expect(landlockArgv("/h", { readWrite: [], writeFiles: [], denyTcp: false }, ["true"])).toEqual([
      "/h",
      "--",
      "true",
    ]);
  });
  it.each([
    [
      "a relative directory",
      { ...spec, readWrite: ["s"] },
      ["true"],
      "landlock.path-not-absolute",
      /--rw "s": not an absolute path/,
    ],
    [
      "a relative file",
      { ...spec, writeFiles: ["./a"] },
      ["true"],
      "landlock.path-not-absolute",
      /--rw-file "\.\/a"/,
    ],
    ["a NUL in a path", { ...spec, writeFiles: ["/a\0b"] }, ["true"], "landlock.nul-byte", /NUL byte/],
    ["a NUL in an argument", spec, ["echo", "a\0"], "landlock.nul-byte", /argument "a\\u0000"/],
    ["no program", spec, [], "landlock.empty-argv", /no program/],
  ] as const)("refuses %s with a stable code", (_name, sp, argv, code, message) => {
    let err: unknown;
    try {
      landlockArgv("/h", sp, argv);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LandlockSpecError);
    expect((err as LandlockSpecError).code).toBe(code);
    expect((err as Error).message).toMatch(message);
  });
});

describe("where the hook finds the helper", () => {
  const name = "devrites-landlock-linux-x64";
  it("names the helper by platform and architecture, and has none off Linux", () => {
    expect(landlockHelperName("linux", "arm64")).toBe("devrites-landlock-linux-arm64");
    expect(landlockHelperName("darwin", "arm64")).toBeUndefined();
    expect(
      landlockHelperPath(undefined, { platform: "darwin", bundleFile: "/p/hooks/pre-tool-use.cjs" }),
    ).toBeUndefined();
  });
  it("looks beside the bundle, then in its checkout, then up the node_modules chain", () => {
    expect(landlockHelperCandidates({ bundleFile: "/r/.devrites/hooks/pre-tool-use.cjs" }, name)).toEqual([
      `/r/.devrites/native/${name}`,
      `/r/.devrites/dist/native/${name}`,
      `/r/.devrites/hooks/node_modules/devrites/dist/native/${name}`,
      `/r/.devrites/node_modules/devrites/dist/native/${name}`,
      `/r/node_modules/devrites/dist/native/${name}`,
      `/node_modules/devrites/dist/native/${name}`,
    ]);
  });
  it("a plugin's bundle outside the repository: last, the repository's own package", () => {
    expect(
      landlockHelperCandidates(
        { bundleFile: "/home/u/.codex/plugins/cache/devrites/hooks/pre-tool-use.cjs", repoRoot: "/r" },
        name,
      ).slice(-2),
    ).toEqual([`/node_modules/devrites/dist/native/${name}`, `/r/node_modules/devrites/dist/native/${name}`]);
    // near misses: a project bundle's chain already holds it (not twice); a relative root is ignored
    const project = landlockHelperCandidates(
      { bundleFile: "/r/.devrites/hooks/pre-tool-use.cjs", repoRoot: "/r" },
      name,
    );
    expect(project.filter((p) => p === `/r/node_modules/devrites/dist/native/${name}`)).toHaveLength(1);
    expect(landlockHelperCandidates({ repoRoot: "r" }, name)).toEqual([]);
    expect(landlockHelperCandidates({ repoRoot: "/r" }, name)).toEqual([
      `/r/node_modules/devrites/dist/native/${name}`,
    ]);
    // an explicit package root still wins alone
    expect(landlockHelperCandidates({ packageRoot: "/pkg", repoRoot: "/r" }, name)).toEqual([
      `/pkg/dist/native/${name}`,
    ]);
  });
  it("takes only the explicit package root when one is given, and nothing without a bundle", () => {
    expect(landlockHelperCandidates({ packageRoot: "/pkg", bundleFile: "/x/hooks/a.cjs" }, name)).toEqual([
      `/pkg/dist/native/${name}`,
    ]);
    expect(landlockHelperCandidates({}, name)).toEqual([]);
    expect(landlockHelperCandidates({ bundleFile: "hooks/a.cjs" }, name)).toEqual([]);
  });

  describe("on disk", () => {
    let dir: string;
    const put = (rel: string, mode = 0o755) => {
      const p = join(dir, rel);
      mkdirSync(join(p, ".."), { recursive: true });
      writeFileSync(p, "#!/bin/sh\n");
      chmodSync(p, mode);
      return p;
    };
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "devrites-ll-find-"));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const find = (bundle: string) =>
      landlockHelperPath(undefined, { bundleFile: join(dir, bundle), arch: "x64" });

    it("finds a project install's helper in node_modules from .devrites/hooks", () => {
      const want = put(`node_modules/devrites/dist/native/${name}`);
      expect(find(".devrites/hooks/pre-tool-use.cjs")).toBe(want);
    });
    it("prefers the plugin's own helper beside its hooks", () => {
      put(`node_modules/devrites/dist/native/${name}`);
      const want = put(`plugin/native/${name}`);
      expect(find("plugin/hooks/pre-tool-use.cjs")).toBe(want);
    });
    it("finds a checkout's built helper from its hooks/", () => {
      const want = put(`pkg/dist/native/${name}`);
      expect(find("pkg/hooks/pre-tool-use.cjs")).toBe(want);
    });
    it("finds it through the launcher's published bundle when no bundle is passed", () => {
      const want = put(`node_modules/devrites/dist/native/${name}`);
      const key = Symbol.for("devrites.source");
      const g = globalThis as Record<symbol, unknown>;
      const saved = g[key];
      g[key] = { filename: join(dir, ".devrites/hooks/pre-tool-use.cjs"), text: "" };
      try {
        expect(landlockHelperPath(undefined, { arch: "x64" })).toBe(want);
      } finally {
        g[key] = saved;
      }
    });
    it.each([
      ["not executable", 0o644],
      ["writable by its group", 0o775],
      ["writable by anyone", 0o757],
    ])("skips a helper that is %s, and takes the next usable one", (_why, mode) => {
      const bad = put(`plugin/native/${name}`, mode);
      expect(usableHelper(bad)).toBe(false);
      expect(find("plugin/hooks/pre-tool-use.cjs")).toBeUndefined();
      const next = put(`node_modules/devrites/dist/native/${name}`);
      expect(find("plugin/hooks/pre-tool-use.cjs")).toBe(next);
    });
    it("skips a directory of the helper's name and a helper owned by another user", () => {
      mkdirSync(join(dir, `plugin/native/${name}`), { recursive: true });
      expect(find("plugin/hooks/pre-tool-use.cjs")).toBeUndefined();
      if (IS_ROOT) {
        const p = put(`node_modules/devrites/dist/native/${name}`);
        chownSync(p, 1, 1);
        expect(usableHelper(p)).toBe(false);
        chownSync(p, 0, 0);
        expect(usableHelper(p)).toBe(true);
      }
    });
  });
});

/** Whether a 64-bit little-endian ELF file has a PT_INTERP program header (a dynamic loader). */
function hasInterpreter(elf: Buffer): boolean {
  expect(elf.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const size = elf.readUInt16LE(0x36);
  const count = elf.readUInt16LE(0x38);
  for (let i = 0; i < count; i++) if (elf.readUInt32LE(phoff + i * size) === 3) return true;
  return false;
}

describe("scripts/build-native.ts", () => {
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), "devrites-ll-build-"));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  it.skipIf(process.platform !== "linux")(
    "skips, saying why, when there is no C compiler, and writes nothing",
    () => {
      const r = buildNative(ROOT, { cc: "devrites-no-such-cc", outDir: out });
      expect(r).toEqual({ status: "skipped", reason: "no C compiler (devrites-no-such-cc not found)" });
      expect(readdirSync(out)).toEqual([]);
    },
  );
  it.skipIf(process.platform !== "linux")(
    "fails when the compiler rejects the source, leaving no half-written helper",
    () => {
      expect(() => buildNative(ROOT, { cc: "false", outDir: out })).toThrow(
        /false failed to compile native\/landlock-exec\.c/,
      );
      expect(readdirSync(out)).toEqual([]);
    },
  );
  it.skipIf(!helper || noHelper !== undefined)("builds an executable helper that answers --abi", () => {
    const r = buildNative(ROOT, { outDir: out });
    expect(r.status).toBe("built");
    if (r.status !== "built") return;
    expect(readdirSync(out)).toEqual([landlockHelperName()]);
    expect(lstatSync(r.path).mode & 0o777).toBe(0o755);
    expect(usableHelper(r.path)).toBe(true);
    const answer = sh([r.path, "--abi"]);
    expect(answer.status === 0 || answer.status === LANDLOCK_REFUSED_EXIT).toBe(true);
    // a static helper asks for no dynamic loader (no PT_INTERP program header); a dynamic one does
    expect(hasInterpreter(readFileSync(r.path))).toBe(r.linkage === "dynamic");
  });
  it("exits 0 from npm run build's step when there is no compiler", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/build-native.ts")], {
      env: { ...process.env, CC: "devrites-no-such-cc" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/build-native: skipped, (no C compiler|no Landlock on)/);
  });
});

describe("landlockSupported", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "devrites-ll-lsm-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const lsm = (text: string) => {
    const p = join(dir, `lsm-${createHash("sha1").update(text).digest("hex")}`);
    writeFileSync(p, text);
    return p;
  };
  it.each([
    ["capability,landlock,yama\n", "yes"],
    ["landlock", "yes"],
    ["capability,yama,apparmor", "no"],
    ["capability,landlockx,yama", "no"],
    ["", "no"],
  ])("reads %j from the LSM list as %s", (text, want) => {
    expect(landlockListed(lsm(text))).toBe(want);
    expect(landlockSupported({ lsmFile: lsm(text), probeHelper: "/bin/true" })).toBe(want === "yes");
  });
  it("answers false for an unreadable list without a helper to ask, and asks the helper when given", () => {
    const missing = join(dir, "absent");
    expect(landlockListed(missing)).toBe("unknown");
    expect(landlockSupported({ lsmFile: missing })).toBe(false);
    expect(landlockSupported({ lsmFile: missing, probeHelper: "/bin/false" })).toBe(false);
    if (helper) expect(landlockSupported({ lsmFile: missing, probeHelper: helper })).toBe(abi !== undefined);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe.skipIf(helper !== undefined)("devrites-landlock", () => {
  it(`is skipped: ${noHelper ?? "(not: the helper is here)"}`, () => {
    expect(noHelper).toBeDefined();
  });
});

describe.skipIf(!helper || abi !== undefined)("devrites-landlock on a kernel without Landlock", () => {
  it("refuses with exit 125 and does not run the program", () => {
    const dir = mkdtempSync(join(tmpdir(), "devrites-ll-"));
    const r = sh([helper!, "--", "sh", "-c", `touch ${dir}/marker`]);
    expect(r.status).toBe(LANDLOCK_REFUSED_EXIT);
    expect(r.stderr).toMatch(/^devrites-landlock: landlock/);
    expect(() => lstatSync(join(dir, "marker"))).toThrow();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.skipIf(!helper || abi === undefined)(`devrites-landlock (Landlock ABI ${abi})`, () => {
  it("reports the kernel's ABI with --abi", () => {
    const r = ok(sh([helper!, "--abi"]));
    expect(r.stdout).toMatch(/^\d+\n$/);
    expect(Number(r.stdout)).toBeGreaterThanOrEqual(3);
  });

  describe.each(RUNNERS)("run by $name", (runner) => {
    let f: Fixture;
    let mounted: string | undefined;
    beforeEach((ctx) => {
      if (runner.skip) ctx.skip(runner.skip);
      f = makeFixture(runner.owner);
    });
    afterEach(() => {
      if (mounted) sh(["umount", "-l", mounted]);
      mounted = undefined;
      if (f) rmSync(f.base, { recursive: true, force: true });
    });
    const wrapped = (cmd: string, spec: LandlockSpec = f.spec, stdio?: (number | "ignore" | "pipe")[]) =>
      sh(runner.wrap(landlockArgv(helper!, spec, ["/bin/bash", "-c", cmd]), f.base), { cwd: f.repo, stdio });
    const bare = (cmd: string, stdio?: (number | "ignore" | "pipe")[]) =>
      sh(runner.wrap(["/bin/bash", "-c", cmd], f.base), { cwd: f.repo, stdio });

    describe.each(ATTACKS)("$name", (attack) => {
      const skip = () => (attack.writesAllowed ? [f.scratch, f.allowed] : [f.scratch]);
      const state = () => ({ ...snapshot(f.base, skip()), extra: attack.extra?.(f) ?? "" });
      it("fails with the kernel's refusal and leaves the tree and .git byte-identical", () => {
        const before = state();
        if (attack.mount) mounted = join(f.repo, "src"); // unmounted afterwards should the attack succeed
        const r = wrapped(attack.cmd(f));
        expect(r.status, r.stderr).not.toBe(0);
        const outerRefusal =
          /Read-only file system|Operation not permitted|Permission denied|Invalid cross-device link/;
        expect(r.stderr).toMatch(
          runner.outer ? new RegExp(`${attack.stderr.source}|${outerRefusal.source}`) : attack.stderr,
        );
        expect(state()).toEqual(before);
      });
      it("has an effect without the helper (the control)", (ctx) => {
        if (attack.controlNeedsRoot && (runner.owner || !IS_ROOT)) ctx.skip("needs root; this runner is not");
        if (attack.mount && runner.ownMounts) ctx.skip("the mount would live in the runner's own namespace");
        const before = state();
        bare(attack.cmd(f));
        if (attack.mount) mounted = join(f.repo, "src");
        const after = state();
        if (runner.outer && JSON.stringify(after) === JSON.stringify(before))
          ctx.skip(`${runner.outer} already stops it`);
        expect(after).not.toEqual(before);
      });
    });

    it("lets a read-only role work: git status, log and diff, grep, node, a temp file in scratch", () => {
      const before = snapshot(f.base, [f.scratch]);
      const readOnly: LandlockSpec = { readWrite: [f.scratch], writeFiles: [], denyTcp: true };
      const r = wrapped(
        `git status --porcelain && git log --oneline && git diff --stat HEAD && grep -rq a . && ` +
          `node -e 'require("fs").readFileSync("a.txt")' && TMPDIR=${f.scratch} mktemp >/dev/null`,
        readOnly,
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/init/);
      expect(snapshot(f.base, [f.scratch])).toEqual(before);
    });

    it("lets a write to the --rw-file land, and nothing else change", () => {
      const before = snapshot(f.base, [f.scratch, f.allowed]);
      ok(
        wrapped(
          "printf 'new\\n' > allowed.txt && printf 'more\\n' >> allowed.txt && truncate -s 4 allowed.txt",
        ),
      );
      expect(readFileSync(f.allowed, "utf8")).toBe("new\n");
      expect(snapshot(f.base, [f.scratch, f.allowed])).toEqual(before);
    });

    it("lets anything happen beneath a --rw directory (create, rename, link, remove)", () => {
      const before = snapshot(f.base, [f.scratch]);
      const s = f.scratch;
      ok(
        wrapped(
          `mkdir ${s}/d && echo x > ${s}/d/f && mv ${s}/d/f ${s}/g && ln ${s}/g ${s}/h && ln -s g ${s}/s && rm ${s}/h`,
        ),
      );
      expect(readFileSync(join(s, "s"), "utf8")).toBe("x\n");
      expect(snapshot(f.base, [f.scratch])).toEqual(before);
    });

    it("lets output go to /dev/null, and to /dev/tty not at all", () => {
      ok(wrapped("echo x > /dev/null && echo x >> /dev/null"));
      // a new open of the terminal is refused by Landlock (no controlling terminal here: ENXIO otherwise)
      const r = wrapped("echo x > /dev/tty");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Permission denied/);
    });

    it("closes every inherited descriptor above stderr", (ctx) => {
      if (runner.noFdControl) ctx.skip(runner.noFdControl);
      const before = readFileSync(f.outside, "utf8");
      const fd3 = openSync(f.outside, "a");
      const fd9 = openSync(f.outside, "a");
      try {
        const stdio: (number | "ignore" | "pipe")[] = [
          "ignore",
          "pipe",
          "pipe",
          fd3,
          "ignore",
          "ignore",
          "ignore",
          "ignore",
          "ignore",
          fd9,
        ];
        const r = wrapped("echo leaked >&3; echo leaked >&9; ls /proc/self/fd | tr '\\n' ' '", f.spec, stdio);
        expect(r.stderr).toMatch(/3: Bad file descriptor/);
        expect(r.stderr).toMatch(/9: Bad file descriptor/);
        expect(readFileSync(f.outside, "utf8")).toBe(before);
        // the control: the same descriptors, no helper, and the file is written
        bare("echo leaked >&3; echo leaked >&9", stdio);
        expect(readFileSync(f.outside, "utf8")).toBe(`${before}leaked\nleaked\n`);
      } finally {
        closeSync(fd3);
        closeSync(fd9);
      }
    });

    describe("--no-tcp", () => {
      let server: Server;
      let port: number;
      let accepted: number;
      beforeAll(async () => {
        server = createServer((s) => {
          accepted++;
          s.destroy();
        });
        await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
        port = (server.address() as { port: number }).port;
      });
      afterAll(() => new Promise<void>((res) => server.close(() => res())));
      beforeEach(() => {
        accepted = 0;
      });
      const settle = () => new Promise((res) => setTimeout(res, 150));

      const CONNECTS: [string, (port: number) => string][] = [
        ["bash /dev/tcp", (p) => `exec 3<>/dev/tcp/127.0.0.1/${p}`],
        [
          "node net.connect",
          (p) =>
            `node -e 'require("net").connect(${p},"127.0.0.1").on("connect",()=>process.exit(0)).on("error",e=>{console.error(e.message);process.exit(1)})'`,
        ],
        [
          "MPTCP (missed by Landlock's TCP rules)",
          (p) => py(`socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262).connect(("127.0.0.1", ${p}))`),
        ],
        [
          "TCP Fast Open (missed by Landlock's TCP rules)",
          (p) => py(`socket.socket().sendto(b"x", socket.MSG_FASTOPEN, ("127.0.0.1", ${p}))`),
        ],
        [
          "UDP",
          (p) => py(`socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", ${p}))`),
        ],
      ];
      it.each(CONNECTS)("refuses %s; the listener accepts nothing", async (_name, cmd) => {
        const r = wrapped(cmd(port));
        await settle();
        expect(r.status, r.stdout).not.toBe(0);
        if (!runner.outer) expect(r.stderr).toMatch(/Permission denied|EACCES/);
        expect(accepted).toBe(0);
      });
      (runner.noNetworkControl ? it.skip : it).each(CONNECTS.slice(0, 4))(
        "without --no-tcp, %s connects (the control)",
        async (_name, cmd) => {
          const r = wrapped(cmd(port), { ...f.spec, denyTcp: false });
          await settle();
          expect(r.status, r.stderr).toBe(0);
          expect(accepted).toBe(1);
        },
      );
      it("still allows unix sockets", (ctx) => {
        if (runner.noNetworkControl) ctx.skip(runner.noNetworkControl);
        ok(wrapped(py("a, b = socket.socketpair(); a.send(b'x'); assert b.recv(1) == b'x'")));
      });
    });

    it("refuses to type into an inherited terminal (TIOCSTI); without the helper the input lands", (ctx) => {
      if (runner.owner) ctx.skip("TIOCSTI on a terminal that is not the caller's own needs CAP_SYS_ADMIN");
      if (runner.outer) ctx.skip(`${runner.outer} gives the command its own stdin`);
      // python3 opens a pty, runs ARGV with the pty as stdin, and prints what was typed into it
      const driver = [
        "import os, pty, select, subprocess, sys",
        "m, s = pty.openpty()",
        "subprocess.run(sys.argv[1:], stdin=s, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)",
        "os.close(s)",
        "out = b''",
        "while select.select([m], [], [], 0.3)[0]:",
        "    try: out += os.read(m, 100)",
        "    except OSError: break",
        "print(repr(out))",
      ].join("\n");
      const typist = ["python3", "-c", 'import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b"Z")'];
      const wrappedTypist = runner.wrap(landlockArgv(helper!, f.spec, typist), f.base);
      expect(ok(sh(["python3", "-c", driver, ...wrappedTypist], { cwd: f.repo })).stdout).toBe("b''\n");
      expect(ok(sh(["python3", "-c", driver, ...runner.wrap(typist, f.base)], { cwd: f.repo })).stdout).toBe(
        "b'Z'\n",
      );
    });

    describe.skipIf((abi ?? 0) < 6)("scoping (ABI 6)", () => {
      it("refuses to signal a process outside the sandbox; without the helper the signal lands", (ctx) => {
        if (runner.owner || runner.outer) ctx.skip("the target must be this user's, in this pid namespace");
        const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
        try {
          const r = wrapped(`kill -TERM ${sleeper.pid}`);
          expect(r.status).not.toBe(0);
          expect(r.stderr).toMatch(/Operation not permitted/);
          expect(sleeper.exitCode === null && sleeper.signalCode === null).toBe(true);
          ok(bare(`kill -TERM ${sleeper.pid}`));
        } finally {
          sleeper.kill("SIGKILL");
        }
      });
      it("refuses to connect to an abstract unix socket outside the sandbox; without the helper it connects", async (ctx) => {
        if (runner.noNetworkControl) ctx.skip(runner.noNetworkControl);
        let accepted = 0;
        const name = `devrites-ll-${process.pid}-${Date.now()}`;
        const server = createServer((c) => {
          accepted++;
          c.destroy();
        });
        await new Promise<void>((res) => server.listen(`\0${name}`, res));
        try {
          // node on both ends: node and python spell an abstract address's length differently
          const connect = `node -e '${`require("net").connect("\\0${name}").on("connect", () => process.exit(0))`}'`;
          const r = wrapped(connect);
          await new Promise((res) => setTimeout(res, 150));
          expect(r.status).not.toBe(0);
          expect(r.stderr).toMatch(/EPERM/);
          expect(accepted).toBe(0);
          // scoping does not depend on --no-tcp
          expect(wrapped(connect, { ...f.spec, denyTcp: false }).status).not.toBe(0);
          await new Promise((res) => setTimeout(res, 150));
          expect(accepted).toBe(0);
          ok(bare(connect));
          await new Promise((res) => setTimeout(res, 150));
          expect(accepted).toBe(1);
        } finally {
          await new Promise<void>((res) => server.close(() => res()));
        }
      });
    });
  });

  describe("refuses bad arguments with exit 125 and never runs the program", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "devrites-ll-args-"));
      writeFileSync(join(dir, "file"), "");
      writeFileSync(join(dir, "linked"), "");
      linkSync(join(dir, "linked"), join(dir, "linked2"));
      symlinkSync(join(dir, "file"), join(dir, "symlink"));
      mkdirSync(join(dir, "scratch"));
      mkdirSync(join(dir, "repo", ".git"), { recursive: true });
      mkdirSync(join(dir, "ws", ".devrites"), { recursive: true });
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const marker = () => join(dir, "scratch", "marker");
    const prog = () => ["sh", "-c", `touch ${marker()}`];
    const cases: [string, () => string[]][] = [
      ["an unknown option", () => ["--rw", join(dir, "scratch"), "--bogus", "--", ...prog()]],
      ["an option glued to its value", () => [`--rw=${join(dir, "scratch")}`, "--", ...prog()]],
      ["a relative --rw", () => ["--rw", "scratch", "--", ...prog()]],
      ["an empty --rw", () => ["--rw", "", "--", ...prog()]],
      ["--rw without a value", () => ["--rw"]],
      ["--rw on a file", () => ["--rw", join(dir, "file"), "--", ...prog()]],
      ["--rw-file on a directory", () => ["--rw-file", join(dir, "scratch"), "--", ...prog()]],
      [
        "--rw on a directory holding .git",
        () => ["--rw", join(dir, "scratch"), "--rw", join(dir, "repo"), "--", ...prog()],
      ],
      ["--rw on a directory holding .devrites", () => ["--rw", join(dir, "ws"), "--", ...prog()]],
      [
        "a missing --rw-file",
        () => ["--rw", join(dir, "scratch"), "--rw-file", join(dir, "absent"), "--", ...prog()],
      ],
      ["a symlink as --rw-file", () => ["--rw-file", join(dir, "symlink"), "--", ...prog()]],
      ["a --rw-file with two hard links", () => ["--rw-file", join(dir, "linked"), "--", ...prog()]],
      ["no -- before the program", () => ["--rw", join(dir, "scratch"), ...prog()]],
      ["no program after --", () => ["--rw", join(dir, "scratch"), "--"]],
      ["a program that does not exist", () => ["--rw", join(dir, "scratch"), "--", join(dir, "absent")]],
    ];
    it.each(cases)("%s", (_name, args) => {
      const r = sh([helper!, ...args()]);
      expect(r.status).toBe(LANDLOCK_REFUSED_EXIT);
      expect(r.stderr).toMatch(/^devrites-landlock: .+: .+\n$/);
      expect(() => lstatSync(marker())).toThrow();
    });
    it("runs the program with good arguments (the control)", () => {
      ok(sh([helper!, "--rw", join(dir, "scratch"), "--rw-file", join(dir, "file"), "--", ...prog()]));
      expect(lstatSync(marker()).isFile()).toBe(true);
      rmSync(marker());
    });
  });

  it("runs exactly the argv landlockArgv was given (any argument strings)", () => {
    const dir = mkdtempSync(join(tmpdir(), "devrites-ll-argv-"));
    const spec: LandlockSpec = { readWrite: [dir], writeFiles: [], denyTcp: true };
    try {
      const arg = fc.string({ unit: "binary", maxLength: 40 }).filter((s) => !s.includes("\0"));
      fc.assert(
        fc.property(fc.array(arg, { minLength: 1, maxLength: 8 }), (args) => {
          const argv = landlockArgv(helper!, spec, ["printf", "%s\\0", ...args]);
          const r = spawnSync(argv[0]!, argv.slice(1), { env: { PATH: process.env.PATH }, timeout: 10_000 });
          expect(r.status, String(r.stderr)).toBe(0);
          expect(r.stdout).toEqual(Buffer.concat(args.map((a) => Buffer.from(`${a}\0`))));
        }),
        { numRuns: 60 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
