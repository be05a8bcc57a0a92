/**
 * Customising a rite or role in a user's repository: files under `.devrites/pack/` replace the installed
 * package's pack files of the same path; init, update and validate build the adapters from the result.
 */

import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { git, type TempRepo, tempRepo } from "../../install/fixtures/repo.js";
import { PACKAGE_PACK } from "../../install/sources.js";
import { runCapture } from "../test-io.js";

let repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

function repo(): TempRepo {
  const r = tempRepo({ "src/app.ts": "export const x = 1;\n" });
  repos.push(r);
  return r;
}

async function cli(r: TempRepo, ...argv: string[]) {
  const res = await runCapture([...argv, "--hooks", r.hooks, "--json"], r.root);
  const report = JSON.parse(res.stdout) as { diagnostics: { code: string; path?: string }[] };
  return { code: res.code, report, codes: report.diagnostics.map((d) => d.code) };
}

const RITE = "skills/rite-quick/SKILL.md";
const LINE = "Always run the house linter before the proof step.";

function customise(r: TempRepo, rel: string, text: string): void {
  const p = join(r.root, ".devrites/pack", rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
}

describe("a customised rite in .devrites/pack/", () => {
  it("update builds the adapters from it, validate agrees, and an edit without update is drift", async () => {
    const r = repo();
    expect((await cli(r, "init", "--host", "claude")).code).toBe(0);
    const own = readFileSync(join(PACKAGE_PACK, RITE), "utf8");
    customise(r, RITE, `${own.trimEnd()}\n\n${LINE}\n`);
    // the customised file is a source now: the installed adapter is stale until update
    const stale = await cli(r, "validate");
    expect(stale.code).toBe(1);
    expect((await cli(r, "update")).code).toBe(0);
    expect(readFileSync(join(r.root, ".claude/skills/rite-quick/SKILL.md"), "utf8")).toContain(LINE);
    expect((await cli(r, "validate")).code).toBe(0);
    // a second update is a no-op (the temporary pack folder leaves no trace in the output)
    const again = await runCapture(["update", "--hooks", r.hooks], r.root);
    expect(again.stdout).toMatch(/nothing to do/);
    // removing the customisation brings devrites' own rite back on the next update
    rmSync(join(r.root, ".devrites/pack"), { recursive: true });
    expect((await cli(r, "validate")).code).toBe(1);
    expect((await cli(r, "update")).code).toBe(0);
    expect(readFileSync(join(r.root, ".claude/skills/rite-quick/SKILL.md"), "utf8")).not.toContain(LINE);
  });

  it("validate --staged (the pre-commit hook) checks the adapters when only a customised file is staged", async () => {
    const r = repo();
    expect((await cli(r, "init", "--host", "claude")).code).toBe(0);
    const own = readFileSync(join(PACKAGE_PACK, RITE), "utf8");
    customise(r, RITE, `${own.trimEnd()}\n\n${LINE}\n`);
    git(r.root, "add", ".devrites/pack");
    expect((await cli(r, "validate", "--staged")).code).toBe(1);
    expect((await cli(r, "update")).code).toBe(0);
    git(r.root, "add", "-A");
    expect((await cli(r, "validate", "--staged")).code).toBe(0);
  });

  it("a customised file that breaks the pack is refused, naming the file under .devrites/pack", async () => {
    const r = repo();
    expect((await cli(r, "init", "--host", "claude")).code).toBe(0);
    customise(r, RITE, "no frontmatter at all\n");
    const u = await cli(r, "update");
    expect(u.code).not.toBe(0);
    expect(u.codes).toContain("install.pack-broken");
    expect(u.report.diagnostics.some((d) => d.path === `.devrites/pack/${RITE}`)).toBe(true);
    const v = await cli(r, "validate");
    expect(v.code).toBe(1);
    expect(v.codes).toContain("validate.overlay-broken");
  });

  it("near miss: a symlink in .devrites/pack is refused with its path; nothing is written", async () => {
    const r = repo();
    expect((await cli(r, "init", "--host", "claude")).code).toBe(0);
    mkdirSync(join(r.root, ".devrites/pack/skills/rite-quick"), { recursive: true });
    symlinkSync(join(PACKAGE_PACK, RITE), join(r.root, ".devrites/pack", RITE));
    const u = await cli(r, "update");
    expect(u.code).toBe(1);
    expect(u.report.diagnostics).toContainEqual(
      expect.objectContaining({ code: "install.overlay-entry", path: `.devrites/pack/${RITE}` }),
    );
  });
});
