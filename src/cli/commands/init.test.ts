import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROLE_NAMES } from "../../envelope/roles.js";
import { git, snapshot, snapshotDiff, type TempRepo, tempRepo } from "../../install/fixtures/repo.js";
import { parseInstallManifest } from "../../install/manifest.js";
import { runInstall } from "../../install/run.js";
import { JOURNAL_SCHEMA } from "../../install/transaction.js";
import { commandNames } from "../registry.js";
import { runCapture } from "../test-io.js";

let repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

const USER_FILES = {
  "AGENTS.md": "# House rules\n\nUse tabs.\n",
  ".claude/settings.json": '{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n',
  ".codex/config.toml": 'model = "gpt-5"\n',
  "src/app.ts": "export const x = 1;\n",
};

function repo(files: Record<string, string> = USER_FILES): TempRepo {
  const r = tempRepo(files);
  repos.push(r);
  return r;
}

type Json = {
  code: number;
  report: {
    diagnostics: { code: string; message: string; path?: string; hint?: string }[];
    data?: Record<string, unknown>;
  };
};

async function cli(r: TempRepo, ...argv: string[]): Promise<Json & { stdout: string; stderr: string }> {
  const withHooks =
    argv[0] === "init" || argv[0] === "update" || argv[0] === "validate"
      ? [...argv, "--hooks", r.hooks]
      : argv;
  const res = await runCapture([...withHooks, "--json"], r.root);
  return { code: res.code, report: JSON.parse(res.stdout), stdout: res.stdout, stderr: res.stderr };
}

const codes = (j: Json) => j.report.diagnostics.map((d) => d.code);
const full = (r: TempRepo) => snapshot(r.root, { git: true });

