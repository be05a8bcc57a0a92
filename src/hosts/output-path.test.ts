import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { isDevritesSegment, isGitSegment } from "../scope/_names.js";
import { checkOutputOnDisk, checkOutputPath, outputPath } from "./output-path.js";

const TARGET = "/tmp/devrites-target/repo";

describe("checkOutputPath", () => {
  it("accepts the paths the adapters plan", () => {
    for (const p of [
      ".claude/skills/rite/SKILL.md",
      ".claude/settings.json",
      ".agents/skills/rite/agents/openai.yaml",
      ".codex/agents/devrites-evidence-scout.toml",
      ".devrites/hooks/pre-tool-use.cjs",
      ".devrites/hooks/.devrites-generated.json",
      "plugins/claude/devrites/.claude-plugin/plugin.json",
      "AGENTS.md",
    ]) {
      expect(checkOutputPath(p), p).toBeNull();
    }
  });

  it.each([
    ["../outside.md", "scope.traversal"],
    [".claude/../../x", "scope.traversal"],
    ["/etc/passwd", "scope.absolute"],
    ["C:/x", "scope.drive"],
    ["//server/share", "scope.unc"],
    [".claude\\x.md", "scope.backslash"],
    [".claude//x.md", "scope.empty-segment"],
    ["./x.md", "scope.dot-segment"],
    [".claude/", "scope.trailing-slash"],
    [".git/hooks/pre-commit", "scope.git"],
    ["sub/.GIT/config", "scope.git"],
    [".devrites/state.json", "scope.devrites"],
    [".devrites/runs/r/packet.json", "scope.devrites"],
    [".devrites/hooks/.devrites/x", "scope.devrites"],
    [".devrites/hooks/sub/x.cjs", "scope.devrites"],
    ["x/.devrites/hooks/a.cjs", "scope.devrites"],
    ["", "scope.empty"],
    ["a\u0000b", "scope.nul"],
  ])("refuses %j by rule %s", (input, rule) => {
    const d = checkOutputPath(input);
    expect(d?.code).toBe("generate.path-unsafe");
    expect(d?.message).toContain(rule);
    expect(d?.path).toBe(input);
  });

  it("allows only the hooks folder under .devrites, not a look-alike", () => {
    expect(checkOutputPath(".devrites/hooks/x.cjs")).toBeNull();
    expect(checkOutputPath(".devrites/hooksx/x.cjs")?.message).toContain("scope.devrites");
    expect(checkOutputPath(".devrites/Hooks/x.cjs")?.message).toContain("scope.devrites");
    expect(checkOutputPath(".devrites/hooks")?.message).toContain("scope.devrites");
  });
});

describe("outputPath", () => {
  it("returns the absolute path inside the target", () => {
    const r = outputPath(TARGET, ".claude/agents/a.md");
    expect(r).toEqual({ ok: true, abs: join(TARGET, ".claude", "agents", "a.md") });
  });

  it("refuses a path that names the target itself", () => {
    expect(outputPath(TARGET, ".").ok).toBe(false);
  });

  const tricky = fc.constantFrom(
    "..",
    ".",
    "",
    "a",
    ".claude",
    ".devrites",
    "hooks",
    ".git",
    ".GIT.",
    "git~1",
    "DEVRIT~1",
    ".g\u200cit",
    "\\",
    "/",
    "C:",
    "...",
    ".. ",
    "\u0000",
    "．．",
    "x.md",
  );
  const segment = fc.oneof(
    tricky,
    fc.string({ maxLength: 5 }),
    fc.string({ unit: "grapheme", maxLength: 4 }),
  );
  const anyPath = fc.oneof(
    fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => s.join("/")),
    fc.string(),
    fc.string({ unit: "binary" }),
  );

  it("property: no input escapes the target, reaches .git, or reaches .devrites outside hooks/", () => {
    fc.assert(
      fc.property(anyPath, (input) => {
        const r = outputPath(TARGET, input);
        if (!r.ok) {
          expect(r.diagnostic.code).toMatch(/^generate\.path-/);
          expect(r.diagnostic.path).toBe(String(input));
          return;
        }
        const back = relative(TARGET, r.abs);
        expect(back).not.toBe("");
        expect(back.startsWith(`..${sep}`) || back === "..").toBe(false);
        expect(resolve(TARGET, back)).toBe(r.abs);
        const segs = back.split(sep);
        expect(segs.some(isGitSegment)).toBe(false);
        const dev = segs.flatMap((s, i) => (isDevritesSegment(s) ? [i] : []));
        if (dev.length > 0) {
          expect(dev).toEqual([0]);
          expect(segs[1]).toBe("hooks");
          expect(segs.length).toBe(3);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("property: never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.oneof(anyPath, fc.anything() as fc.Arbitrary<unknown>), (input) => {
        expect(typeof outputPath(TARGET, input as string).ok).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });
});

describe("checkOutputOnDisk", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("accepts absent files and regular files under real folders", async () => {
    const t = makeTree({ ".claude/agents/a.md": "x" });
    cleanup = t.cleanup;
    expect(await checkOutputOnDisk(t.base, ".claude/agents/a.md")).toBeNull();
    expect(await checkOutputOnDisk(t.base, ".claude/agents/b.md")).toBeNull();
    expect(await checkOutputOnDisk(t.base, ".codex/agents/b.toml")).toBeNull();
  });

  it("refuses a symlinked folder on the way, even one pointing inside the target", async () => {
    const t = makeTree({ "real/": "", "elsewhere/": "" });
    cleanup = t.cleanup;
    symlinkSync(join(t.base, "..", ".."), join(t.base, ".claude"));
    symlinkSync(join(t.base, "real"), join(t.base, ".codex"));
    expect((await checkOutputOnDisk(t.base, ".claude/skills/x/SKILL.md"))?.code).toBe(
      "generate.path-symlink",
    );
    expect((await checkOutputOnDisk(t.base, ".codex/agents/a.toml"))?.code).toBe("generate.path-symlink");
  });

  it("refuses a symlinked file, a folder where a file goes and a file where a folder goes", async () => {
    const t = makeTree({ "outside.txt": "secret", ".claude/skills/x/SKILL.md/": "", ".codex": "a file" });
    cleanup = t.cleanup;
    mkdirSync(join(t.base, ".agents"));
    symlinkSync(join(t.base, "outside.txt"), join(t.base, ".agents", "AGENTS.md"));
    writeFileSync(join(t.base, "plain"), "");
    expect((await checkOutputOnDisk(t.base, ".agents/AGENTS.md"))?.code).toBe("generate.path-symlink");
    expect((await checkOutputOnDisk(t.base, ".claude/skills/x/SKILL.md"))?.code).toBe(
      "generate.path-not-file",
    );
    expect((await checkOutputOnDisk(t.base, ".codex/hooks.json"))?.code).toBe("generate.path-not-dir");
  });
});
