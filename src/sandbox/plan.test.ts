/** The planner's decisions, against a fake file system (the effects are pinned in plan.effect.test.ts). */

import { describe, expect, it } from "vitest";
import { executedLater, type Probe, planSandbox, type SandboxRequest } from "./plan.js";

type Node = { kind: "file" | "dir" | "socket"; nlink?: number } | { kind: "symlink"; to: string };

/** A fake file system: absolute path → node; `realpath` follows symlinks in every component. */
function fakeProbe(nodes: Record<string, Node>): Probe {
  const resolve = (p: string, depth = 0): string | undefined => {
    if (depth > 20) return undefined;
    const parts = p.split("/").filter(Boolean);
    let cur = "";
    for (let i = 0; i < parts.length; i++) {
      cur = `${cur}/${parts[i]}`;
      const n = nodes[cur];
      if (n === undefined) return undefined;
      if (n.kind === "symlink") {
        const r = resolve(n.to, depth + 1);
        if (r === undefined) return undefined;
        cur = r;
      }
    }
    return cur || "/";
  };
  return {
    lstat(p) {
      const parent = p.slice(0, p.lastIndexOf("/")) || "/";
      const rp = parent === "/" ? "" : resolve(parent);
      if (rp === undefined) return undefined;
      const n =
        nodes[`${rp}/${p.slice(p.lastIndexOf("/") + 1)}`] ?? (p === "/" ? { kind: "dir" } : undefined);
      if (n === undefined) return undefined;
      return { kind: n.kind, nlink: n.kind === "symlink" ? 1 : (n.nlink ?? 1) };
    },
    realpath: (p) => resolve(p),
  };
}

const FS: Record<string, Node> = {
  "/r": { kind: "dir" },
  "/r/.git": { kind: "dir" },
  "/r/.git/hooks": { kind: "dir" },
  "/r/.git/hooks/pre-commit": { kind: "file" },
  "/r/src": { kind: "dir" },
  "/r/src/a.ts": { kind: "file" },
  "/r/src/hard.ts": { kind: "file", nlink: 2 },
  "/r/src/in.ts": { kind: "symlink", to: "/r/src/a.ts" },
  "/r/src/out.ts": { kind: "symlink", to: "/etc/passwd" },
  "/r/src/hook.ts": { kind: "symlink", to: "/r/.git/hooks/pre-commit" },
  "/r/src/dangling.ts": { kind: "symlink", to: "/r/nope" },
  "/r/src/dir": { kind: "dir" },
  "/r/linkdir": { kind: "symlink", to: "/r/src" },
  "/r/outdir": { kind: "symlink", to: "/etc" },
  "/etc": { kind: "dir" },
  "/etc/passwd": { kind: "file" },
  "/tmp": { kind: "dir" },
  "/run": { kind: "dir" },
  "/run/user": { kind: "dir" },
  "/run/docker.sock": { kind: "socket" },
  "/dev": { kind: "dir" },
  "/dev/shm": { kind: "dir" },
  "/var": { kind: "dir" },
  "/var/run": { kind: "symlink", to: "/run" },
};

function req(over: Partial<SandboxRequest>): SandboxRequest {
  return {
    mode: "read-only",
    root: "/r",
    gitDir: "/r/.git",
    allowlist: [],
    command: "ls",
    cwd: "/r",
    shell: "/bin/bash",
    tools: { bwrap: "/usr/bin/bwrap", unshare: "/usr/bin/unshare", bash: "/bin/bash" },
    ...over,
  };
}

function plan(over: Partial<SandboxRequest>) {
  return planSandbox(req(over), fakeProbe(FS));
}

