import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Repo } from "../../../tests/contract/harness.js";
import { standInBundles } from "../../hosts/fixtures.js";
import { runCapture } from "../test-io.js";

const GOLDEN = fileURLToPath(new URL("../../../tests/fixtures/hosts/golden-pack", import.meta.url));

let repos: Repo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

function repo(files: Record<string, string> = {}): Repo {
  const r = Repo.create(files);
  repos.push(r);
  return r;
}

interface Report {
  code: number;
  codes: string[];
  diagnostics: { code: string; severity: string; path?: string; message: string; hint?: string }[];
  data: {
    checks: { name: string; ok: boolean; detail: string }[];
    staged?: { paths: number; evaluated: number };
  };
}

async function validate(r: Repo, ...extra: string[]): Promise<Report> {
  const res = await runCapture(["validate", ...extra, "--json"], r.root);
  const json = JSON.parse(res.stdout);
  return {
    code: res.code,
    codes: json.diagnostics
      .filter((d: { severity: string }) => d.severity === "error")
      .map((d: { code: string }) => d.code),
    diagnostics: json.diagnostics,
    data: json.data,
  };
}

const checkNames = (r: Report) => r.data.checks.map((c) => c.name);

/** A repository that carries its own pack (like devrites itself), with its adapters generated. */
async function packRepo(): Promise<{ r: Repo; hooks: string }> {
  const r = repo();
  cpSync(GOLDEN, join(r.root, "pack/.claude"), { recursive: true });
  const hooks = r.outside("hooks");
  for (const [e, text] of standInBundles()) writeFileSync(join(hooks, `${e}.cjs`), text);
  const gen = await runCapture(
    ["generate", "--pack", "pack/.claude", "--hooks", hooks, "--target", r.root],
    r.root,
  );
  expect(gen.code).toBe(0);
  r.commit("pack and adapters");
  return { r, hooks };
}

describe("devrites validate: nothing vacuous", () => {
  it("a repository with nothing of devrites fails and says why", async () => {
    const r = repo();
    const v = await validate(r);
    expect(v.code).toBe(1);
    expect(v.codes).toEqual(["validate.nothing-to-check"]);
  });

  it("--staged: nothing staged passes; staged files that no check covers fail with the reason", async () => {
    const r = repo();
    const none = await runCapture(["validate", "--staged"], r.root);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("validate --staged: nothing is staged; nothing to check");
    r.write("src/a.ts", "x\n");
    r.git("add", "src/a.ts");
    const v = await validate(r, "--staged");
    expect(v.code).toBe(1);
    expect(v.codes).toEqual(["validate.nothing-evaluated"]);
    expect(v.diagnostics[0]?.path).toBe("src/a.ts");
    expect(v.diagnostics[0]?.hint).toContain("devrites init");
  });

  it("--staged outside a git repository is a usage error", async () => {
    const r = repo();
    const plain = r.outside("plain");
    const res = await runCapture(["validate", "--staged", "--json"], plain);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).diagnostics[0].code).toBe("validate.not-git");
  });
});