describe("devrites init / uninstall on a repository with the user's own files", () => {
  it("merges, keeps the user's keys, chains their hook; uninstall gives back every byte", async () => {
    const r = repo();
    r.write(
      ".git/hooks/pre-commit",
      '#!/bin/sh\necho user-hook >> "$(git rev-parse --show-toplevel)/hook.log"\n',
      0o755,
    );
    chmodSync(join(r.root, ".git/hooks/pre-commit"), 0o755);
    const before = full(r);

    const init = await cli(r, "init", "--git-hook");
    expect(codes(init)).toEqual([]);
    expect(init.code).toBe(0);
    const settings = JSON.parse(r.read(".claude/settings.json"));
    expect(settings).toMatchObject({ model: "opus", permissions: { allow: ["Bash(npm test)"] } });
    expect(JSON.stringify(settings.hooks)).toContain("devrites-hook");
    expect(r.read("AGENTS.md").startsWith(USER_FILES["AGENTS.md"])).toBe(true);
    expect(r.read(".codex/config.toml")).toContain("max_depth = 1");
    expect(existsSync(join(r.root, ".git/hooks/pre-commit.pre-devrites"))).toBe(true);
    expect(existsSync(join(r.root, ".devrites/state.json"))).toBe(true);
    const manifest = parseInstallManifest(r.read(".devrites/install.json"));
    expect(manifest.ok && manifest.manifest.hosts).toEqual(["claude", "codex"]);
    expect(
      manifest.ok && manifest.manifest.files.find((f) => f.path === "AGENTS.md")?.original,
    ).toMatchObject({
      exists: true,
      exact: true,
    });

    // The plugin layouts are not installed.
    expect(existsSync(join(r.root, "plugins"))).toBe(false);
    expect(existsSync(join(r.root, ".claude-plugin"))).toBe(false);

    const validate = await cli(r, "validate");
    expect(codes(validate)).toEqual([]);
    expect(validate.code).toBe(0);

    const un = await cli(r, "uninstall");
    expect(codes(un)).toEqual([]);
    expect(un.code).toBe(0);
    expect(snapshotDiff(before, full(r))).toEqual([]);
  });

  it("the chained hook runs first and its failure fails the commit; then devrites validate runs", async () => {
    const r = repo();
    r.write(".git/hooks/pre-commit", '#!/bin/sh\necho user >> "$HOOKLOG"\nexit "$USER_HOOK_EXIT"\n', 0o755);
    chmodSync(join(r.root, ".git/hooks/pre-commit"), 0o755);
    expect((await cli(r, "init", "--git-hook")).code).toBe(0);
    const log = join(r.base, "hook.log");
    const fake = join(r.base, "fake-devrites");
    writeFileSync(fake, `#!/bin/sh\necho "devrites $*" >> "${log}"\nexit 0\n`, { mode: 0o755 });
    chmodSync(fake, 0o755);
    r.write("src/app.ts", "export const x = 2;\n");
    git(r.root, "add", "src/app.ts");
    const env = { ...process.env, HOOKLOG: log, DEVRITES_BIN: fake, USER_HOOK_EXIT: "0" };
    const failing = spawnSync("git", ["commit", "-q", "-m", "x"], {
      cwd: r.root,
      env: { ...env, USER_HOOK_EXIT: "3" },
    });
    expect(failing.status).not.toBe(0);
    expect(readFileSync(log, "utf8")).toBe("user\n");
    const passing = spawnSync("git", ["commit", "-q", "-m", "x"], { cwd: r.root, env });
    expect(passing.status).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("user\nuser\ndevrites validate --staged\n");
  });

  it("writes the launcher the rites run (.devrites/bin/devrites, executable); it runs this devrites; uninstall removes it", async () => {
    const r = repo();
    expect((await cli(r, "init")).code).toBe(0);
    const launcher = join(r.root, ".devrites/bin/devrites");
    expect(statSync(launcher).mode & 0o111).not.toBe(0);
    const manifest = parseInstallManifest(readFileSync(join(r.root, ".devrites/install.json"), "utf8"));
    expect(
      manifest.ok && manifest.manifest.files.find((f) => f.path === ".devrites/bin/devrites")?.kind,
    ).toBe("owned");
    const ran = spawnSync(".devrites/bin/devrites", ["--version"], {
      cwd: r.root,
      encoding: "utf8",
      env: {},
    });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout.trim()).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+/);
    expect((await cli(r, "uninstall")).code).toBe(0);
    expect(existsSync(launcher)).toBe(false);
  });

  it("--host none installs only the launcher and the workspace (a plugin brings the rites)", async () => {
    const r = repo({ "src/app.ts": "export const x = 1;\n" });
    const out = await cli(r, "init", "--host", "none");
    expect(out.code, out.stdout).toBe(0);
    const m = parseInstallManifest(readFileSync(join(r.root, ".devrites/install.json"), "utf8"));
    expect(m.ok && m.manifest.hosts).toEqual([]);
    expect(m.ok && m.manifest.files.map((f) => f.path).sort()).toEqual([
      ".devrites/bin/devrites",
      ".devrites/state.json",
    ]);
    expect(existsSync(join(r.root, ".claude"))).toBe(false);
    expect(existsSync(join(r.root, "AGENTS.md"))).toBe(false);
    expect((await cli(r, "update")).code).toBe(0);
    expect(existsSync(join(r.root, ".claude"))).toBe(false);
    expect((await cli(r, "init", "--host", "none,claude")).code).toBe(2);
  });

  it("--host none --roles codex adds only what a Codex plugin cannot carry: its roles and the [agents] block", async () => {
    const r = repo({ "src/app.ts": "export const x = 1;\n" });
    const out = await cli(r, "init", "--host", "none", "--roles", "codex");
    expect(out.code, out.stdout).toBe(0);
    const m = parseInstallManifest(readFileSync(join(r.root, ".devrites/install.json"), "utf8"));
    expect(m.ok && m.manifest.hosts).toEqual([]);
    expect(m.ok && m.manifest.roles).toEqual(["codex"]);
    const roles = ROLE_NAMES.map((n) => `.codex/agents/${n}.toml`);
    expect(m.ok && m.manifest.files.map((f) => f.path).sort()).toEqual(
      [".codex/config.toml", ".devrites/bin/devrites", ".devrites/state.json", ...roles].sort(),
    );
    expect(readFileSync(join(r.root, ".codex/config.toml"), "utf8")).toContain("max_depth = 1");
    // no skills, hooks or instructions of the project's own: the plugin brings them
    for (const p of [".agents", ".claude", "AGENTS.md", ".codex/hooks.json", ".devrites/hooks"])
      expect(existsSync(join(r.root, p)), p).toBe(false);
    expect((await cli(r, "validate")).code).toBe(0);
    // update keeps to the same files; uninstall removes them all
    const upd = await cli(r, "update");
    expect(upd.code, upd.stdout).toBe(0);
    expect(JSON.parse(upd.stdout).data).toMatchObject({ changed: 0, hosts: [] });
    expect((await cli(r, "uninstall")).code).toBe(0);
    for (const p of [".codex", ".devrites/bin"]) expect(existsSync(join(r.root, p)), p).toBe(false);
    // near misses: a host installed in full has its roles; only Codex's plugin lacks them
    expect((await cli(r, "init", "--host", "codex", "--roles", "codex")).code).toBe(2);
    expect((await cli(r, "init", "--roles", "codex")).code).toBe(2);
    expect((await cli(r, "init", "--host", "none", "--roles", "claude")).code).toBe(2);
    expect(existsSync(join(r.root, ".codex"))).toBe(false);
  });

  it("installed files name the command that regenerates them there (devrites update), and validate agrees", async () => {
    const r = repo();
    expect((await cli(r, "init")).code).toBe(0);
    for (const f of [
      ".claude/skills/rite/SKILL.md",
      ".agents/skills/rite/SKILL.md",
      ".codex/agents/devrites-slice-wright.toml",
      "AGENTS.md",
    ]) {
      const text = readFileSync(join(r.root, f), "utf8");
      expect(text, f).toContain("regenerate with devrites update");
      expect(text, f).not.toContain("devrites generate");
    }
    expect((await cli(r, "validate")).code).toBe(0);
  });

  it("--dry-run prints the plan per path and writes nothing", async () => {
    const r = repo();
    const before = full(r);
    const res = await runCapture(["init", "--dry-run", "--hooks", r.hooks], r.root);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^devrites init --dry-run: \d+ create, 3 merge; nothing was written/);
    expect(res.stdout).toContain("  merge         .claude/settings.json");
    expect(res.stdout).toContain("  create        .claude/agents/devrites-slice-wright.md");
    expect(snapshotDiff(before, full(r))).toEqual([]);
  });

  it("is idempotent: a second init writes nothing", async () => {
    const r = repo();
    expect((await cli(r, "init")).code).toBe(0);
    const once = full(r);
    const again = await runCapture(["init", "--hooks", r.hooks], r.root);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^devrites init: nothing to do \(\d+ unchanged\)\nsandbox: [^\n]+\ndoctor: run `devrites doctor`[^\n]+$/,
    );
    expect(snapshotDiff(once, full(r))).toEqual([]);
  });

  it("--host codex installs only Codex's files; init --host claude later adds Claude's and keeps both", async () => {
    const r = repo();
    expect((await cli(r, "init", "--host", "codex")).code).toBe(0);
    expect(existsSync(join(r.root, ".codex/agents"))).toBe(true);
    expect(existsSync(join(r.root, ".claude/agents"))).toBe(false);
    expect((await cli(r, "init", "--host", "claude,codex")).code).toBe(0);
    expect(existsSync(join(r.root, ".claude/agents"))).toBe(true);
    const bad = await cli(r, "init", "--host", "vim");
    expect(bad.code).toBe(2);
  });

  it("leaves the user's [agents] table alone", async () => {
    const r = repo({ ".codex/config.toml": "[agents]\nmax_threads = 2\n" });
    const init = await cli(r, "init");
    expect(init.code).toBe(0);
    expect(codes(init)).toContain("install.codex-agents-kept");
    expect(r.read(".codex/config.toml")).toBe("[agents]\nmax_threads = 2\n");
  });
});

