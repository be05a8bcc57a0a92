/**
 * The native helper's launch modes (`--plain`, `--cow ROOT --cow-at MNT`), which start bubblewrap for the
 * planner (./plan.ts), judged by effects: the program's view, the tree byte for byte before and after, the
 * mounts seen from outside, and for every bad input exit 125 with a message and a program that never ran.
 * Needs no Landlock (these modes apply none); needs user namespaces for `--cow`.
 */

import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildNative, NATIVE_SOURCE } from "../../scripts/build-native.js";
import { makeRepo, snapshot } from "../../tests/helpers/sandbox.js";
import { LANDLOCK_REFUSED_EXIT, landlockHelperPath, probeLandlockAbi } from "./landlock-helper.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The helper the package ships, rebuilt when older than its source (the tests judge the source as it is). */
function findOrBuild(): string | undefined {
  if (process.platform !== "linux") return undefined;
  const found = landlockHelperPath(ROOT);
  if (found && statSync(found).mtimeMs >= statSync(join(ROOT, NATIVE_SOURCE)).mtimeMs) return found;
  const built = buildNative(ROOT);
  return built.status === "built" ? built.path : undefined;
}

const helper = findOrBuild();
const usernsOk = spawnSync("unshare", ["--user", "--map-root-user", "--mount", "true"]).status === 0;
const COW_AT = "/dev/shm";

function sh(
  argv: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; stdio?: (number | "pipe" | "ignore")[] } = {},
) {
  return spawnSync(argv[0] as string, argv.slice(1), {
    env: opts.env ?? { PATH: process.env.PATH, LANG: "C" },
    encoding: "utf8",
    stdio: opts.stdio ?? ["ignore", "pipe", "pipe"],
    timeout: 20_000,
  });
}

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
});

function repo(parent?: string): string {
  const root = makeRepo({ "a.txt": "a\n", "src/b.ts": "b\n" }, parent);
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** The mounts this process sees whose source is the helper's (none may ever leak out of its namespace). */
const cowMountsHere = () =>
  readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .filter((l) => l.includes("devrites-cow"));

describe.skipIf(helper === undefined)("devrites-landlock --plain", () => {
  it("closes every descriptor above 2 and removes the prefixed variables, keeping the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "devrites-plain-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, "out.txt");
    writeFileSync(out, "");
    const fd = openSync(out, "a");
    try {
      const env = { PATH: process.env.PATH, GIT_DIR: "/x", LD_AUDIT: "/y", GITX: "kept", KEEP: "kept" };
      const stdio: (number | "pipe" | "ignore")[] = ["ignore", "pipe", "pipe", "pipe", "pipe", fd];
      const cmd = "echo leak >&5; ls /proc/self/fd | tr '\\n' ' '; env | grep -E '^(GIT|LD_|KEEP)' | sort";
      // control: without the helper the descriptor and the variables reach the program
      const bare = sh(["sh", "-c", cmd], { env, stdio });
      expect(bare.stdout).toContain("GIT_DIR=/x\n");
      expect(readFileSync(out, "utf8")).toBe("leak\n");
      const r = sh(
        [
          helper as string,
          "--plain",
          "--unset-prefix",
          "GIT_",
          "--unset-prefix",
          "LD_",
          "--",
          "sh",
          "-c",
          cmd,
        ],
        { env, stdio },
      );
      expect(r.stderr).toContain("Bad file descriptor");
      expect(r.stdout).toBe("0 1 2 3 GITX=kept\nKEEP=kept\n"); // 3: ls's own handle on the folder
      expect(readFileSync(out, "utf8")).toBe("leak\n");
    } finally {
      closeSync(fd);
    }
  });
});

describe.skipIf(helper === undefined || probeLandlockAbi(helper ?? "") === undefined)(
  "devrites-landlock --unset-prefix under Landlock",
  () => {
    it("removes the prefixed variables there too (and only those)", () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), "devrites-ll-unset-")));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const env = { PATH: process.env.PATH, GIT_DIR: "/x", GITX: "kept" };
      const r = sh(
        [helper as string, "--rw", dir, "--unset-prefix", "GIT_", "--", "sh", "-c", "env | grep ^GIT"],
        {
          env,
        },
      );
      expect(r.stdout).toBe("GITX=kept\n");
      // control: without the option the variable stays
      expect(sh([helper as string, "--rw", dir, "--", "sh", "-c", "env | grep ^GIT_"], { env }).stdout).toBe(
        "GIT_DIR=/x\n",
      );
    });
  },
);

