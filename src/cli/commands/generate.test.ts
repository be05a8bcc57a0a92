import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../../tests/helpers/temp-tree.js";
import { standInBundles } from "../../hosts/fixtures.js";
import { runCapture } from "../test-io.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const GOLDEN = "tests/fixtures/hosts/golden-pack";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** A temp folder with `target/` and `hooks/` (stand-in bundles for the entries given). */
function setup(entries?: string[]) {
  const t = makeTree({ "target/": "" });
  cleanups.push(t.cleanup);
  mkdirSync(join(t.base, "hooks"));
  for (const [e, text] of standInBundles(entries)) writeFileSync(join(t.base, "hooks", `${e}.cjs`), text);
  return { target: join(t.base, "target"), hooks: join(t.base, "hooks"), base: t.base };
}

const gen = (s: { target: string; hooks: string }, ...extra: string[]) =>
  runCapture(["generate", "--pack", GOLDEN, "--target", s.target, "--hooks", s.hooks, ...extra], REPO);

describe("devrites generate", () => {
  it("renders a clean pack for both hosts; --check is then clean", async () => {
    const s = setup();
    const r = await gen(s);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^generate: 49 files for claude, codex: 49 written, 0 removed, 0 unchanged$/);
    expect(existsSync(join(s.target, ".claude/skills/rite-look/SKILL.md"))).toBe(true);
    expect(existsSync(join(s.target, ".codex/agents/devrites-slice-wright.toml"))).toBe(true);
    const check = await gen(s, "--check");
    expect(check.code).toBe(0);
    expect(check.stdout).toBe("generate --check: 49 files up to date (claude, codex)");
  });

  it("--check exits 1 on a hand edit and prints the state, the path and the diff", async () => {
    const s = setup();
    await gen(s);
    const file = join(s.target, ".codex/agents/devrites-evidence-scout.toml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace('sandbox_mode = "read-only"', 'sandbox_mode = "workspace-write"'),
    );
    const r = await gen(s, "--check");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("1 of 49 files drifted");
    expect(r.stdout).toContain("hand-edited .codex/agents/devrites-evidence-scout.toml");
    expect(r.stdout).toContain('-sandbox_mode = "workspace-write"\n+sandbox_mode = "read-only"');
    expect(r.stderr).toContain("error generate.hand-edited .codex/agents/devrites-evidence-scout.toml");
  });

  it("--check lists missing and orphaned files in --json", async () => {
    const s = setup();
    await gen(s, "--host", "claude");
    rmSync(join(s.target, "plugins/claude/devrites/agents/devrites-slice-wright.md"));
    const manifest = join(s.target, ".claude/.devrites-generated.json");
    const m = JSON.parse(readFileSync(manifest, "utf8"));
    m.files.push({
      path: "agents/old-role.md",
      sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    });
    writeFileSync(manifest, JSON.stringify(m));
    writeFileSync(join(s.target, ".claude/agents/old-role.md"), "");
    const r = await gen(s, "--host", "claude", "--check", "--json");
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.data.drift.map((d: { path: string; state: string }) => [d.state, d.path])).toEqual([
      ["stale", ".claude/.devrites-generated.json"],
      ["orphaned", ".claude/agents/old-role.md"],
      ["missing", "plugins/claude/devrites/agents/devrites-slice-wright.md"],
    ]);
    expect(report.diagnostics.map((d: { code: string }) => d.code)).toContain("generate.orphaned");
  });

  it("--host codex writes only Codex files and the shared hook bundles", async () => {
    const s = setup();
    const r = await gen(s, "--host", "codex");
    expect(r.code).toBe(0);
    expect(readdirSync(s.target).sort()).toEqual([".agents", ".codex", ".devrites", "AGENTS.md", "plugins"]);
    expect(readdirSync(join(s.target, "plugins"))).toEqual(["codex"]);
  });

  it("does not render a pack that fails lint: exit 1 with the lint diagnostics, nothing written", async () => {
    const s = setup();
    const r = await runCapture(
      [
        "generate",
        "--pack",
        "tests/fixtures/packs/unknown-command",
        "--target",
        s.target,
        "--hooks",
        s.hooks,
      ],
      REPO,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error pack.command-unknown tests/fixtures/packs/unknown-command/");
    expect(r.stdout).toContain("nothing was rendered");
    expect(readdirSync(s.target)).toEqual([]);
  });

  it("exits 5 with the build hint when a hook bundle is missing, and writes nothing", async () => {
    const s = setup(["pre-tool-use"]);
    const r = await gen(s, "--json");
    expect(r.code).toBe(5);
    const report = JSON.parse(r.stdout);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "generate.hook-bundle-missing",
        hint: "npm run build",
        path: expect.stringMatching(/hooks\/subagent-stop\.cjs$/),
      }),
    );
    expect(readdirSync(s.target)).toEqual([]);
  });

  it("exits 2 with the path when the target is not a directory", async () => {
    const s = setup();
    writeFileSync(join(s.base, "file"), "");
    for (const t of [join(s.base, "file"), join(s.base, "missing")]) {
      const r = await runCapture(
        ["generate", "--pack", GOLDEN, "--target", t, "--hooks", s.hooks, "--json"],
        REPO,
      );
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).diagnostics).toEqual([
        expect.objectContaining({ code: "generate.target-invalid", path: t }),
      ]);
    }
  });

  it("exits 2 with the path when an output would be written through a symlink out of the target", async () => {
    const s = setup();
    const outside = makeTree({});
    cleanups.push(outside.cleanup);
    symlinkSync(outside.base, join(s.target, ".codex"));
    const r = await gen(s, "--json");
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).diagnostics).toContainEqual(
      expect.objectContaining({ code: "generate.path-symlink", path: ".codex/.devrites-generated.json" }),
    );
    expect(readdirSync(outside.base)).toEqual([]);
  });

  it("exits 2 on an unknown --host", async () => {
    const s = setup();
    const r = await gen(s, "--host", "cursor");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown --host `cursor`");
  });

  it("exits 5 when the pack folder is missing", async () => {
    const s = setup();
    const r = await runCapture(
      ["generate", "--pack", "nope", "--target", s.target, "--hooks", s.hooks],
      REPO,
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("pack.dir-missing");
  });
});