describe("devrites init: bad targets", () => {
  it("a folder that is not a git repository: exit 2, nothing written", async () => {
    const r = repo();
    const plain = join(r.base, "plain");
    mkdirSync(plain);
    const res = await runCapture(["init", "--target", plain, "--hooks", r.hooks, "--json"], r.root);
    expect(res.code).toBe(2);
    const d = JSON.parse(res.stdout).diagnostics[0];
    expect(d.code).toBe("install.not-git");
    expect(d.hint).toContain("git init");
    expect(snapshot(plain).size).toBe(0);
  });

  it("--target a subfolder of a repository: exit 2 with the top level in the hint; no --target: the top level", async () => {
    const r = repo();
    const res = await cli(r, "init", "--target", "src");
    expect(res.code).toBe(2);
    expect(res.report.diagnostics[0]?.code).toBe("install.target-not-toplevel");
    expect(res.report.diagnostics[0]?.hint).toContain(r.root);
    const fromSub = await runCapture(
      ["init", "--dry-run", "--hooks", r.hooks, "--json"],
      join(r.root, "src"),
    );
    expect(fromSub.code).toBe(0);
    expect(JSON.parse(fromSub.stdout).data.target).toBe(r.root);
  });

  it("a target reached through a symlink that leads out of the repository: exit 2", async () => {
    const r = repo();
    const other = join(r.base, "other");
    mkdirSync(other);
    git(other, "init", "-q");
    symlinkSync(other, join(r.root, "vendor"));
    const res = await cli(r, "init", "--target", "vendor");
    expect(res.code).toBe(2);
    expect(res.report.diagnostics[0]?.code).toBe("install.target-symlink-outside");
    expect([...snapshot(other, { git: true }).keys()].every((k) => k.startsWith(".git"))).toBe(true);
  });

  it("the home folder: refused", async () => {
    const r = repo();
    const saved = process.env.HOME;
    process.env.HOME = r.root;
    try {
      expect(homedir()).toBe(r.root);
      const res = await cli(r, "init");
      expect(res.code).toBe(2);
      expect(res.report.diagnostics[0]?.code).toBe("install.target-home");
    } finally {
      process.env.HOME = saved;
    }
  });

  it("a managed folder that is a symlink out of the repository: blocked, nothing written", async () => {
    const r = repo({ "README.md": "x\n" });
    const outside = join(r.base, "user-claude");
    mkdirSync(outside);
    symlinkSync(outside, join(r.root, ".claude"));
    const before = full(r);
    const res = await cli(r, "init");
    expect(res.code).toBe(1);
    const d = res.report.diagnostics.find((x) => x.code === "install.symlink-outside");
    expect(d?.path).toMatch(/^\.claude\//);
    expect(snapshotDiff(before, full(r))).toEqual([]);
    expect(snapshot(outside).size).toBe(0);
  });

  it("core.hooksPath inside the repository is honoured; outside it is refused", async () => {
    const r = repo();
    git(r.root, "config", "core.hooksPath", ".githooks");
    expect((await cli(r, "init", "--git-hook")).code).toBe(0);
    expect(readFileSync(join(r.root, ".githooks/pre-commit"), "utf8")).toContain("devrites-git-hook");
    expect((await cli(r, "uninstall")).code).toBe(0);
    expect(existsSync(join(r.root, ".githooks"))).toBe(false);

    const shared = join(r.base, "shared-hooks");
    git(r.root, "config", "core.hooksPath", shared);
    const res = await cli(r, "init", "--git-hook");
    expect(res.code).toBe(2);
    expect(res.report.diagnostics.map((d) => d.code)).toContain("install.hooks-path-outside");
    expect(existsSync(shared)).toBe(false);
  });
});

describe("devrites update / uninstall: bad input and the user's edits", () => {
  it("update or uninstall where nothing is installed: exit 5", async () => {
    const r = repo();
    for (const cmd of ["update", "uninstall"]) {
      const res = await cli(r, cmd);
      expect(res.code).toBe(5);
      expect(codes(res)).toEqual(["install.not-installed"]);
    }
  });

  it("a corrupt manifest: exit 1 with the path and a hint, and nothing is touched", async () => {
    const r = repo();
    expect((await cli(r, "init")).code).toBe(0);
    writeFileSync(join(r.root, ".devrites/install.json"), '{"schema":"devrites-install/v1",');
    const before = full(r);
    for (const cmd of ["update", "uninstall", "init"]) {
      const res = await cli(r, cmd);
      expect(res.code).toBe(1);
      expect(res.report.diagnostics[0]).toMatchObject({
        code: "install.manifest-corrupt",
        path: ".devrites/install.json",
      });
      expect(snapshotDiff(before, full(r))).toEqual([]);
    }
    const v = await cli(r, "validate");
    expect(codes(v)).toContain("install.manifest-corrupt");
  });

  it("an edited file is never overwritten or removed without --force", async () => {
    const r = repo();
    const before = full(r);
    expect((await cli(r, "init")).code).toBe(0);
    const edited = ".claude/agents/devrites-slice-wright.md";
    const mine = `${r.read(edited)}\nMy own note.\n`;
    writeFileSync(join(r.root, edited), mine);

    const up = await cli(r, "update");
    expect(up.code).toBe(1);
    expect(up.report.diagnostics.find((d) => d.code === "install.skip-modified")?.path).toBe(edited);
    expect(r.read(edited)).toBe(mine);

    const un = await cli(r, "uninstall");
    expect(un.code).toBe(1);
    expect(codes(un)).toEqual(
      expect.arrayContaining(["install.skip-modified", "install.uninstall-incomplete"]),
    );
    expect(r.read(edited)).toBe(mine);
    expect(existsSync(join(r.root, ".claude/agents/devrites-evidence-scout.md"))).toBe(false);
    expect(r.read("AGENTS.md")).toBe(USER_FILES["AGENTS.md"]);
    const residual = parseInstallManifest(r.read(".devrites/install.json"));
    expect(residual.ok && residual.manifest.files.map((f) => f.path)).toEqual([edited]);

    const forced = await cli(r, "uninstall", "--force");
    expect(forced.code).toBe(0);
    expect(snapshotDiff(before, full(r))).toEqual([]);
  });

  it("a second run while one holds the lock exits 4", async () => {
    const r = repo();
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      writeFileSync(join(r.root, ".git/devrites-install.lock"), `${sleeper.pid}\n`);
      const before = full(r);
      const res = await cli(r, "init");
      expect(res.code).toBe(4);
      expect(res.report.diagnostics[0]?.code).toBe("install.locked");
      expect(res.report.diagnostics[0]?.message).toContain(String(sleeper.pid));
      expect(snapshotDiff(before, full(r))).toEqual([]);
    } finally {
      sleeper.kill();
    }
  });

  it("a lock left by a dead process is taken over", async () => {
    const r = repo();
    const dead = spawnSync("true").pid;
    writeFileSync(join(r.root, ".git/devrites-install.lock"), `${dead}\n`);
    expect((await cli(r, "init")).code).toBe(0);
    expect(existsSync(join(r.root, ".git/devrites-install.lock"))).toBe(false);
  });

  it("a half-installed target (a journal left by a killed run) is put back first, then installed", async () => {
    const r = repo();
    r.write(".claude/agents/half.md", "written by the killed run\n");
    writeFileSync(
      join(r.root, ".git/devrites-install.journal"),
      JSON.stringify({
        schema: JOURNAL_SCHEMA,
        root: r.root,
        entries: [
          { path: ".claude/agents/half.md", prior: { kind: "absent" } },
          {
            path: "AGENTS.md",
            prior: {
              kind: "file",
              base64: Buffer.from(USER_FILES["AGENTS.md"]).toString("base64"),
              mode: 0o644,
            },
          },
        ],
        dirs: [".claude/agents"],
        temps: [],
      }),
    );
    writeFileSync(join(r.root, "AGENTS.md"), "half-merged\n");
    const dry = await cli(r, "init", "--dry-run");
    expect(dry.code).toBe(1);
    expect(codes(dry)).toEqual(["install.interrupted"]);
    const v = await cli(r, "validate");
    expect(codes(v)).toContain("install.interrupted");
    const res = await cli(r, "init");
    expect(res.code).toBe(0);
    expect(codes(res)).toContain("install.recovered");
    expect(existsSync(join(r.root, ".claude/agents/half.md"))).toBe(false);
    expect(r.read("AGENTS.md").startsWith(USER_FILES["AGENTS.md"])).toBe(true);
  });
});

