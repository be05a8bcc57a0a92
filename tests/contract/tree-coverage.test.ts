/**
 * What a leaf can change that `git status` does not report (docs/tree-check.md), each class as a scenario
 * through the real CLI: the change is made the way a leaf's shell would make it, then `result check` must
 * reject with the specific code on the path; the near miss next to it must still be accepted.
 */

import { linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/hash.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({
    ".gitignore": "node_modules/\ndist/\n*.log\n",
    "src/app.ts": "export const app = 1;\n",
    "src/util.ts": "export const util = 1;\n",
  });
  repo.write("node_modules/dep/index.js", "module.exports = 1;\n");
  repo.write("node_modules/dep/package.json", "{}\n");
  repo.write("dist/out.js", "built\n");
});
afterEach(() => repo.cleanup());

async function scout(): Promise<AgentPacket> {
  return repo.packet("devrites-evidence-scout");
}

async function checkScout(p: AgentPacket) {
  await repo.record(p, repo.resultFor(p));
  return repo.check(p);
}

async function wright(allow: string[], writes: [string, string][]) {
  const p = await repo.packet("devrites-slice-wright", { allow });
  const declared = writes.map(([path, content]) => ({
    path,
    op: "modify" as const,
    sha256_after: repo.write(path, content),
  }));
  await repo.record(p, repo.resultFor(p, declared));
  return { p, r: await repo.check(p) };
}

describe("ignored paths", () => {
  it("a file rewritten in an ignored folder → result.stale on the folder", async () => {
    const p = await scout();
    repo.write("node_modules/dep/index.js", "module.exports = 'patched';\n");
    const r = await checkScout(p);
    expect(codes(r)).toEqual(["result.stale"]);
    expect(r.json.diagnostics[0]!.path).toBe("node_modules/");
  });

  it("a wright's out-of-scope write to an ignored file → result.out-of-scope", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    repo.write("debug.log", "planted\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.out-of-scope", "result.undeclared-write"]);
    expect(r.json.diagnostics[0]!.path).toBe("debug.log");
  });

  it("near miss: an allowlisted file inside an ignored folder, written by the wright, is accepted", async () => {
    const { r } = await wright(["dist/out.js"], [["dist/out.js", "rebuilt\n"]]);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("near miss: reading an ignored file changes nothing", async () => {
    const p = await scout();
    repo.read("node_modules/dep/index.js");
    expect((await checkScout(p)).code).toBe(0);
  });
});

describe("the git folder", () => {
  const cases: [string, (r: Repo) => void, string][] = [
    [
      "a hook planted",
      (r) => r.write("../repo/.git/hooks/pre-commit", "#!/bin/sh\nexit 0\n"),
      ".git/hooks/pre-commit",
    ],
    ["config changed", (r) => r.git("config", "core.hooksPath", "/tmp/elsewhere"), ".git/config"],
    ["info/exclude changed", (r) => r.write("../repo/.git/info/exclude", "src/\n"), ".git/info/exclude"],
    [
      "HEAD moved to another branch at the same commit",
      (r) => r.git("checkout", "-q", "-b", "other"),
      ".git/HEAD",
    ],
    ["a tag added", (r) => r.git("tag", "v9"), ".git/refs"],
    [
      "a tracked file deleted after its skip-worktree flag was set",
      (r) => {
        r.git("update-index", "--skip-worktree", "src/util.ts");
        r.remove("src/util.ts");
      },
      ".git/index-flags",
    ],
  ];
  it.each(cases)("%s → result.stale on it", async (_why, mutate, path) => {
    const p = await scout();
    mutate(repo);
    const r = await checkScout(p);
    expect(r.json.diagnostics.map((d) => [d.code, d.path])).toContainEqual(["result.stale", path]);
    expect(r.code).toBe(1);
  });

  it("a change made only in the index of a file already dirty at the baseline → result.stale on the file", async () => {
    repo.write("src/util.ts", "dirty before\n");
    const p = await scout();
    repo.write("src/util.ts", "staged by the leaf\n");
    repo.git("add", "src/util.ts");
    repo.write("src/util.ts", "dirty before\n");
    const r = await checkScout(p);
    expect(codes(r)).toEqual(["result.stale"]);
    expect(r.json.diagnostics[0]!.path).toBe("src/util.ts");
  });

  it("near miss: a wright that stages its own allowlisted file is accepted; a remote-tracking ref moving is not a change", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    repo.git("add", "src/app.ts");
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
  });
});

