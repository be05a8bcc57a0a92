import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCapture } from "../cli/test-io.js";
import { type TempRepo, tempRepo } from "../install/fixtures/repo.js";
import { parseInstallManifest } from "../install/manifest.js";

let repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

async function cli(r: TempRepo, ...argv: string[]) {
  const res = await runCapture([...argv, "--hooks", r.hooks, "--json"], r.root);
  const report = JSON.parse(res.stdout) as {
    diagnostics: { code: string; severity: string; path?: string; message: string }[];
    data?: { checks?: { name: string; ok: boolean; detail: string }[] };
  };
  return { code: res.code, report, errors: report.diagnostics.filter((d) => d.severity === "error") };
}

/** Every sidecar manifest under the repository (outside .git). */
function sidecars(root: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, rel))) {
    const p = rel ? `${rel}/${name}` : name;
    if (name === ".git") continue;
    if (statSync(join(root, p)).isDirectory()) out.push(...sidecars(root, p));
    else if (name === ".devrites-generated.json") out.push(p);
  }
  return out;
}

async function installed(): Promise<{ r: TempRepo; files: { path: string; kind: string }[] }> {
  const r = tempRepo({ "AGENTS.md": "# House rules\n", "src/app.ts": "export const x = 1;\n" });
  repos.push(r);
  expect((await cli(r, "init")).code).toBe(0);
  const m = parseInstallManifest(r.read(".devrites/install.json"));
  if (!m.ok) throw new Error("no manifest");
  return { r, files: m.manifest.files };
}

describe("validate compares every managed file with install.json", () => {
  it("a fresh install passes and says how many files it compared", async () => {
    const { r, files } = await installed();
    const v = await cli(r, "validate");
    expect(v.errors).toEqual([]);
    expect(v.code).toBe(0);
    const owned = files.filter((f) =>
      ["owned", "git-hook", "merged-json", "marked-block", "toml-block"].includes(f.kind),
    );
    expect(v.report.data?.checks?.find((c) => c.name === "install")?.detail).toBe(
      `manifest readable; ${owned.length} managed file(s) compared with it`,
    );
  });

  it("the guard bundle replaced by a no-op with every sidecar deleted → install.file-changed naming it", async () => {
    const { r, files } = await installed();
    const bundle = files.find((f) => f.path.endsWith("pre-tool-use.cjs"))!.path;
    const side = sidecars(r.root);
    expect(side.length).toBeGreaterThan(0);
    for (const s of side) rmSync(join(r.root, s));
    writeFileSync(join(r.root, bundle), "process.exit(0);\n");
    const v = await cli(r, "validate");
    expect(v.code).toBe(1);
    const changed = v.errors.filter((d) => d.code === "install.file-changed").map((d) => d.path);
    expect(changed).toContain(bundle);
    // every deleted sidecar is a managed file too
    expect(
      v.errors
        .filter((d) => d.code === "install.file-missing")
        .map((d) => d.path)
        .sort(),
    ).toEqual(side.sort());
  });

  it("a managed file replaced by a symlink to identical bytes is still changed", async () => {
    const { r, files } = await installed();
    const skill = files.find((f) => f.kind === "owned" && f.path.endsWith(".md"))!.path;
    const copy = join(r.root, "..", "copy.md");
    writeFileSync(copy, r.read(skill));
    rmSync(join(r.root, skill));
    (await import("node:fs")).symlinkSync(copy, join(r.root, skill));
    const v = await cli(r, "validate");
    expect(v.errors.find((d) => d.code === "install.file-changed" && d.path === skill)?.message).toContain(
      "is now a symlink",
    );
  });

  it("near miss: the user editing their own part of a merged file (AGENTS.md) is a warning, not a failure", async () => {
    const { r } = await installed();
    writeFileSync(join(r.root, "AGENTS.md"), `${r.read("AGENTS.md")}\nMore house rules.\n`);
    const v = await cli(r, "validate");
    expect(v.errors).toEqual([]);
    expect(v.code).toBe(0);
    expect(v.report.diagnostics.map((d) => d.code)).toContain("install.merged-file-changed");
  });
});
