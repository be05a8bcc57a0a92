/**
 * The sandbox judged by its effects: each planned command is run for real, the way the hosts run a shell call
 * (Claude: `bash -c`, Codex: `bash -lc`, and plain `sh -c`), in a throwaway git repository whose work tree and
 * `.git` are then compared byte for byte. Needs bubblewrap (CI installs it); skipped with the reason otherwise.
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
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helperHere, makeRepo, mechanismHere, planned, run, snapshot } from "../../tests/helpers/sandbox.js";

const m = mechanismHere();
const d = m.kind === "bwrap" ? describe : describe.skip;
if (m.kind !== "bwrap") console.warn(`sandbox effect tests skipped: ${m.kind === "none" ? m.why : m.kind}`);

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
});

function repo(files: Record<string, string> = { "a.txt": "a\n", "src/b.ts": "b\n", "package.json": "{}\n" }) {
  const root = makeRepo(files);
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

d("every role: read-only file system, private /tmp, no network, no inherited descriptors", () => {
  for (const host of ["claude", "codex", "sh"] as const) {
    it(`a read-only role's write fails with EROFS and leaves tree and .git byte-identical (${host} shell)`, () => {
      const root = repo();
      const before = snapshot(root);
      const cmd = planned({
        mode: "read-only",
        root,
        command: `node -e "require('fs').writeFileSync('x','y')"; echo one > a.txt; touch .git/hooks/post-checkout; echo ok`,
      });
      const r = run(cmd, { host, cwd: root });
      expect(r.stderr).toContain("EROFS");
      expect(r.stderr).toContain("Read-only file system");
      expect(r.stdout).toBe("ok\n");
      expect(r.status).toBe(0);
      expect(existsSync(join(root, "x"))).toBe(false);
      expect(snapshot(root)).toEqual(before);
    });
  }

  it("runs the command in the same cwd and passes its exit status through (1 stays 1, not 126)", () => {
    const root = repo();
    mkdirSync(join(root, "sub"));
    expect(
      run(planned({ mode: "read-only", root, cwd: join(root, "sub"), command: "pwd; exit 7" })),
    ).toMatchObject({
      status: 7,
      stdout: `${join(root, "sub")}\n`,
    });
    const one = run(planned({ mode: "read-only", root, command: "false" }));
    expect(one.status).toBe(1);
    expect(one.stderr).toBe("");
  });

  it("gives a private, writable /tmp that vanishes, and hides the host's /tmp", () => {
    const root = repo();
    const hostFile = join(tmpdir(), `devrites-sbx-host-${process.pid}`);
    writeFileSync(hostFile, "secret\n");
    cleanups.push(() => rmSync(hostFile, { force: true }));
    const r = run(
      planned({
        mode: "read-only",
        root,
        command: `echo s > "$TMPDIR/scratch" && cat "$TMPDIR/scratch"; echo "$TMPDIR"; cat ${hostFile} || echo hidden`,
      }),
    );
    expect(r.stdout).toBe("s\n/tmp\nhidden\n");
    // the repository itself, under the host's temp folder, is still readable
    expect(run(planned({ mode: "read-only", root, command: "cat a.txt" })).stdout).toBe("a\n");
  });

  it("blocks the network: a connection to a listener on 127.0.0.1 is never accepted", async () => {
    const root = repo();
    let accepted = 0;
    const server: Server = createServer((s) => {
      accepted++;
      s.destroy();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const port = (server.address() as { port: number }).port;
    try {
      // control: the same command unsandboxed does connect
      run(`echo x > /dev/tcp/127.0.0.1/${port}`);
      await new Promise((ok) => setTimeout(ok, 100));
      expect(accepted).toBe(1);
      const r = run(
        planned({
          mode: "read-only",
          root,
          command: `echo x > /dev/tcp/127.0.0.1/${port}; node -e "require('net').connect(${port},'127.0.0.1').on('error',e=>{console.log(e.code)})"`,
        }),
      );
      await new Promise((ok) => setTimeout(ok, 100));
      expect(r.stdout).toBe("ECONNREFUSED\n");
      expect(accepted).toBe(1);
    } finally {
      server.close();
    }
  });

  it("closes inherited descriptors: writing to an open fd 9 outside changes nothing", () => {
    const root = repo();
    const outside = join(mkdtempSync(join(tmpdir(), "devrites-fd-")), "out.txt");
    cleanups.push(() => rmSync(join(outside, ".."), { recursive: true, force: true }));
    writeFileSync(outside, "before\n");
    const fd = openSync(outside, "a");
    try {
      const stdio: ("pipe" | "ignore" | number)[] = [
        "ignore",
        "pipe",
        "pipe",
        "pipe",
        "pipe",
        "pipe",
        "pipe",
        "pipe",
        "pipe",
        fd,
      ];
      // control: unsandboxed, fd 9 reaches the file
      run("echo control >&9", { stdio });
      expect(readFileSync(outside, "utf8")).toBe("before\ncontrol\n");
      const r = run(
        planned({ mode: "wright", root, allowlist: ["a.txt"], command: "echo leak >&9; ls /proc/self/fd" }),
        {
          stdio,
        },
      );
      expect(r.stderr).toContain("Bad file descriptor");
      expect(r.stdout.split("\n").filter(Boolean).sort()).toEqual(["0", "1", "2", "3"]); // 3: ls's own dir handle
      expect(readFileSync(outside, "utf8")).toBe("before\ncontrol\n");
    } finally {
      closeSync(fd);
    }
  });

  it("scrubs code-loading and git-redirecting variables, keeps the rest", () => {
    const root = repo();
    const env = {
      ...process.env,
      GIT_DIR: "/nowhere",
      GIT_CONFIG_PARAMETERS: "'core.hooksPath=/x'",
      LD_PRELOAD: "/nonexistent.so",
      NODE_OPTIONS: "--require /nonexistent.js",
      BASH_ENV: "/nonexistent-bash-env",
      PYTHONSTARTUP: "/x",
      "BASH_FUNC_ls%%": "() { echo hijacked; }",
      KEEP_ME: "kept",
    };
    const r = run(
      planned({
        mode: "read-only",
        root,
        command: `env | grep -E '^(GIT_|LD_|NODE_OPTIONS|BASH_ENV|PYTHONSTARTUP|BASH_FUNC)' ; echo "KEEP_ME=$KEEP_ME"; ls a.txt; git rev-parse --is-inside-work-tree`,
        env, // what the hook sees
      }),
      // the host may add prefixed names the hook never saw: the first shell inside removes those
      { env: { ...env, GIT_WORK_TREE: "/elsewhere", LD_AUDIT: "/nonexistent-audit.so" } },
    );
    expect(r.stdout).toBe("KEEP_ME=kept\na.txt\ntrue\n");
  });

  it("shows no host process and cannot signal one", () => {
    const root = repo();
    const r = run(
      planned({
        mode: "read-only",
        root,
        command: `kill -0 ${process.pid} 2>/dev/null && echo reached || echo isolated; ls /proc | grep -c '^[0-9]'`,
      }),
    );
    expect(r.stdout.split("\n")[0]).toBe("isolated");
    expect(Number(r.stdout.split("\n")[1])).toBeLessThan(6);
  });

  it("hides a socket in the user's ~/.ssh (an ssh ControlMaster's): it cannot be connected to", async () => {
    // the home inside the (re-bound) repository: the host's /tmp, where tests make folders, is masked anyway
    const root = repo();
    const home = join(root, "home");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    const path = join(home, ".ssh", "cm-socket");
    const server = createServer((c) => c.end());
    await new Promise<void>((ok) => server.listen(path, ok));
    try {
      const probe = `node -e "require('net').connect(process.argv[1]).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>console.log(e.code))" ${path}`;
      const r = run(
        planned({ mode: "read-only", root, command: probe, env: { ...process.env, HOME: home } }),
      );
      expect(r.stdout.trim()).toBe("ENOENT");
      // near miss: with HOME elsewhere the folder is not masked, and the same probe connects
      const open = run(
        planned({ mode: "read-only", root, command: probe, env: { ...process.env, HOME: "/nonexistent" } }),
      );
      expect(open.stdout.trim()).toBe("connected");
    } finally {
      server.close();
    }
  });

  it("hides other programs' sockets under /run/user", () => {
    const root = repo();
    const r = run(planned({ mode: "read-only", root, command: "ls -A /run/user | wc -l" }));
    expect(r.stdout.trim()).toBe("0");
  });

  it("fails closed with exit 126 and a message when the sandbox cannot start (nested in a no-userns sandbox)", () => {
    const root = repo();
    const marker = join(root, "ran");
    const cmd = planned({ mode: "read-only", root, command: `echo ran > ${marker}` });
    // Like Codex's own sandbox: no new user namespaces may be created inside.
    const wrap = ["bwrap", "--bind", "/", "/", "--dev", "/dev", "--unshare-user", "--disable-userns", "--"];
    const r = run(cmd, { wrap });
    expect(r.status).toBe(126);
    expect(r.stderr).toContain("devrites sandbox: the sandbox could not start here");
    expect(existsSync(marker)).toBe(false);
    // control: the same outer sandbox runs an unwrapped command
    expect(run(`echo ran > ${marker}`, { wrap }).status).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

d("wright: exactly its allowlisted files", () => {
  it("lands a shell write on an allowlisted file, refuses its neighbour, keeps .git", () => {
    const root = repo();
    const before = snapshot(root);
    const r = run(
      planned({
        mode: "wright",
        root,
        allowlist: ["src/b.ts"],
        command:
          "echo new > src/b.ts; echo n > a.txt; echo x > src/c.ts; git add -A; echo hook > .git/hooks/pre-commit; echo done",
      }),
    );
    expect(r.stdout).toBe("done\n");
    expect(r.stderr.match(/Read-only file system/g)?.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(root, "src/b.ts"), "utf8")).toBe("new\n");
    const after = snapshot(root);
    delete (before as Record<string, string>)["src/b.ts"];
    delete (after as Record<string, string>)["src/b.ts"];
    expect(after).toEqual(before);
  });

  it("creates a missing allowlisted file (and folders) the command writes, and removes an unused empty one", () => {
    const root = repo();
    const before = snapshot(root);
    const r = run(
      planned({
        mode: "wright",
        root,
        allowlist: ["src/new/made.ts", "src/other/unused.ts"],
        command: "echo made > src/new/made.ts; test -e src/other/unused.ts && echo pre-created",
      }),
    );
    expect(r.stdout).toBe("pre-created\n");
    expect(readFileSync(join(root, "src/new/made.ts"), "utf8")).toBe("made\n");
    expect(existsSync(join(root, "src/other/unused.ts"))).toBe(false);
    // the folder made for it stays, empty (invisible to git)
    expect(readdirSync(join(root, "src/other"))).toEqual([]);
    const after = snapshot(root);
    for (const k of ["src/new", "src/new/made.ts", "src/other"]) delete after[k];
    expect(after).toEqual(before);
  });

  it("never creates a missing allowlisted file through a symlink that appeared after planning", () => {
    const root = repo();
    const outside = join(mkdtempSync(join(tmpdir(), "devrites-race-")), "target.txt");
    cleanups.push(() => rmSync(join(outside, ".."), { recursive: true, force: true }));
    const cmd = planned({ mode: "wright", root, allowlist: ["src/new.ts"], command: "echo x > src/new.ts" });
    execFileSync("ln", ["-s", outside, join(root, "src/new.ts")]);
    const r = run(cmd);
    expect(r.status).toBe(126);
    expect(existsSync(outside)).toBe(false);
  });

  it("writes through an in-repository symlink to its target only", () => {
    const root = repo();
    execFileSync("ln", ["-s", "b.ts", join(root, "src/link.ts")]);
    run(planned({ mode: "wright", root, allowlist: ["src/link.ts"], command: "echo via > src/link.ts" }));
    expect(readFileSync(join(root, "src/b.ts"), "utf8")).toBe("via\n");
  });

  it("refuses at plan time a hard-linked or symlinked-out allowlist entry", () => {
    const root = repo();
    execFileSync("ln", [join(root, "a.txt"), join(root, "src/hard.txt")]);
    execFileSync("ln", ["-s", "/etc/hostname", join(root, "src/out.txt")]);
    expect(() => planned({ mode: "wright", root, allowlist: ["src/hard.txt"], command: "true" })).toThrow(
      /hard links/,
    );
    expect(() => planned({ mode: "wright", root, allowlist: ["src/out.txt"], command: "true" })).toThrow(
      /outside/,
    );
  });
});

d("proof runner: the repository copy-on-write", () => {
  it("lets a test run write caches, reports and the index, then leaves tree and .git byte-identical", () => {
    const root = repo({
      "package.json": JSON.stringify({
        scripts: {
          test: "mkdir -p node_modules/.cache coverage && echo c > node_modules/.cache/x && echo r > coverage/r.txt && echo t > a.txt && cat a.txt",
        },
      }),
      "a.txt": "a\n",
    });
    const before = snapshot(root);
    const r = run(
      planned({
        mode: "proof",
        root,
        command: "npm test --silent && git add -A && git status --short | wc -l",
      }),
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("t\n");
    expect(Number(r.stdout.trim().split("\n").pop())).toBeGreaterThan(0);
    expect(snapshot(root)).toEqual(before);
  });

  it("keeps the proof runner off the network and out of the host's /tmp", () => {
    const root = repo();
    const r = run(
      planned({ mode: "proof", root, command: "ls -A /tmp; echo x > /dev/tcp/127.0.0.1/9 || echo no-net" }),
    );
    // the host's /tmp is empty inside but for the mount point of the repository itself (a test repo lives there)
    const top = root.startsWith("/tmp/") ? `${root.split("/")[2]}\n` : "";
    expect(r.stdout).toBe(`${top}no-net\n`);
  });
});

/**
 * The two ways bubblewrap is started: by the native helper (`--plain`, `--cow`: the hook's way when the helper
 * is built) and without it (a prelude bash inside, the `unshare` chain for copy-on-write). Each must give the
 * command the same sandbox and the same shell the host would have started.
 */