describe("devrites validate: the workspace", () => {
  async function acceptedRun(r: Repo) {
    const p = await r.packet("devrites-evidence-scout", { inputs: ["README.md"] });
    expect((await r.record(p, r.resultFor(p))).code).toBe(0);
    expect((await r.check(p)).code).toBe(0);
    return p;
  }

  it("accepts a clean workspace and re-verifies accepted results", async () => {
    const r = repo();
    await acceptedRun(r);
    const v = await validate(r);
    expect(v.codes).toEqual([]);
    expect(v.code).toBe(0);
    expect(v.data.checks.find((c) => c.name === "workspace")?.detail).toBe(
      "1 run(s), 1 accepted result(s) re-verified",
    );
  });

  it("an accepted result whose baseline.json no longer hashes to its packet's claim", async () => {
    const r = repo();
    const p = await acceptedRun(r);
    const path = `.devrites/runs/${p.run_id}/baseline.json`;
    const rec = JSON.parse(r.read(path));
    rec.dirty.push({ path: "planted.ts", type: "file", exec: false, sha256: "0".repeat(64) });
    r.write(path, JSON.stringify(rec));
    const v = await validate(r);
    expect(v.code).toBe(1);
    expect(v.codes).toEqual(["workspace.accepted-baseline-mismatch"]);
    expect(v.diagnostics[0]?.path).toBe(path);
    expect(v.diagnostics[0]?.message).toContain("dirty manifest hashes to");
  });

  it("an accepted result edited after it was checked, or gone", async () => {
    const r = repo();
    const p = await acceptedRun(r);
    const result = JSON.parse(r.read(p.result_path));
    result.payload.content.findings = [];
    r.write(p.result_path, JSON.stringify(result, null, 2));
    expect((await validate(r)).codes).toContain("workspace.accepted-result-changed");
    r.remove(p.result_path);
    expect((await validate(r)).codes).toContain("workspace.accepted-result-missing");
  });

  it("a packet that is not a valid agent-packet/v1", async () => {
    const r = repo();
    const p = await acceptedRun(r);
    const packet = JSON.parse(r.read(`.devrites/runs/${p.run_id}/packet.json`));
    packet.budgets.max_files = -1;
    r.write(`.devrites/runs/${p.run_id}/packet.json`, JSON.stringify(packet));
    const v = await validate(r);
    expect(v.code).toBe(1);
    expect(v.codes).toContain("workspace.packet-invalid");
    expect(v.codes).toContain("envelope.schema");
  });

  it("a result the check rejected is reported as a warning, kept as the record of the rejection", async () => {
    const r = repo();
    const p = await r.packet("devrites-evidence-scout", { inputs: ["README.md"] });
    const bad = { ...r.resultFor(p), role: "devrites-code-reviewer" };
    r.writeResult(p, JSON.stringify(bad));
    expect((await r.check(p)).code).toBe(1);
    const v = await validate(r);
    expect(v.codes.filter((c) => c.startsWith("workspace."))).toEqual([]);
    expect(
      v.diagnostics.some((d) => d.code === "workspace.result-role-mismatch" && d.severity === "warning"),
    ).toBe(true);
  });

  it("an unjudged result that does not answer its packet is an error", async () => {
    const r = repo();
    const p = await r.packet("devrites-evidence-scout", { inputs: ["README.md"] });
    r.writeResult(p, JSON.stringify({ ...r.resultFor(p), baseline_id: "f".repeat(64) }));
    expect((await validate(r)).codes).toContain("workspace.result-baseline-mismatch");
  });

  it("--staged checks the touched runs only", async () => {
    const r = repo();
    const good = await acceptedRun(r);
    const bad = await acceptedRun(r);
    r.write(`.devrites/runs/${bad.run_id}/baseline.json`, "{}");
    r.git("add", "-f", `.devrites/runs/${good.run_id}`);
    const clean = await validate(r, "--staged");
    expect(clean.codes).toEqual([]);
    expect(clean.code).toBe(0);
    r.git("add", "-f", `.devrites/runs/${bad.run_id}`);
    const dirty = await validate(r, "--staged");
    expect(dirty.codes).toEqual(["workspace.accepted-baseline-mismatch"]);
  });

  it("--staged refuses a file a leaf may still be writing (an active run, no accepted result)", async () => {
    const r = repo({ "src/a.ts": "a\n", "src/b.ts": "b\n" });
    await r.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    r.write("src/b.ts", "b2\n");
    r.git("add", "src/b.ts");
    const ok = await validate(r, "--staged");
    expect(ok.code).toBe(0);
    expect(checkNames(ok)).toEqual(["active-runs"]);
    r.write("src/a.ts", "a2\n");
    r.git("add", "src/a.ts");
    const v = await validate(r, "--staged");
    expect(v.code).toBe(1);
    expect(v.codes).toEqual(["validate.staged-unverified"]);
    expect(v.diagnostics.find((d) => d.code === "validate.staged-unverified")?.path).toBe("src/a.ts");
  });

  it("--staged warns when a checked file also has unstaged changes", async () => {
    const r = repo({ "src/a.ts": "a\n" });
    await acceptedRun(r);
    r.write("src/a.ts", "a2\n");
    r.git("add", "src/a.ts");
    r.write("src/a.ts", "a3\n");
    const v = await validate(r, "--staged");
    expect(v.code).toBe(0);
    expect(v.diagnostics.find((d) => d.code === "validate.partially-staged")?.severity).toBe("warning");
  });
});

