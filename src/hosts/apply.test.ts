import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree, type Tree } from "../../tests/helpers/temp-tree.js";
import { applyPlan } from "./apply.js";
import { checkPlan } from "./check.js";
import { cleanModel, planClean, testInput } from "./fixtures.js";
import { MANIFEST_NAME } from "./manifest.js";
import { DEVRITES_HOOK_MARKER } from "./merge.js";
import { planOutputs } from "./plan.js";
import type { Plan } from "./types.js";

let cleanup = () => {};
afterEach(() => cleanup());

function target(tree: Tree = {}): string {
  const t = makeTree(tree);
  cleanup = t.cleanup;
  return t.base;
}

const plan = (): Plan => planClean().plan;
const read = (base: string, p: string) => readFileSync(join(base, p), "utf8");

describe("applyPlan and checkPlan", () => {
  it("writes every planned file; then the target checks clean and a second apply writes nothing", async () => {
    const base = target();
    const first = await applyPlan(base, plan());
    expect(first.diagnostics).toEqual([]);
    expect([...first.written].sort()).toEqual(
      plan()
        .files.map((f) => f.path)
        .sort(),
    );
    // Manifests are written last.
    expect(first.written.slice(-plan().roots.length).every((p) => p.endsWith(MANIFEST_NAME))).toBe(true);
    const check = await checkPlan(base, plan());
    expect(check.drift).toEqual([]);
    expect(check.clean).toBe(plan().files.length);
    const again = await applyPlan(base, plan());
    expect(again).toMatchObject({ written: [], deleted: [], unchanged: plan().files.length });
  });

  it("reports every missing file on an empty target", async () => {
    const base = target();
    const check = await checkPlan(base, plan());
    expect(check.drift.map((d) => d.state)).toEqual(plan().files.map(() => "missing"));
    expect(check.diagnostics.every((d) => d.code === "generate.missing")).toBe(true);
  });

  it("catches a hand edit to a generated file, with a diff, and overwrites it on apply with a warning", async () => {
    const base = target();
    await applyPlan(base, plan());
    const path = ".claude/agents/devrites-evidence-scout.md";
    writeFileSync(join(base, path), read(base, path).replace("Find facts.", "Find facts, and fix them too."));
    const check = await checkPlan(base, plan());
    expect(check.drift).toEqual([
      {
        path,
        state: "hand-edited",
        diff: expect.stringContaining("-Find facts, and fix them too.\n+Find facts.\n"),
      },
    ]);
    expect(check.diagnostics).toEqual([expect.objectContaining({ code: "generate.hand-edited", path })]);
    const applied = await applyPlan(base, plan());
    expect(applied.written).toEqual([path]);
    expect(applied.diagnostics.map((d) => d.code)).toEqual(["generate.hand-edit-overwritten"]);
    expect((await checkPlan(base, plan())).drift).toEqual([]);
  });

  it("near miss: a file whose manifest hash still matches is stale (the pack changed), not hand-edited", async () => {
    const base = target();
    await applyPlan(base, plan());
    const model = cleanModel();
    const changed = {
      ...model,
      agents: [{ ...model.agents[0]!, body: `${model.agents[0]!.body}\nOne more line.\n` }],
    };
    const next = planOutputs(changed, testInput()).plan;
    const drift = (await checkPlan(base, next)).drift;
    expect(drift.find((d) => d.path === ".claude/agents/devrites-evidence-scout.md")?.state).toBe("stale");
    expect(drift.find((d) => d.path === ".claude/.devrites-generated.json")?.state).toBe("stale");
  });

  it("deletes orphans it wrote unchanged, prunes emptied folders, and keeps an edited orphan untracked", async () => {
    const base = target();
    await applyPlan(base, plan());
    const codexOnly = planClean({ hosts: ["codex"] }).plan;
    // Same roots as a full plan for codex; drop a skill to orphan its files.
    const model = cleanModel();
    const noSkill = planOutputs(
      { ...model, skills: [] },
      testInput({ hosts: ["codex"], layouts: ["project"] }),
    ).plan;
    writeFileSync(join(base, ".agents/skills/rite-look/reference/how.md"), "# mine now\n");
    const check = await checkPlan(base, noSkill);
    expect(check.drift.filter((d) => d.state === "orphaned").map((d) => d.path)).toEqual([
      ".agents/skills/rite-look/SKILL.md",
      ".agents/skills/rite-look/reference/how.md",
    ]);
    const applied = await applyPlan(base, noSkill);
    expect(applied.deleted).toEqual([".agents/skills/rite-look/SKILL.md"]);
    expect(applied.kept).toEqual([".agents/skills/rite-look/reference/how.md"]);
    expect(applied.diagnostics.map((d) => d.code)).toContain("generate.orphan-kept");
    expect(read(base, ".agents/skills/rite-look/reference/how.md")).toBe("# mine now\n");
    expect((await checkPlan(base, noSkill)).drift).toEqual([]);
    // Roots this plan does not cover are never touched.
    expect(existsSync(join(base, ".claude/skills/rite-look/SKILL.md"))).toBe(true);
    expect(codexOnly.roots).not.toContain(".claude");
    rmSync(join(base, ".agents/skills/rite-look/reference/how.md"));
    const full = planOutputs({ ...model, skills: [] }, testInput()).plan;
    const pruned = await applyPlan(base, full);
    expect(pruned.deleted).toContain(".claude/skills/rite-look/SKILL.md");
    expect(existsSync(join(base, ".claude/skills"))).toBe(false);
    expect(existsSync(join(base, ".claude/agents"))).toBe(true);
  });

  it("merges into the user's settings and AGENTS.md and keeps their content", async () => {
    const settings = {
      permissions: { allow: ["Bash(ls)"] },
      hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] },
    };
    const base = target({
      ".claude/settings.json": JSON.stringify(settings),
      "AGENTS.md": "# Our agents\n\nBe kind.\n",
      ".codex/hooks.json": JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "^Bash$", hooks: [{ type: "command", command: "mine" }] }] },
      }),
    });
    await applyPlan(base, plan());
    const s = JSON.parse(read(base, ".claude/settings.json"));
    expect(s.permissions).toEqual(settings.permissions);
    expect(s.hooks.Stop).toEqual(settings.hooks.Stop);
    expect(s.hooks.PreToolUse[0].hooks[0].command).toContain(DEVRITES_HOOK_MARKER);
    const codex = JSON.parse(read(base, ".codex/hooks.json"));
    expect(
      codex.hooks.PreToolUse.map((g: { hooks: { command: string }[] }) =>
        g.hooks[0]!.command.includes(DEVRITES_HOOK_MARKER),
      ),
    ).toEqual([false, true]);
    expect(read(base, "AGENTS.md")).toMatch(/^# Our agents\n\nBe kind\.\n\n<!-- BEGIN DEVRITES/);
    expect((await checkPlan(base, plan())).drift).toEqual([]);
  });

  it("reports drift in merged files as stale, with a diff of devrites' part", async () => {
    const base = target();
    await applyPlan(base, plan());
    writeFileSync(
      join(base, "AGENTS.md"),
      read(base, "AGENTS.md").replace("never edit it by hand", "edit it freely"),
    );
    const drift = (await checkPlan(base, plan())).drift;
    expect(drift).toEqual([
      {
        path: "AGENTS.md",
        state: "stale",
        diff: expect.stringContaining("never edit it by hand"),
      },
    ]);
  });

  it("writes nothing when a settings file is malformed, and says which", async () => {
    const base = target({ ".claude/settings.json": "{ oops" });
    const r = await applyPlan(base, plan());
    expect(r.written).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: "generate.json-malformed", path: ".claude/settings.json" }),
    ]);
    expect(existsSync(join(base, ".codex"))).toBe(false);
  });

  it("writes nothing through a symlinked output folder", async () => {
    const outside = makeTree({ "keep.txt": "x" });
    const base = target();
    const done = cleanup;
    cleanup = () => {
      done();
      outside.cleanup();
    };
    symlinkSync(outside.base, join(base, ".claude"));
    const r = await applyPlan(base, plan());
    expect(r.written).toEqual([]);
    expect(r.diagnostics[0]).toMatchObject({ code: "generate.path-symlink" });
    expect(existsSync(join(outside.base, "skills"))).toBe(false);
  });

  it("refuses a tampered manifest that lists a path outside its root, and writes nothing", async () => {
    const base = target({ "victim.txt": "keep me" });
    await applyPlan(base, plan());
    writeFileSync(
      join(base, ".claude", MANIFEST_NAME),
      JSON.stringify({
        schema: "devrites-generated/v1",
        note: "",
        files: [{ path: "../victim.txt", sha256: "0" }],
      }),
    );
    writeFileSync(join(base, ".claude/agents/devrites-evidence-scout.md"), "edited");
    const r = await applyPlan(base, plan());
    expect(r.written).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: "generate.path-unsafe", path: ".claude/../victim.txt" }),
    ]);
    expect(read(base, "victim.txt")).toBe("keep me");
  });

  it("refuses a manifest it cannot read", async () => {
    const base = target();
    await applyPlan(base, plan());
    writeFileSync(join(base, ".codex", MANIFEST_NAME), "not json");
    const check = await checkPlan(base, plan());
    expect(check.diagnostics.map((d) => d.code)).toContain("generate.manifest-malformed");
    const r = await applyPlan(base, plan());
    expect(r.written).toEqual([]);
  });
});