const helper = helperHere();
if (helper === undefined) console.warn("launch-path effect tests: no native helper built (npm run build)");
const LAUNCHES = [
  { name: "started by the native helper", helper: true, skip: helper === undefined },
  { name: "started without the helper", helper: false, skip: false },
] as const;
for (const launch of LAUNCHES) {
  const dl = m.kind === "bwrap" && !launch.skip ? describe : describe.skip;
  dl(`bubblewrap ${launch.name}`, () => {
    const plan = (o: Parameters<typeof planned>[0]) => planned({ ...o, helper: launch.helper });

    it("names the way it starts (the helper, or not at all)", () => {
      const root = repo();
      const ro = plan({ mode: "read-only", root, command: "true" });
      const cow = plan({ mode: "proof", root, command: "true" });
      if (launch.helper) {
        expect(ro).toContain(`${helper} --plain `);
        expect(cow).toContain(`${helper} --cow ${root} --cow-at /dev/shm `);
        expect(cow).not.toContain("/usr/bin/unshare");
      } else {
        expect(ro).not.toContain("--plain");
        expect(cow).toContain("--map-root-user");
      }
    });

    it("proof runner: writes, a new folder and git's index vanish; tree and .git stay byte-identical", () => {
      const root = repo({ "a.txt": "a\n", "src/b.ts": "b\n" });
      const before = snapshot(root);
      const r = run(
        plan({
          mode: "proof",
          root,
          command:
            "echo t > a.txt && rm src/b.ts && mkdir -p coverage && echo r > coverage/r && git add -A && git status --short && cat a.txt && id -u",
        }),
      );
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("M  a.txt\nA  coverage/r\nD  src/b.ts\nt\n0\n");
      expect(r.status).toBe(0);
      expect(snapshot(root)).toEqual(before);
      // nothing survives: a second call sees the tree as it is
      expect(run(plan({ mode: "proof", root, command: "cat a.txt; ls coverage 2>&1" })).stdout).toContain(
        "a\nls: cannot access 'coverage'",
      );
    });

    it("proof runner: the command cannot undo the overlay to reach the real tree", () => {
      const root = repo();
      const before = snapshot(root);
      const r = run(
        plan({
          mode: "proof",
          root,
          command: `umount -l ${root} 2>&1 || echo no-umount; echo x > a.txt; cat a.txt`,
        }),
      );
      expect(r.stdout).toContain("no-umount\nx\n");
      expect(snapshot(root)).toEqual(before);
    });

    for (const mode of ["read-only", "proof"] as const) {
      it(`${mode}: the shell is the one the host starts: $0, no positional parameters, exit status, syntax errors`, () => {
        const root = repo();
        const cmds = [
          // biome-ignore-start lint/suspicious/noTemplateCurlyInString: shell parameter expansions
          'echo "$0 $# ${1-none}"; exit 3',
          "echo a; )",
          "echo $LINENO; echo ${BASH_LINENO[@]} $SHLVL",
          // biome-ignore-end lint/suspicious/noTemplateCurlyInString: shell parameter expansions
        ];
        for (const c of cmds) {
          const bare = run(c, { cwd: root });
          const wrapped = run(plan({ mode, root, command: c }), { cwd: root });
          expect({ c, ...wrapped }).toEqual({ c, ...bare });
        }
      });

      it(`${mode}: no inherited descriptor and no prefixed variable the host added after the hook`, () => {
        const root = repo();
        const stdio: ("pipe" | "ignore" | number)[] = ["ignore", "pipe", "pipe"];
        const outside = join(mkdtempSync(join(tmpdir(), "devrites-fd-")), "out.txt");
        cleanups.push(() => rmSync(join(outside, ".."), { recursive: true, force: true }));
        writeFileSync(outside, "before\n");
        const fd = openSync(outside, "a");
        try {
          for (let i = 3; i < 12; i++) stdio.push(i === 11 ? fd : "pipe");
          const r = run(
            plan({
              mode,
              root,
              command:
                "echo leak >&11; ls /proc/self/fd | wc -l; env | grep -cE '^(GIT_|LD_|BASH_FUNC_)'; echo $KEEP",
              env: { PATH: process.env.PATH },
            }),
            {
              stdio,
              env: {
                PATH: process.env.PATH,
                GIT_DIR: "/nowhere",
                LD_AUDIT: "/nonexistent.so",
                "BASH_FUNC_ls%%": "() { echo hijacked; }",
                KEEP: "kept",
              },
            },
          );
          expect(r.stderr).toContain("Bad file descriptor");
          expect(r.stdout).toBe("4\n0\nkept\n"); // 0 1 2 and ls's own handle
          expect(readFileSync(outside, "utf8")).toBe("before\n");
          // control: unwrapped, the descriptor and the variables reach the command
          const bare = run("echo leak >&11; env | grep -cE '^(GIT_|LD_)'", {
            stdio,
            env: { PATH: process.env.PATH, GIT_DIR: "/nowhere", LD_AUDIT: "/nonexistent.so" },
          });
          expect(bare.stdout).toBe("2\n");
          expect(readFileSync(outside, "utf8")).toBe("before\nleak\n");
        } finally {
          closeSync(fd);
        }
      });

      it(`${mode}: fails closed with 126 when no namespace may be made (nested in a no-userns sandbox)`, () => {
        const root = repo();
        const marker = join(root, "ran");
        const wrap = [
          "bwrap",
          "--bind",
          "/",
          "/",
          "--dev",
          "/dev",
          "--unshare-user",
          "--disable-userns",
          "--",
        ];
        const r = run(plan({ mode, root, command: `echo ran > ${marker}` }), { wrap });
        expect(r.status).toBe(126);
        expect(r.stderr).toContain("devrites sandbox: the sandbox could not start here");
        expect(existsSync(marker)).toBe(false);
      });
    }
  });
}