describe("devrites validate: the pack and the generated adapters", () => {
  it("a clean pack and adapters in sync", async () => {
    const { r, hooks } = await packRepo();
    const v = await validate(r, "--hooks", hooks);
    expect(v.codes).toEqual([]);
    expect(checkNames(v)).toEqual(["pack", "adapters"]);
    expect(v.data.checks[1]?.detail).toMatch(
      /^\d+ files in sync \(claude\/project, claude\/plugin, codex\/project, codex\/plugin\)$/,
    );
  });

  it("a hand edit of a generated file is drift; the fix named is devrites generate", async () => {
    const { r, hooks } = await packRepo();
    const path = ".codex/agents/devrites-evidence-scout.toml";
    r.write(path, `${r.read(path)}# mine\n`);
    const v = await validate(r, "--hooks", hooks);
    expect(v.code).toBe(1);
    const d = v.diagnostics.find((x) => x.code === "generate.hand-edited");
    expect(d?.path).toBe(path);
    expect(d?.hint).toContain("devrites generate");
  });

  it("--staged: a staged pack file runs the lint and the whole drift check", async () => {
    const { r, hooks } = await packRepo();
    const edited = ".claude/agents/devrites-slice-wright.md";
    r.write(edited, `${r.read(edited)}x\n`);
    const skill = "pack/.claude/skills/rite-look/SKILL.md";
    r.write(skill, r.read(skill).replace(/^description: .*$/m, "description: Looks at things."));
    r.git("add", skill);
    const v = await validate(r, "--staged", "--hooks", hooks);
    expect(v.code).toBe(1);
    expect(v.codes).toContain("pack.description-no-when");
    expect(checkNames(v)).toContain("pack");
  });

  it("--staged: a staged generated file is compared alone; other drift is not this commit's", async () => {
    const { r, hooks } = await packRepo();
    const other = ".claude/agents/devrites-slice-wright.md";
    r.write(other, `${r.read(other)}x\n`);
    const staged = ".codex/agents/devrites-evidence-scout.toml";
    r.write(staged, `${r.read(staged)}`.replace("read-only", "workspace-write"));
    r.git("add", staged);
    const v = await validate(r, "--staged", "--hooks", hooks);
    expect(v.code).toBe(1);
    expect(v.diagnostics.filter((d) => d.severity === "error").map((d) => d.path)).toEqual([staged]);
  });

  it("--staged in the devrites repository itself: a staged renderer source runs the lint and the whole drift check", async () => {
    const { r, hooks } = await packRepo();
    const edited = ".claude/agents/devrites-slice-wright.md";
    r.write(edited, `${r.read(edited)}x\n`);
    r.write("src/hosts/render.ts", "// a renderer changed\n");
    r.git("add", "src/hosts/render.ts");
    const { validateRepo } = await import("../../validate-repo/index.js");
    const { commandNames } = await import("../registry.js");
    const base = { cwd: r.root, staged: true, knownCommands: commandNames(), hooksDir: hooks };
    const asDevrites = await validateRepo({ ...base, packageRoot: r.root });
    expect(asDevrites.data.checks.map((c) => c.name)).toEqual(["pack", "adapters"]);
    expect(asDevrites.diagnostics.find((d) => d.code === "generate.hand-edited")?.path).toBe(edited);
    const asUser = await validateRepo(base);
    expect(asUser.exitCode).toBe(1);
    expect(asUser.diagnostics.map((d) => d.code)).toEqual(["validate.nothing-evaluated"]);
    expect(asUser.diagnostics[0]?.hint).toContain("active runs");
  });

  it("--staged: only an unrelated file staged runs neither the lint nor the drift check", async () => {
    const { r, hooks } = await packRepo();
    const skill = "pack/.claude/skills/rite-look/SKILL.md";
    r.write(skill, "broken\n");
    mkdirSync(join(r.root, ".devrites"), { recursive: true });
    const state = {
      schema: "devrites-state/v1",
      active_rite: null,
      phase: null,
      active_runs: [],
      updated_at: "2026-01-01T00:00:00Z",
    };
    writeFileSync(join(r.root, ".devrites/state.json"), `${JSON.stringify(state)}\n`);
    r.write("src/x.ts", "x\n");
    r.git("add", "src/x.ts");
    const v = await validate(r, "--staged", "--hooks", hooks);
    expect(v.code).toBe(0);
    expect(checkNames(v)).toEqual(["active-runs"]);
  });
});
