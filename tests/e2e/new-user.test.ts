/**
 * As a new user would: build and pack devrites, install the tarball into a fresh folder from the registry,
 * run `npx devrites init --git-hook` in a fresh git repository that already has the user's own AGENTS.md,
 * `.claude/settings.json`, `.codex/config.toml` and pre-commit hook, then `devrites validate`, a real commit
 * through the installed hook, and `devrites uninstall`; the repository must be back to its original bytes.
 */

import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshot, snapshotDiff } from "../../src/install/fixtures/repo.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const ENTRIES = ["pre-tool-use", "subagent-stop", "user-prompt-submit"];

let top: string;
let tarball: string;
let bundlesBuilt = false;

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 280_000 });
  return { code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/**
 * Build and pack a copy of the repository (its tracked and untracked, not ignored files; node_modules linked),
 * so the test always packs the code as it is, and never rewrites dist/ or hooks/ under tests running beside it.
 */
beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-new-user-")));
  const copy = join(top, "devrites");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => f !== "" && existsSync(join(REPO, f)));
  for (const f of files) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    copyFileSync(join(REPO, f), join(copy, f));
  }
  symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"));
  const build = run("npm", ["run", "build"], copy);
  if (build.code !== 0) throw new Error(`npm run build failed:\n${build.out}`);
  bundlesBuilt = ENTRIES.every((e) => existsSync(join(copy, "hooks", `${e}.cjs`)));
  const pack = run("npm", ["pack", "--pack-destination", top, "--silent"], copy);
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.out}`);
  const name = readdirSync(top).find((f) => f.endsWith(".tgz"));
  if (!name) throw new Error(`npm pack wrote no tarball:\n${pack.out}`);
  tarball = join(top, name);
}, 300_000);

afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

describe("a new user", () => {
  it("installs the packed devrites, inits a repository, validates, commits through the hook, uninstalls: every byte back", async () => {
    expect(bundlesBuilt, "npm run build made the hook bundles").toBe(true);
    // The package, installed from the tarball as a user would (dependencies from the registry).
    const project = join(top, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), '{ "name": "a-project", "private": true }\n');
    const install = run("npm", ["install", "--no-audit", "--no-fund", tarball], project);
    expect(install.code, install.out).toBe(0);
    for (const e of ENTRIES)
      expect(existsSync(join(project, "node_modules/devrites/hooks", `${e}.cjs`))).toBe(true);
    expect(existsSync(join(project, "node_modules/devrites/pack/.claude/skills/rite/SKILL.md"))).toBe(true);

    // A fresh repository, inside the project so `npx devrites` finds the install, with the user's own files.
    const repo = join(project, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "user@example.invalid");
    git("config", "user.name", "user");
    git("config", "commit.gpgsign", "false");
    mkdirSync(join(repo, ".claude"));
    mkdirSync(join(repo, ".codex"));
    mkdirSync(join(repo, "src"));
    writeFileSync(join(repo, "AGENTS.md"), "# Our agents\r\n\r\nBe brief.\r\n");
    writeFileSync(
      join(repo, ".claude/settings.json"),
      '{"model":"opus","permissions":{"allow":["Bash(npm test)"]}}',
    );
    writeFileSync(join(repo, ".codex/config.toml"), 'model = "gpt-5"\n');
    writeFileSync(join(repo, "src/app.ts"), "export const x = 1;\n");
    git("add", "-A");
    git("commit", "-q", "-m", "our project");
    writeFileSync(join(repo, ".git/hooks/pre-commit"), '#!/bin/sh\necho "user hook ran" >&2\n', {
      mode: 0o755,
    });
    chmodSync(join(repo, ".git/hooks/pre-commit"), 0o755);
    const before = snapshot(repo, { git: true });

    const env = { ...process.env, DEVRITES_BIN: "" };
    const init = run("npx", ["--no-install", "devrites", "init", "--git-hook"], repo, env);
    expect(init.code, init.out).toBe(0);
    expect(existsSync(join(repo, ".devrites/install.json"))).toBe(true);
    expect(existsSync(join(repo, ".devrites/hooks/pre-tool-use.cjs"))).toBe(true);
    expect(existsSync(join(repo, ".git/hooks/pre-commit.pre-devrites"))).toBe(true);

    const validate = run("npx", ["--no-install", "devrites", "validate"], repo, env);
    expect(validate.out).toContain("validate: ok");
    expect(validate.code, validate.out).toBe(0);

    // A commit through the installed hook: the user's hook first, then devrites validate --staged.
    writeFileSync(join(repo, "src/next.ts"), "export const y = 2;\n");
    git("add", "src/next.ts");
    const commit = run("git", ["commit", "-m", "next"], repo, env);
    expect(commit.code, commit.out).toBe(0);
    expect(commit.out).toContain("user hook ran");
    expect(commit.out).toContain("validate --staged");
    git("rm", "-q", "src/next.ts");
    git("commit", "-q", "--no-verify", "-m", "back");

    const uninstall = run("npx", ["--no-install", "devrites", "uninstall"], repo, env);
    expect(uninstall.code, uninstall.out).toBe(0);
    expect(snapshotDiff(before, snapshot(repo, { git: true }))).toEqual([]);
  }, 300_000);
});
