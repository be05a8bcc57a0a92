import { describe, expect, it } from "vitest";
import { parseHiddenIndexEntries, parsePorcelainV2 } from "./_status.js";

const z = (...records: (string | Buffer)[]) =>
  Buffer.concat(records.flatMap((r) => [typeof r === "string" ? Buffer.from(r) : r, Buffer.from([0])]));
const H = "0".repeat(40);

describe("parsePorcelainV2", () => {
  it("reads ordinary, unmerged, untracked and rename records, keeping spaces in paths", () => {
    const out = z(
      `1 .M N... 100644 100644 100644 ${H} ${H} src/a file.ts`,
      `1 D. N... 100644 000000 000000 ${H} ${H} gone.txt`,
      `u UU N... 100644 100644 100644 100644 ${H} ${H} ${H} conflict.ts`,
      "? new dir/new.ts",
      `2 R. N... 100644 100644 100644 ${H} ${H} R100 to.ts`,
      "from.ts",
      `1 .M S.M. 160000 160000 160000 ${H} ${H} vendor/lib`,
      "? nested-repo/",
      "# branch.oid abc",
    );
    expect(parsePorcelainV2(out).map((p) => [p.raw.toString(), p.repoLike])).toEqual([
      ["src/a file.ts", false],
      ["gone.txt", false],
      ["conflict.ts", false],
      ["new dir/new.ts", false],
      ["to.ts", false],
      ["from.ts", false],
      ["vendor/lib", true],
      ["nested-repo", true],
    ]);
  });

  it("keeps raw bytes of names that are not UTF-8", () => {
    const name = Buffer.from([0x66, 0xff, 0x20, 0x0a]);
    const [p] = parsePorcelainV2(z(Buffer.concat([Buffer.from("? "), name])));
    expect(p?.raw.equals(name)).toBe(true);
  });

  it("is empty for a clean tree", () => {
    expect(parsePorcelainV2(Buffer.alloc(0))).toEqual([]);
  });

  it("fails closed on anything it does not understand", () => {
    expect(() => parsePorcelainV2(z("X what"))).toThrow(/unknown git status record/);
    expect(() => parsePorcelainV2(z("1 .M N..."))).toThrow(/truncated/);
    expect(() => parsePorcelainV2(Buffer.from("? no-terminator"))).toThrow(/NUL/);
    expect(() => parsePorcelainV2(z(`2 R. N... 100644 100644 100644 ${H} ${H} R100 to.ts`))).toThrow(
      /rename/,
    );
    expect(() => parsePorcelainV2(z(" M old-format"))).toThrow();
  });
});

describe("parseHiddenIndexEntries", () => {
  it("keeps assume-unchanged (lower case) and skip-worktree (S) entries only", () => {
    const out = z("H clean.ts", "h assumed.ts", "S sparse.ts", "s both.ts", "M merge.ts");
    expect(parseHiddenIndexEntries(out).map((e) => [e.raw.toString(), e.skipWorktree])).toEqual([
      ["assumed.ts", false],
      ["sparse.ts", true],
      ["both.ts", true],
    ]);
  });
});

describe("porcelain v2: the index side and ignored records", () => {
  it("reads mI and hI of changed records, every stage of a conflict, and marks ignored paths", () => {
    const h = (c: string) => c.repeat(40);
    const out = Buffer.from(
      [
        `1 M. N... 100644 100644 100644 ${h("a")} ${h("b")} src/a.ts`,
        `u UU N... 100644 100644 100644 100644 ${h("1")} ${h("2")} ${h("3")} src/c.ts`,
        "? new.ts",
        "! node_modules/",
        "! debug.log",
        "",
      ].join("\0"),
    );
    const parsed = parsePorcelainV2(out);
    expect(parsed.map((p) => [p.raw.toString(), p.index ?? null, p.ignored ?? false, p.repoLike])).toEqual([
      ["src/a.ts", `100644 ${h("b")}`, false, false],
      ["src/c.ts", `100644 100644 100644 ${h("1")} ${h("2")} ${h("3")}`, false, false],
      ["new.ts", null, false, false],
      ["node_modules", null, true, true],
      ["debug.log", null, true, false],
    ]);
  });
});