describe("planSandbox: the sandbox every role gets", () => {
  it("is read-only, networkless, capability-free, in a new session, with a private /tmp", () => {
    const p = plan({});
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.mechanism).toBe("bwrap");
    for (const part of [
      "--ro-bind / /",
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--cap-drop ALL",
      "--new-session",
      "--die-with-parent",
      "--dev /dev",
      "--proc /proc",
      "--tmpfs /tmp",
      "--tmpfs /run/user",
      "--ro-bind /dev/null /run/docker.sock",
      "--setenv TMPDIR /tmp",
      "--unsetenv BASH_ENV",
      "--unsetenv NODE_OPTIONS",
      "--chdir /r",
    ]) {
      expect(p.command).toContain(part);
    }
    expect(p.command).not.toContain("--bind /r");
    // a mask through a symlinked parent is left to its real name
    expect(p.command).not.toContain("/var/run");
    expect(p.command.startsWith("/bin/sh -c ")).toBe(true);
  });

  it("hides the home folders that hold sockets reaching past it (.ssh, .gnupg, a desktop Docker …)", () => {
    const fs = {
      ...FS,
      "/home": { kind: "dir" as const },
      "/home/u": { kind: "dir" as const },
      "/home/u/.ssh": { kind: "dir" as const },
      "/home/u/.gnupg": { kind: "dir" as const },
      "/home/u/.docker": { kind: "dir" as const },
      "/home/u/.docker/run": { kind: "dir" as const },
      "/home/u/.colima": { kind: "symlink" as const, to: "/elsewhere" },
      "/elsewhere": { kind: "dir" as const },
    };
    const p = planSandbox(req({ env: { HOME: "/home/u" } }), fakeProbe(fs));
    expect(p.ok && p.command).toContain(
      "--tmpfs /home/u/.ssh --tmpfs /home/u/.gnupg --tmpfs /home/u/.docker/run",
    );
    // near misses: a symlinked one is left alone (its target is not under HOME), a missing one is not named,
    // the rest of .docker stays visible, and a relative or missing HOME masks nothing
    expect(p.ok && p.command).not.toContain(".colima");
    expect(p.ok && p.command).not.toContain(".lima");
    expect(p.ok && p.command).not.toContain("--tmpfs /home/u/.docker ");
    for (const HOME of ["home/u", "/home/nobody", undefined]) {
      const q = planSandbox(req({ env: HOME === undefined ? {} : { HOME } }), fakeProbe(fs));
      expect(q.ok && q.command).not.toContain(".ssh");
    }
  });

  it("re-binds, read-only, a repository that lies under a masked folder", () => {
    const fs = { ...FS, "/tmp/r": { kind: "dir" as const }, "/tmp/r/.git": { kind: "dir" as const } };
    const p = planSandbox(req({ root: "/tmp/r", gitDir: "/tmp/r/.git", cwd: "/tmp/r" }), fakeProbe(fs));
    expect(p.ok && p.command).toContain(
      "--tmpfs /tmp --tmpfs /run/user --ro-bind /dev/null /run/docker.sock --ro-bind /tmp/r /tmp/r",
    );
    expect(p.ok && p.command).not.toContain("--ro-bind /tmp/r/.git");
  });

  it("refuses a NUL byte or a relative path instead of planning around it", () => {
    expect(plan({ command: "ls\u0000x" })).toMatchObject({ ok: false, code: "sandbox.bad-request" });
    expect(plan({ cwd: "r" })).toMatchObject({ ok: false, code: "sandbox.bad-request" });
  });
});

describe("planSandbox: proof runner", () => {
  it("sees the repository copy-on-write through unshare + overlay, with capabilities dropped inside", () => {
    const p = plan({ mode: "proof" });
    expect(p.ok && p.mechanism).toBe("bwrap+overlay");
    expect(p.ok && p.command).toContain("/usr/bin/unshare --user --map-root-user --mount /bin/sh -c");
    expect(p.ok && p.command).toContain("--bind /r /r");
    expect(p.ok && p.command).toContain("--cap-drop ALL");
    expect(p.ok && p.command).toContain("devrites-cow /dev/shm /r ");
    expect(p.ok && p.command).not.toMatch(/\brm(dir)?\b|mktemp/);
  });

  it("falls back to read-only, and says so, without unshare or for a path overlayfs cannot take", () => {
    const a = plan({ mode: "proof", tools: { bwrap: "/usr/bin/bwrap", bash: "/bin/bash" } });
    expect(a).toMatchObject({ ok: true, mechanism: "bwrap", notes: [expect.stringContaining("unshare")] });
    expect(a.ok && a.command).not.toContain("--bind /r /r");
    const fs = { ...FS, "/r,x": { kind: "dir" as const } };
    const b = planSandbox(
      req({ mode: "proof", root: "/r,x", gitDir: "/r,x/.git", cwd: "/r,x" }),
      fakeProbe(fs),
    );
    expect(b).toMatchObject({ ok: true, mechanism: "bwrap", notes: [expect.stringContaining("overlayfs")] });
  });
});