describe.skipIf(helper === undefined || !usernsOk)("devrites-landlock --cow", () => {
  it("puts every write under ROOT in a tmpfs that vanishes; ROOT, .git and the host's mounts stay as they were", () => {
    const root = repo();
    const before = snapshot(root);
    const shmBefore = readdirSync(COW_AT);
    const r = sh([
      helper as string,
      "--cow",
      root,
      "--cow-at",
      COW_AT,
      "--",
      "sh",
      "-c",
      `cd ${root} && echo x > a.txt && rm src/b.ts && mkdir n && git add -A && git status --short | tr '\\n' ' ' && cat a.txt && id -u && grep -c devrites-cow /proc/self/mountinfo && grep -cE 'shared:|master:' /proc/self/mountinfo`,
    ]);
    expect(r.stderr).toBe("");
    // every mount private (util-linux unshare's default): none shared with or a slave of the host's
    expect(r.stdout).toBe("M  a.txt D  src/b.ts x\n0\n2\n0\n");
    expect(r.status).toBe(1); // grep -c found nothing
    expect(snapshot(root)).toEqual(before);
    expect(readdirSync(COW_AT)).toEqual(shmBefore);
    expect(cowMountsHere()).toEqual([]);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "makes every mount private even when the caller's are shared (as root)",
    () => {
      const root = repo();
      const count = "grep -cE 'shared:|master:' /proc/self/mountinfo || true";
      // the caller's mounts shared (a systemd host's are): the control counts them
      const wrap = ["unshare", "--mount", "--propagation", "shared", "--"];
      expect(Number(sh([...wrap, "sh", "-c", count]).stdout)).toBeGreaterThan(0);
      // (through a shell: started directly by unshare the mutant without MS_PRIVATE went unnoticed here)
      const inner = `"$0" --cow "$1" --cow-at ${COW_AT} -- sh -c "$2"`;
      const r = sh([...wrap, "sh", "-c", inner, helper as string, root, count]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("0\n");
    },
  );

  it("passes the program's exit status through and runs it with the descriptors closed", () => {
    const root = repo();
    const r = sh(
      [
        helper as string,
        "--cow",
        root,
        "--cow-at",
        COW_AT,
        "--",
        "sh",
        "-c",
        "ls /proc/self/fd | wc -l; exit 7",
      ],
      {
        stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
      },
    );
    expect(r.status).toBe(7);
    expect(r.stdout.trim()).toBe("4");
  });

  const asRoot = process.getuid?.() === 0;
  const user = "devrites-sbx";
  const userOk = asRoot && spawnSync("id", ["-u", user]).status === 0;
  it.skipIf(!userOk)(
    `works for an unprivileged user (${user}): its uid is 0 inside, its tree unchanged`,
    () => {
      const home = mkdtempSync(join(tmpdir(), "devrites-cow-user-"));
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));
      execFileSync("chmod", ["755", home]);
      const root = repo(home);
      execFileSync("chown", ["-R", `${user}:${user}`, root]);
      const before = snapshot(root);
      const r = sh([
        "runuser",
        "-u",
        user,
        "--",
        helper as string,
        "--cow",
        root,
        "--cow-at",
        COW_AT,
        "--",
        "sh",
        "-c",
        `cd ${root} && echo u > a.txt && cat a.txt && id -u`,
      ]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("u\n0\n");
      expect(snapshot(root)).toEqual(before);
    },
  );

  describe("refuses with exit 125 and a message, and never runs the program", () => {
    let dir: string;
    let root: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "devrites-cow-args-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      root = repo();
      writeFileSync(join(dir, "file"), "");
      symlinkSync(root, join(dir, "link"));
      mkdirSync(join(dir, "a:b"));
      mkdirSync(join(dir, "a,b"));
      mkdirSync(join(root, "inner"));
    });
    const marker = () => join(dir, "marker");
    const prog = () => ["sh", "-c", `touch ${marker()}`];
    const cow = (r: string, at = COW_AT) => ["--cow", r, "--cow-at", at];
    const cases: [string, RegExp, () => string[]][] = [
      [
        "--cow without --cow-at",
        /--cow: needs --cow and --cow-at together/,
        () => ["--cow", root, "--", ...prog()],
      ],
      [
        "--cow-at without --cow",
        /--cow-at: needs --cow and --cow-at/,
        () => ["--cow-at", COW_AT, "--", ...prog()],
      ],
      ["--cow given twice", /--cow: given twice/, () => [...cow(root), "--cow", root, "--", ...prog()]],
      ["an empty --cow", /--cow: needs a path/, () => ["--cow", "", "--cow-at", COW_AT, "--", ...prog()]],
      ["--cow without a value", /--cow-at: needs a path/, () => ["--cow-at"]],
      ["a relative --cow", /not an absolute path/, () => [...cow("repo"), "--", ...prog()]],
      ["a missing --cow", /No such file or directory/, () => [...cow(join(dir, "absent")), "--", ...prog()]],
      ["--cow on a file", /not a directory/, () => [...cow(join(dir, "file")), "--", ...prog()]],
      ["--cow through a symlink", /not its real path/, () => [...cow(join(dir, "link")), "--", ...prog()]],
      ["--cow with a trailing slash", /not its real path/, () => [...cow(`${root}/`), "--", ...prog()]],
      ["--cow with `..` in it", /not its real path/, () => [...cow(`${root}/inner/..`), "--", ...prog()]],
      ["--cow with a `:`", /overlayfs cannot take/, () => [...cow(join(dir, "a:b")), "--", ...prog()]],
      ["--cow with a `,`", /overlayfs cannot take/, () => [...cow(join(dir, "a,b")), "--", ...prog()]],
      [
        "--cow-at inside --cow",
        /one lies inside the other/,
        () => [...cow(root, join(root, "inner")), "--", ...prog()],
      ],
      [
        "--cow inside --cow-at",
        /one lies inside the other/,
        () => [...cow(root, realpathSync(tmpdir())), "--", ...prog()],
      ],
      [
        "a missing --cow-at",
        /No such file or directory/,
        () => [...cow(root, join(dir, "absent")), "--", ...prog()],
      ],
      ["--cow with --rw", /applies no Landlock policy/, () => [...cow(root), "--rw", dir, "--", ...prog()]],
      [
        "--cow with --no-tcp",
        /applies no Landlock policy/,
        () => [...cow(root), "--no-tcp", "--", ...prog()],
      ],
      ["--cow with --abi", /applies no Landlock policy/, () => [...cow(root), "--abi"]],
      [
        "--plain with --rw-file",
        /--plain: applies no Landlock/,
        () => ["--plain", "--rw-file", join(dir, "file"), "--", ...prog()],
      ],
      [
        "--plain with --cow",
        /--plain: cannot be combined with --cow/,
        () => ["--plain", ...cow(root), "--", ...prog()],
      ],
      [
        "an empty --unset-prefix",
        /--unset-prefix: needs a non-empty/,
        () => ["--plain", "--unset-prefix", "", "--", ...prog()],
      ],
      [
        "an --unset-prefix with `=`",
        /--unset-prefix: needs a non-empty/,
        () => ["--plain", "--unset-prefix", "A=", "--", ...prog()],
      ],
      ["no -- before the program", /unknown argument sh/, () => [...cow(root), ...prog()]],
      ["no program after --", /no program after --/, () => [...cow(root), "--"]],
      ["a program that does not exist", /execvp .*absent/, () => [...cow(root), "--", join(dir, "absent")]],
      // a mount the kernel refuses: overlayfs cannot take procfs as its lower layer
      ["an overlay mount that fails", /mount overlay on \/proc: /, () => [...cow("/proc"), "--", ...prog()]],
    ];
    it.each(cases)("%s", (_name, message, args) => {
      const r = sh([helper as string, ...args()]);
      expect(r.status).toBe(LANDLOCK_REFUSED_EXIT);
      expect(r.stderr).toMatch(/^devrites-landlock: .+: .+\n$/);
      expect(r.stderr).toMatch(message);
      expect(existsSync(marker())).toBe(false);
      expect(cowMountsHere()).toEqual([]);
    });

    it("refuses when no user namespace may be made (nested in a no-userns sandbox, like Codex's)", () => {
      const wrap = ["bwrap", "--bind", "/", "/", "--dev", "/dev", "--unshare-user", "--disable-userns", "--"];
      const r = sh([...wrap, helper as string, ...cow(root), "--", ...prog()]);
      expect(r.status).toBe(LANDLOCK_REFUSED_EXIT);
      expect(r.stderr).toMatch(/^devrites-landlock: unshare\(CLONE_NEWUSER\|CLONE_NEWNS\): /);
      expect(existsSync(marker())).toBe(false);
    });

    it("runs the program with good arguments (the control)", () => {
      const r = sh([helper as string, ...cow(root), "--unset-prefix", "GIT_", "--", ...prog()]);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(existsSync(marker())).toBe(true);
      rmSync(marker());
    });
  });
});