describe("runInstall: a failure midway leaves the repository exactly as it was", () => {
  const init = (r: TempRepo, afterOp: (i: number) => void) =>
    runInstall({
      mode: "init",
      cwd: r.root,
      gitHook: true,
      dryRun: false,
      force: false,
      now: new Date(),
      knownCommands: commandNames(),
      version: "0.0.0-test",
      hooksDir: r.hooks,
      afterOp,
    });
  const withHook = () => {
    const r = repo();
    r.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n", 0o755);
    chmodSync(join(r.root, ".git/hooks/pre-commit"), 0o755);
    return r;
  };

  it("after the first, an early, a middle and the last file operation", async () => {
    let count = 0;
    expect((await init(withHook(), () => count++)).exitCode).toBe(0);
    expect(count).toBeGreaterThan(40);
    for (const k of [0, 1, 7, Math.floor(count / 2), count - 1]) {
      const r = withHook();
      const before = full(r);
      const outcome = await init(r, (i) => {
        if (i === k) throw new Error(`disk full after ${k}`);
      });
      expect(outcome.exitCode, `k=${k}`).toBe(1);
      expect(outcome.diagnostics.map((d) => d.code)).toContain("install.failed");
      expect(snapshotDiff(before, full(r)), `k=${k}`).toEqual([]);
      expect(existsSync(join(r.root, ".git/devrites-install.journal"))).toBe(false);
      expect(existsSync(join(r.root, ".git/devrites-install.lock"))).toBe(false);
    }
  });

  it("and the same for uninstall", async () => {
    const r = repo();
    expect((await cli(r, "init")).code).toBe(0);
    const installed = full(r);
    const outcome = await runInstall({
      mode: "uninstall",
      cwd: r.root,
      dryRun: false,
      force: false,
      now: new Date(),
      knownCommands: commandNames(),
      version: "0.0.0-test",
      afterOp: (i) => {
        if (i === 10) throw new Error("power cut");
      },
    });
    expect(outcome.exitCode).toBe(1);
    expect(snapshotDiff(installed, full(r))).toEqual([]);
  });
});

describe("git plumbing the tests rely on", () => {
  it("git runs the hook the installer writes", () => {
    const r = repo();
    expect(
      execFileSync("git", ["rev-parse", "--git-path", "hooks/pre-commit"], {
        cwd: r.root,
        encoding: "utf8",
      }).trim(),
    ).toBe(".git/hooks/pre-commit");
  });
});