describe("planSandbox: the native helper starts bubblewrap", () => {
  const H = "/pkg/dist/native/devrites-landlock-linux-x64";
  const tools = { bwrap: "/usr/bin/bwrap", unshare: "/usr/bin/unshare", bash: "/bin/bash", helper: H };
  const firstLine = (p: ReturnType<typeof plan>): string =>
    p.ok ? ((p.argv[2] ?? "").split("\n")[0] ?? "") : "";
  const UNSET = "--unset-prefix LD_ --unset-prefix DYLD_ --unset-prefix GIT_ --unset-prefix BASH_FUNC_ --";

  it("runs the leaf's shell directly inside bubblewrap, under `helper --plain`: no prelude shell", () => {
    const p = plan({ tools, command: "ls -a" });
    expect(p).toMatchObject({ ok: true, mechanism: "bwrap" });
    const line = firstLine(p);
    expect(line.startsWith(`${H} --plain ${UNSET} /usr/bin/bwrap `)).toBe(true);
    expect(line.endsWith("--chdir /r -- /bin/bash -c 'ls -a'")).toBe(true);
    expect(line).not.toContain("--noprofile");
    expect(line).not.toContain("/proc/self/fd");
    // the helper refuses with 125: that exit is checked for a start failure too
    expect(p.ok && p.argv[2]).toContain('if { [ "$s" -eq 1 ] || [ "$s" -eq 125 ]; } && ! ');
  });

  it("makes the proof runner's copy-on-write view with `--cow` when it may mount here: one program, no unshare", () => {
    const p = plan({ mode: "proof", tools: { ...tools, helperCow: true } });
    expect(p).toMatchObject({ ok: true, mechanism: "bwrap+overlay" });
    const line = firstLine(p);
    expect(line.startsWith(`${H} --cow /r --cow-at /dev/shm ${UNSET} /usr/bin/bwrap `)).toBe(true);
    expect(line).toContain("--cap-drop ALL");
    expect(line).toContain("--bind /r /r");
    expect(line).not.toContain("/usr/bin/unshare");
    expect(line).not.toContain("mount -t");
  });

  it("near miss: a helper that may not mount leaves copy-on-write to unshare, with the prelude shell", () => {
    const p = plan({ mode: "proof", tools });
    expect(p).toMatchObject({ ok: true, mechanism: "bwrap+overlay" });
    const line = firstLine(p);
    expect(line.startsWith("/usr/bin/unshare --user --map-root-user --mount /bin/sh -c")).toBe(true);
    expect(line).not.toContain(H);
    expect(line).toContain("/bin/bash --noprofile --norc -c");
    expect(p.ok && p.argv[2]).toContain('if [ "$s" -eq 1 ] && ! ');
    // and without unshare either: read-only, said
    const q = plan({ mode: "proof", tools: { bwrap: "/usr/bin/bwrap", bash: "/bin/bash", helper: H } });
    expect(q).toMatchObject({
      ok: true,
      mechanism: "bwrap",
      notes: [expect.stringContaining("native helper")],
    });
    expect(firstLine(q).startsWith(`${H} --plain `)).toBe(true);
    expect(firstLine(q)).not.toContain("--bind /r /r");
  });

  it("binds a copy-on-write repository under a masked folder once, writable (no read-only restore beneath)", () => {
    const fs = { ...FS, "/tmp/r": { kind: "dir" as const }, "/tmp/r/.git": { kind: "dir" as const } };
    const p = planSandbox(
      req({
        mode: "proof",
        root: "/tmp/r",
        gitDir: "/tmp/r/.git",
        cwd: "/tmp/r",
        tools: { ...tools, helperCow: true },
      }),
      fakeProbe(fs),
    );
    expect(p.ok && firstLine(p)).toContain(
      "--tmpfs /tmp --tmpfs /run/user --ro-bind /dev/null /run/docker.sock --bind /tmp/r /tmp/r --setenv",
    );
    const ro = planSandbox(
      req({ root: "/tmp/r", gitDir: "/tmp/r/.git", cwd: "/tmp/r", tools }),
      fakeProbe(fs),
    );
    expect(ro.ok && firstLine(ro)).toContain("--ro-bind /tmp/r /tmp/r");
  });

  it("refuses a relative helper path", () => {
    expect(plan({ tools: { ...tools, helper: "dist/native/h" } })).toMatchObject({
      ok: false,
      code: "sandbox.bad-request",
      why: "the native helper is not an absolute path",
    });
  });
});