describe("nested repositories", () => {
  function nested(): void {
    mkdirSync(join(repo.root, "vendor/lib"), { recursive: true });
    const g = (...a: string[]) => repo.git("-C", "vendor/lib", ...a);
    g("init", "-q", "-b", "main");
    g("config", "user.email", "t@example.invalid");
    g("config", "user.name", "t");
    writeFileSync(join(repo.root, "vendor/lib/x.txt"), "1\n");
    g("add", "-A");
    g("commit", "-q", "-m", "one");
    writeFileSync(join(repo.root, "vendor/lib/x.txt"), "dirty already\n");
  }

  it("the work tree of a nested repository that was already dirty, changed again → result.stale", async () => {
    nested();
    const p = await scout();
    writeFileSync(join(repo.root, "vendor/lib/x.txt"), "changed by the leaf\n");
    const r = await checkScout(p);
    expect(codes(r)).toEqual(["result.stale"]);
    expect(r.json.diagnostics[0]!.path).toBe("vendor/lib");
  });

  it("near miss: a dirty nested repository left alone is accepted", async () => {
    nested();
    const p = await scout();
    expect((await checkScout(p)).code).toBe(0);
  });

  it("an allowlisted file inside a nested repository is refused at packet new (scope.submodule)", async () => {
    nested();
    const r = await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "x",
      "--allow",
      "vendor/lib/x.txt",
      "--allow",
      "src/app.ts",
    ]);
    expect(r.code).toBe(2);
    expect(r.json.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["scope.submodule", "vendor/lib/x.txt"],
    ]);
    expect(r.json.diagnostics[0]!.message).toContain("inside vendor/lib");
  });

  it("an allowlisted file inside an uninitialised submodule (a gitlink, no .git) is refused too", async () => {
    nested();
    const head = repo.git("-C", "vendor/lib", "rev-parse", "HEAD").trim();
    rmSync(join(repo.root, "vendor/lib"), { recursive: true, force: true });
    repo.git("update-index", "--add", "--cacheinfo", `160000,${head},vendor/lib`);
    const r = await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "x",
      "--allow",
      "vendor/lib/new.txt",
    ]);
    expect(r.json.diagnostics.map((d) => d.code)).toEqual(["scope.submodule"]);
  });
});

describe("hard links", () => {
  it("an allowlisted path hard-linked to a file outside the allowlist → result.hard-link", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    rmSync(join(repo.root, "src/app.ts"));
    linkSync(join(repo.root, "src/util.ts"), join(repo.root, "src/app.ts"));
    const sha = sha256Hex("export const util = 1;\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: sha }]));
    const r = await repo.check(p);
    expect(codes(r)).toContain("result.hard-link");
    expect(r.json.diagnostics.find((d) => d.code === "result.hard-link")!.path).toBe("src/app.ts");
  });

  it("a hard link to an allowlisted file from an ignored folder → result.hard-link and the folder changed", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    linkSync(join(repo.root, "src/app.ts"), join(repo.root, "node_modules/dep/alias.js"));
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(codes(r)).toEqual(["result.hard-link", "result.out-of-scope", "result.undeclared-write"]);
  });

  it("near miss: a rewrite by rename (one link) is accepted", async () => {
    const { r } = await wright(["src/app.ts"], [["src/app.ts", "export const app = 3;\n"]]);
    expect(r.code).toBe(0);
  });
});
