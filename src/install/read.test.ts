import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPlainRelPath } from "./manifest.js";
import { readCurrent } from "./read.js";

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "devrites-read-")));
  root = join(base, "repo");
  outside = join(base, "elsewhere");
  mkdirSync(join(root, ".claude/agents"), { recursive: true });
  mkdirSync(join(root, "docs"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "settings.json"), "{}");
  writeFileSync(join(root, ".claude/agents/a.md"), "a\n");
  writeFileSync(join(root, "docs/real.md"), "r\n");
  symlinkSync(outside, join(root, ".codex"));
  symlinkSync("docs", join(root, ".agents"));
  symlinkSync("docs/real.md", join(root, "AGENTS.md"));
  mkdirSync(join(root, ".git/hooks"), { recursive: true });
  symlinkSync("../../docs/real.md", join(root, ".git/hooks/pre-commit"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const inside = (p: string) => {
  const r = relative(root, resolve(root, p));
  return r !== "" && r !== ".." && !r.startsWith("../") && !isAbsolute(r);
};

describe("readCurrent", () => {
  it("reads files, absences, and refuses symlinks with the rule that applies", () => {
    expect(readCurrent(root, ".claude/agents/a.md", "output")).toMatchObject({
      kind: "file",
      mode: expect.any(Number),
    });
    expect(readCurrent(root, ".claude/agents/b.md", "output")).toEqual({ kind: "absent" });
    const out = readCurrent(root, ".codex/hooks.json", "output");
    expect(out.kind === "unsafe" && out.diagnostic.code).toBe("install.symlink-outside");
    const inRepo = readCurrent(root, ".agents/skills/x/SKILL.md", "output");
    expect(inRepo.kind === "unsafe" && inRepo.diagnostic.code).toBe("install.path-symlink");
    const file = readCurrent(root, "AGENTS.md", "output");
    expect(file.kind === "unsafe" && file.diagnostic.code).toBe("install.path-symlink");
    const notDir = readCurrent(root, ".claude/agents/a.md/x", "output");
    expect(notDir.kind === "unsafe" && notDir.diagnostic.code).toBe("install.path-not-dir");
    const dir = readCurrent(root, ".claude/agents", "output");
    expect(dir.kind === "unsafe" && dir.diagnostic.code).toBe("install.path-not-file");
  });

  it("a user's pre-commit hook may be a link (it is moved, never written through)", () => {
    expect(readCurrent(root, ".git/hooks/pre-commit", "git-hook")).toEqual({
      kind: "link",
      target: "../../docs/real.md",
    });
  });

  it("the workspace class admits only the two workspace files; the output class never .git or .devrites", () => {
    expect(readCurrent(root, ".devrites/install.json", "workspace").kind).toBe("absent");
    expect(readCurrent(root, ".devrites/state.json", "workspace").kind).toBe("absent");
    for (const [p, cls] of [
      [".devrites/runs/x/packet.json", "workspace"],
      [".devrites/state.json", "output"],
      [".git/config", "output"],
      ["../outside.txt", "git-hook"],
      ["/etc/passwd", "output"],
    ] as const) {
      const r = readCurrent(root, p, cls);
      expect(r.kind, `${cls} ${p}`).toBe("unsafe");
    }
    expect(readCurrent(root, ".devrites/hooks/pre-tool-use.cjs", "output").kind).toBe("absent");
  });

  it("property: whatever the path, anything not refused lies strictly inside the target", () => {
    const seg = fc.constantFrom(
      "a",
      "b.md",
      ".",
      "..",
      "...",
      ".git",
      ".GIT",
      ".devrites",
      "hooks",
      ".claude",
      ".codex",
      "",
      "x\\y",
      "c:",
      "AGENTS.md",
    );
    const path = fc.array(seg, { minLength: 1, maxLength: 5 }).map((s) => s.join("/"));
    const cls = fc.constantFrom("output" as const, "workspace" as const, "git-hook" as const);
    fc.assert(
      fc.property(path, cls, (p, c) => {
        const r = readCurrent(root, p, c);
        if (r.kind === "unsafe") return;
        expect(inside(p), p).toBe(true);
        expect(isPlainRelPath(p), p).toBe(true);
        if (c === "output") expect(p.split("/").some((s) => s.toLowerCase() === ".git")).toBe(false);
        if (c !== "git-hook") expect(p.split("/")[0]).not.toBe(".codex"); // the symlink out is always refused
      }),
      { numRuns: 2000 },
    );
  });
});