describe("planSandbox: wright", () => {
  it("binds exactly the allowlisted files writable, by their real path", () => {
    const p = plan({ mode: "wright", allowlist: ["/r/src/a.ts", "/r/src/b.ts"] });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const binds = p.command.match(/--bind \S+ \S+/g);
    // once for the command, once for the start-failure probe
    const two = ["--bind /r/src/a.ts /r/src/a.ts", "--bind /r/src/b.ts /r/src/b.ts"];
    expect(binds).toEqual([...two, ...two]);
  });

  it("binds an in-repository symlink's target", () => {
    const p = plan({ mode: "wright", allowlist: ["/r/src/in.ts"] });
    expect(p.ok && p.command).toContain("--bind /r/src/a.ts /r/src/a.ts");
  });

  it("creates a missing file and its missing folders beforehand, and removes the file when left empty", () => {
    const p = plan({ mode: "wright", allowlist: ["/r/src/new/deep/x.ts"] });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.command).toContain("mkdir -- /r/src/new 2>/dev/null");
    expect(p.command).toContain("mkdir -- /r/src/new/deep 2>/dev/null");
    expect(p.command.indexOf("mkdir -- /r/src/new ")).toBeLessThan(
      p.command.indexOf("mkdir -- /r/src/new/deep "),
    );
    // nothing in the script removes a folder (Claude Code asks before any rewritten script that does)
    expect(p.command).not.toMatch(/\brm(dir)?\b/);
    expect(p.command).toContain("--bind /r/src/new/deep/x.ts /r/src/new/deep/x.ts");
    expect(p.command).toContain("unlink -- /r/src/new/deep/x.ts");
  });

  const refused: [string, RegExp][] = [
    ["/r/.git/hooks/pre-commit", /\.git/],
    ["/r/sub/.git/config", /\.git/],
    ["/r/.devrites/state.json", /\.devrites/],
    ["/r/node_modules/.bin/vitest", /node_modules/],
    ["/r/packages/x/node_modules/y/index.js", /node_modules/],
    ["/r/.claude/settings.json", /\.claude/],
    ["/r/.codex/config.toml", /\.codex/],
    ["/r/.husky/pre-commit", /\.husky/],
    ["/r/.envrc", /\.envrc/],
    ["/r/.mcp.json", /\.mcp\.json/],
    ["/r/src/out.ts", /outside the repository/],
    ["/r/src/hook.ts", /outside the repository's work tree/],
    ["/r/src/dangling.ts", /dangling/],
    ["/r/src/hard.ts", /2 hard links/],
    ["/r/src/dir", /not a regular file/],
    ["/r/linkdir/new.ts", /not a plain folder/],
    ["/r/outdir/new.ts", /not a plain folder/],
    ["/etc/passwd", /outside the repository/],
    ["/r", /outside the repository/],
  ];
  for (const [path, why] of refused) {
    it(`refuses the allowlist entry ${path}`, () => {
      expect(plan({ mode: "wright", allowlist: [path] })).toMatchObject({
        ok: false,
        code: "sandbox.unsafe-allowlist",
        path,
        why: expect.stringMatching(why),
      });
    });
  }
});

describe("executedLater", () => {
  it("matches the listed paths", () => {
    expect(executedLater(".git/hooks/x")).toMatch(/git/);
    expect(executedLater("a/node_modules/.bin/x")).toMatch(/node_modules/);
    expect(executedLater(".claude/settings.json")).toMatch(/Claude/);
    expect(executedLater(".npmrc")).toMatch(/npm/);
  });

  it("lets near misses through", () => {
    for (const p of [
      ".gitignore",
      ".github/workflows/ci.yml",
      "docs/node_modules.md",
      "pack/.claude/agents/x.md",
      ".claude-notes/x",
      "sub/.envrc.example",
      "src/.npmrc.ts",
      "src/a.ts",
    ]) {
      expect(executedLater(p), p).toBeUndefined();
    }
  });
});

