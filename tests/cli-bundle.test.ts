/**
 * The one-file CLI (`bin/devrites.cjs`, `scripts/build-cli.ts`) and the copy the Claude Code plugin carries
 * (`plugins/claude/devrites/bin/`): up to date with the sources, and working on its own — copied out of the
 * repository, with no node_modules, no pack and no package.json anywhere above it, the way a plugin install
 * leaves it.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCli, CLI_BUNDLE_PATH } from "../scripts/build-cli.js";
import { REPO_ROOT } from "../scripts/build-hooks.js";

const PLUGIN_BIN = join(REPO_ROOT, "plugins", "claude", "devrites", "bin");
const base = mkdtempSync(join(tmpdir(), "devrites-cli-bundle-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The plugin's bin/ alone, under `<base>/<name>/bin`, and a git repository to run it in. */
function lonePlugin(name: string) {
  const plugin = join(base, name);
  cpSync(PLUGIN_BIN, join(plugin, "bin"), { recursive: true });
  const repo = join(base, `${name}-repo`);
  mkdirSync(repo);
  spawnSync("git", ["init", "-q"], { cwd: repo });
  writeFileSync(join(repo, "a.ts"), "export const a = 1;\n");
  const run = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(join(plugin, "bin", "devrites"), args, { cwd: repo, env, encoding: "utf8" });
  return { plugin, repo, run };
}

describe("the one-file CLI", () => {
  it("is what the sources build", async () => {
    const built = await buildCli();
    expect(readFileSync(join(REPO_ROOT, CLI_BUNDLE_PATH), "utf8") === built.text, "run `npm run build`").toBe(
      true,
    );
  }, 60_000);

  it("the plugin's copy runs on its own: version, status, route, a rite mark", () => {
    const { repo, run } = lonePlugin("p1");
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(run(["--version"]).stdout.trim()).toBe(pkg.version);
    const status = run(["status"]);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain("active runs: none");
    // route takes the rite cards the plugin carries: there is no pack
    const route = run(["route", "fix the typo in a.ts"]);
    expect(route.status, route.stderr).toBe(0);
    expect(route.stdout).toMatch(/^rite-quick \(matched\)/);
    expect(run(["rite", "start", "rite-quick"]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(repo, ".devrites", "state.json"), "utf8")).active_rite).toBe(
      "rite-quick",
    );
    // exit codes pass through the shell script
    expect(run(["packet", "new", "--role", "devrites-slice-wright"]).status).toBe(2);
  });

  it("route without the plugin's rite cards: exit 5 (the pack is missing), not a guess", () => {
    const { plugin, run } = lonePlugin("p2");
    rmSync(join(plugin, "bin", "rite-cards.json"));
    const r = run(["route", "fix the typo in a.ts"]);
    expect(r.status).toBe(5);
    expect(r.stderr).toContain("pack.dir-missing");
  });

  it("route with damaged rite cards: exit 5, naming the file", () => {
    const { plugin, run } = lonePlugin("p3");
    writeFileSync(join(plugin, "bin", "rite-cards.json"), "{");
    const r = run(["route", "fix the typo in a.ts"]);
    expect(r.status).toBe(5);
    expect(r.stderr).toContain("route.cards-invalid");
    expect(r.stderr).toContain("rite-cards.json");
  });

  it("bin/devrites is executable and says so when node is not on PATH (exit 127)", () => {
    const { run } = lonePlugin("p4");
    expect(statSync(join(PLUGIN_BIN, "devrites")).mode & 0o111).not.toBe(0);
    const r = run(["status"], { PATH: join(base, "empty") });
    expect(r.status).toBe(127);
    expect(r.stderr).toContain("devrites: node (>= 20.19) is not on PATH");
  });
});
