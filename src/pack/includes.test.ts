import { describe, expect, it } from "vitest";
import { buildPack } from "./build.js";
import { edit } from "./fixtures.js";
import { expandIncludes } from "./includes.js";
import type { FragmentModel } from "./types.js";

const frag = (path: string, content: string): [string, FragmentModel] => [
  path,
  { name: path.slice(10, -3), path, content, includedBy: [] },
];
const fragments = new Map([frag("fragments/never.md", "## Never\n\n- no\n\n")]);

describe("expandIncludes", () => {
  it("replaces an include line with the fragment text (trailing blank lines dropped)", () => {
    const r = expandIncludes(
      "a.md",
      "# A\n<!-- devrites:include fragments/never.md -->\nafter\n",
      5,
      fragments,
    );
    expect(r.text).toBe("# A\n## Never\n\n- no\nafter\n");
    expect(r.used).toEqual(["fragments/never.md"]);
    expect(r.diagnostics).toEqual([]);
  });

  it("tolerates surrounding spaces inside and around the comment", () => {
    const r = expandIncludes("a.md", "  <!--devrites:include   fragments/never.md-->  \n", 1, fragments);
    expect(r.used).toEqual(["fragments/never.md"]);
  });

  it("reports a missing fragment with the file line and keeps the line", () => {
    const r = expandIncludes("a.md", "x\n<!-- devrites:include fragments/nope.md -->\n", 7, fragments);
    expect(r.diagnostics).toMatchObject([{ code: "pack.include-missing", path: "a.md", line: 8 }]);
    expect(r.text).toContain("fragments/nope.md");
  });

  it("reports near-miss include syntax as pack.include-malformed", () => {
    for (const line of [
      "<!-- devrites:include never.md -->",
      "<!-- devrites:include fragments/Never.md -->",
      "<!-- devrites:include fragments/never.md --> trailing",
      "<!-- devrites: include fragments/never.md -->",
      "<!-- devrites:include ../fragments/never.md -->",
    ]) {
      const r = expandIncludes("a.md", line, 1, fragments);
      expect(
        r.diagnostics.map((d) => d.code),
        line,
      ).toEqual(["pack.include-malformed"]);
      expect(r.used).toEqual([]);
    }
  });

  it("leaves ordinary comments and prose alone", () => {
    const r = expandIncludes("a.md", "<!-- a note -->\ninclude fragments/never.md\n", 1, fragments);
    expect(r.diagnostics).toEqual([]);
    expect(r.used).toEqual([]);
  });
});

describe("includes in a pack", () => {
  it("records which files include each fragment", () => {
    const { model } = buildPack(edit("fragments/never.md", "## Never", "## Never"));
    expect(model.fragments[0]?.includedBy).toEqual(["agents/devrites-evidence-scout.md"]);
    expect(model.agents[0]?.body).toContain("- Spawn agents.");
    expect(model.agents[0]?.source.rawBody).toContain("devrites:include");
  });

  it("rejects a fragment that includes another (one level only)", () => {
    const files = edit(
      "fragments/never.md",
      "## Never",
      "<!-- devrites:include fragments/never.md -->\n## Never",
    );
    const { diagnostics } = buildPack(files);
    expect(diagnostics).toMatchObject([{ code: "pack.include-nested", path: "fragments/never.md", line: 1 }]);
  });
});