describe("planSandbox: Landlock", () => {
  const LL = "/pkg/dist/native/devrites-landlock-linux-x64";
  const withLandlock = {
    bwrap: "/usr/bin/bwrap",
    unshare: "/usr/bin/unshare",
    bash: "/bin/bash",
    landlock: LL,
  };
  const fallbackOf = (script: string) =>
    script.split("\n").find((l) => l.startsWith('if [ "$s" -eq 1 ]')) ?? "";

  it("falls back to the helper, in the start-failure branch only, when bubblewrap cannot start", () => {
    const p = plan({ tools: withLandlock, scratch: "/tmp/s/c-1" });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.mechanism).toBe("bwrap");
    expect(p.landlockFallback).toBe(true);
    const script = p.argv[2] as string;
    // the first line runs bubblewrap; the helper appears only in the branch taken when it did not start
    expect(script.split("\n")[0]).toContain("/usr/bin/bwrap");
    expect(script.split("\n")[0]).not.toContain(LL);
    const branch = fallbackOf(script);
    expect(branch).toContain(`${LL} --rw /tmp/s/c-1 --no-tcp -- /bin/bash --noprofile --norc -c`);
    expect(branch).toContain("TMPDIR=/tmp/s/c-1");
    expect(branch).toContain("-u BASH_ENV");
    expect(branch).toContain("bubblewrap could not start here");
    expect(branch).not.toContain("s=126");
    // the same preamble: descriptors closed, prefixed variables scrubbed, in both paths
    expect(script.match(/eval "exec \$n>&-"/g)?.length).toBe(3);
    expect(script).not.toMatch(/\brm(dir)?\b/);
  });

  it("near miss: without a helper the start failure is exit 126 as before, and the helper is never named", () => {
    const p = plan({});
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.landlockFallback).toBe(false);
    expect(fallbackOf(p.argv[2] as string)).toContain("s=126");
    expect(p.command).not.toContain("landlock");
    expect(p.command).not.toContain("--no-tcp");
  });

  it("gives the wright --rw-file for each allowlisted file (created first when missing) and the scratch folder", () => {
    const p = plan({
      mode: "wright",
      allowlist: ["/r/src/a.ts", "/r/src/in.ts", "/r/src/new.ts"],
      tools: withLandlock,
      scratch: "/tmp/s/c-1",
    });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const script = p.argv[2] as string;
    expect(fallbackOf(script)).toContain(
      `${LL} --rw /tmp/s/c-1 --rw-file /r/src/a.ts --rw-file /r/src/new.ts --no-tcp --`,
    );
    const lines = script.split("\n");
    expect(lines.findIndex((l) => l.includes("set -C"))).toBeLessThan(lines.findIndex((l) => l.includes(LL)));
  });

  it("plans the proof runner read-only under Landlock, and says so", () => {
    const p = plan({ mode: "proof", tools: withLandlock, scratch: "/tmp/s/c-1" });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.mechanism).toBe("bwrap+overlay");
    const branch = fallbackOf(p.argv[2] as string);
    expect(branch).toContain(`${LL} --rw /tmp/s/c-1 --no-tcp --`);
    // said on stderr when the fallback runs, not on every call where bubblewrap starts
    expect(branch).toContain("read-only there (no copy-on-write)");
    expect(p.notes).toEqual([]);
    const only = plan({ mode: "proof", tools: { bash: "/bin/bash", landlock: LL }, scratch: "/tmp/s/c-1" });
    expect(only.ok && only.notes.join(" ")).toContain("read-only (no copy-on-write)");
  });

  it("runs the helper directly, with no bubblewrap and no 126 branch, when it is the only mechanism", () => {
    const p = plan({ tools: { bash: "/bin/bash", landlock: LL }, scratch: "/tmp/s/c-1" });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.mechanism).toBe("landlock");
    expect(p.landlockFallback).toBe(false);
    const script = p.argv[2] as string;
    expect(script).not.toContain("bwrap");
    expect(script).not.toContain("s=126");
    expect(script.split("\n")[0]).toContain(`${LL} --rw /tmp/s/c-1 --no-tcp --`);
    expect(script.split("\n")[0]).toContain("cd -- /r");
  });

  it("refuses a helper without a scratch folder, and a plan with neither mechanism", () => {
    expect(plan({ tools: withLandlock })).toMatchObject({ ok: false, code: "sandbox.bad-request" });
    expect(plan({ tools: withLandlock, scratch: "tmp" })).toMatchObject({ ok: false, path: "tmp" });
    expect(plan({ tools: { bash: "/bin/bash" } })).toMatchObject({ ok: false, path: "tools" });
  });
});