/**
 * The same effects for an ordinary user (root skips nothing here, but a user's namespaces are unprivileged):
 * make one when running as root, give it a repository it owns, run the planned commands as it.
 */
const asRoot =
  process.getuid?.() === 0 &&
  spawnSync("sh", ["-c", "command -v useradd && command -v runuser"]).status === 0;
const du = m.kind === "bwrap" && asRoot ? describe : describe.skip;
du("as an unprivileged user", () => {
  const user = "devrites-sbx";
  let home = "";
  beforeAll(() => {
    if (spawnSync("id", ["-u", user]).status !== 0) execFileSync("useradd", ["-M", "-s", "/bin/sh", user]);
    home = mkdtempSync(join(tmpdir(), "devrites-sbx-user-"));
    execFileSync("chmod", ["755", home]);
    execFileSync("chown", [user, home]);
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  });

  function userRepo(files: Record<string, string>): string {
    const root = makeRepo(files, home);
    execFileSync("chown", ["-R", `${user}:${user}`, root]);
    return root;
  }
  const asUser = (cmd: string, cwd: string) =>
    run(cmd, { wrap: ["runuser", "-u", user, "--"], cwd, env: { PATH: process.env.PATH, HOME: home } });

  it("read-only: EROFS, tree unchanged; wright: allowlisted write lands, neighbour refused", () => {
    const root = userRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const before = snapshot(root);
    const r = asUser(planned({ mode: "read-only", root, command: "id -u; echo x > a.txt" }), root);
    expect(r.stderr).toContain("Read-only file system");
    expect(snapshot(root)).toEqual(before);
    const w = asUser(
      planned({ mode: "wright", root, allowlist: ["a.txt"], command: "echo w > a.txt; echo n > b.txt" }),
      root,
    );
    expect(w.stderr).toContain("b.txt: Read-only file system");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("w\n");
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b\n");
  });

  for (const withHelper of [true, false]) {
    it(`proof: copy-on-write works unprivileged too (${withHelper ? "the native helper" : "unshare"})`, () => {
      const root = userRepo({ "a.txt": "a\n" });
      const before = snapshot(root);
      const cmd = planned({
        mode: "proof",
        root,
        command: "echo t > a.txt && mkdir c && cat a.txt && ls -ld . | cut -c1-10",
        helper: withHelper,
      });
      if (withHelper && helperHere() !== undefined) expect(cmd).toContain(" --cow ");
      const r = asUser(cmd, root);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("t\ndrwxr-xr-x\n");
      expect(snapshot(root)).toEqual(before);
    });
  }
});
