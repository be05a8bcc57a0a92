import { realpathSync, symlinkSync } from "node:fs";
import { join, posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { isDevritesSegment, isGitSegment } from "./_names.js";
import { isAllowlisted } from "./allowlist.js";
import { checkRepoPath } from "./check-repo-path.js";
import { resolveRepoPath } from "./resolve-repo-path.js";
import { toRepoPath } from "./to-repo-path.js";

const ROOT = "/tmp/x/repo";

/** Segments chosen to hit every rule boundary (practices R24), plus arbitrary strings. */
const tricky = fc.constantFrom(
  "..",
  ".",
  "",
  "a",
  "A",
  "ß",
  "\\",
  "C:",
  "\u0000",
  ".git",
  ".GIT.",
  "git~1",
  ".g\u200cit",
  ".devrites",
  ".gitignore",
  "é",
  "e\u0301",
  " ",
  "*",
  "x.ts",
  "...",
  ".. ",
);
const segment = fc.oneof(tricky, fc.string({ unit: "grapheme", maxLength: 6 }), fc.string({ maxLength: 4 }));
const segmentPath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => s.join("/"));
const anyPath = fc.oneof(segmentPath, fc.string(), fc.string({ unit: "binary" }));

describe("scope properties", () => {
  it("checkRepoPath never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.oneof(anyPath, fc.anything() as fc.Arbitrary<unknown>), (input) => {
        const r = checkRepoPath(input as string);
        expect(typeof r.ok).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });

  it("toRepoPath and isAllowlisted never throw, whatever root, path and cwd they are given", () => {
    const junk = fc.oneof(anyPath, fc.constant(ROOT), fc.anything() as fc.Arbitrary<unknown>);
    fc.assert(
      fc.property(junk, junk, fc.option(junk, { nil: undefined }), (root, p, cwd) => {
        expect(typeof toRepoPath(root as string, p as string, cwd as string | undefined).ok).toBe("boolean");
        expect(typeof isAllowlisted(root as string[], p as string)).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });

  it("an accepted path is canonical: no `..`, `.` or empty segment, no leading `/`, no `\\`, no .git/.devrites", () => {
    fc.assert(
      fc.property(anyPath, (input) => {
        const r = checkRepoPath(input);
        if (!r.ok) return;
        expect(r.path).toBe(input);
        expect(input.startsWith("/")).toBe(false);
        expect(input.includes("\\")).toBe(false);
        expect(input.includes("\u0000")).toBe(false);
        expect(Buffer.byteLength(input)).toBeLessThanOrEqual(4096);
        for (const seg of input.split("/")) {
          expect(["", ".", ".."]).not.toContain(seg);
          expect(isGitSegment(seg)).toBe(false);
          expect(isDevritesSegment(seg)).toBe(false);
        }
        expect(posix.normalize(input)).toBe(input);
      }),
      { numRuns: 3000 },
    );
  });

  it("toRepoPath(root, root + '/' + accepted) returns the same path", () => {
    fc.assert(
      fc.property(anyPath, (input) => {
        const r = checkRepoPath(input);
        if (!r.ok) return;
        expect(toRepoPath(ROOT, `${ROOT}/${input}`)).toEqual({ ok: true, path: input });
        expect(toRepoPath(ROOT, input)).toEqual({ ok: true, path: input });
      }),
      { numRuns: 3000 },
    );
  });

  it("a path whose `..` segments climb above the root is rejected by both entry points", () => {
    const names = fc.constantFrom("a", "b", "src", "..", ".");
    fc.assert(
      fc.property(fc.array(names, { minLength: 1, maxLength: 8 }), (segs) => {
        let depth = 0;
        let escaped = false;
        for (const s of segs) {
          if (s === "..") depth -= 1;
          else if (s !== ".") depth += 1;
          if (depth < 0) escaped = true;
        }
        const p = segs.join("/");
        if (segs.includes("..")) expect(checkRepoPath(p).ok).toBe(false);
        if (escaped) {
          const r = toRepoPath(ROOT, p);
          expect(r.ok).toBe(false);
          const abs = toRepoPath(ROOT, `${ROOT}/${p}`);
          expect(abs.ok).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("isAllowlisted is exact: true only for a canonical path that is on the list byte for byte", () => {
    fc.assert(
      fc.property(fc.array(anyPath, { maxLength: 5 }), anyPath, (list, path) => {
        const expected = list.includes(path) && checkRepoPath(path).ok;
        expect(isAllowlisted(list, path)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("a case or Unicode variant of an allowlisted path is not allowlisted", () => {
    const variant = (p: string) =>
      fc.constantFrom(
        p.toUpperCase(),
        p.toLowerCase(),
        p.normalize("NFD"),
        p.normalize("NFC"),
        p.normalize("NFKC"),
        `${p}.`,
        `${p} `,
        p.replace(/\//g, "//"),
        `./${p}`,
        `\u200c${p}`,
      );
    const base = fc.constantFrom("src/Été.ts", "README.md", "docs/ﬁle.md", "a/é/b", "Straße.txt");
    fc.assert(
      fc.property(
        base.chain((p) => fc.tuple(fc.constant(p), variant(p))),
        ([p, v]) => {
          expect(isAllowlisted([p], p)).toBe(true);
          if (v !== p) expect(isAllowlisted([p], v)).toBe(false);
        },
      ),
    );
  });

  it("resolveRepoPath agrees with the OS realpath on random symlink trees", () => {
    const names = ["d", "e", "f", "l1", "l2", "l3"];
    const targets = [
      "..",
      "../..",
      ".",
      "d",
      "d/e",
      "f",
      "l1",
      "l2",
      "../l3",
      ".git",
      ".git/x",
      "../../repo-evil",
      "../../outside",
      "/",
      "nope",
      "d/../..",
    ];
    const linkSpec = fc.record({
      at: fc.constantFrom("l1", "l2", "l3", "d/l1", "d/l2", "d/e/l3"),
      to: fc.constantFrom(...targets),
    });
    const seen = { accepted: 0, rejected: 0 };
    const query = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 5 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(
        fc.uniqueArray(linkSpec, { selector: (l) => l.at, minLength: 1, maxLength: 5 }),
        fc.array(query, { minLength: 1, maxLength: 8 }),
        (links, queries) => {
          const t = makeTree({
            "repo/d/e/": "",
            "repo/f": "f",
            "repo/.git/x": "g",
            "repo-evil/x": "",
            "outside/f": "",
          });
          try {
            const root = join(t.base, "repo");
            for (const l of links) symlinkSync(l.to, join(root, l.at));
            const realRoot = realpathSync(root);
            for (const q of queries) {
              const r = resolveRepoPath(root, q);
              let real: string | null = null;
              let loop = false;
              try {
                real = realpathSync(join(root, q));
              } catch (e) {
                loop = (e as NodeJS.ErrnoException).code === "ELOOP";
              }
              if (loop) expect(r.ok, q).toBe(false);
              if (real === null) continue;
              const inside = real.startsWith(`${realRoot}/`);
              const rel = inside ? real.slice(realRoot.length + 1) : "";
              const intoGit = rel.split("/").some((s) => s === ".git");
              expect(r.ok, `${q} → ${real} with ${JSON.stringify(links)}`).toBe(inside && !intoGit);
              seen[r.ok ? "accepted" : "rejected"] += 1;
            }
          } finally {
            t.cleanup();
          }
        },
      ),
      { numRuns: 200 },
    );
    // The oracle compared real cases on both sides, not only one.
    expect(seen.accepted, JSON.stringify(seen)).toBeGreaterThan(20);
    expect(seen.rejected, JSON.stringify(seen)).toBeGreaterThan(3);
  });
});
