import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { writeFileAtomic, writeFilesAtomic } from "./atomic-write.js";

let cleanup = () => {};
afterEach(() => cleanup());

function tmp(): string {
  const t = makeTree({});
  cleanup = t.cleanup;
  return t.base;
}

/** Every file under `dir`, recursively, relative. */
function list(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? list(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe("writeFileAtomic", () => {
  it("creates folders, writes and replaces a file, and leaves no temp file", () => {
    const base = tmp();
    const p = join(base, "a", "b", "f.txt");
    writeFileAtomic(p, "one");
    writeFileAtomic(p, "two", 0o600);
    expect(readFileSync(p, "utf8")).toBe("two");
    expect(list(base)).toEqual(["a/b/f.txt"]);
  });
});

describe("writeFilesAtomic", () => {
  it("writes every file across folders with its mode, replacing old content, and leaves no temp file", async () => {
    const base = tmp();
    writeFileSync(join(base, "old.txt"), "old");
    const files = Array.from({ length: 40 }, (_, i) => ({
      path: join(base, `d${i % 5}`, `f${i}.txt`),
      data: `content ${i}`,
    }));
    await writeFilesAtomic([...files, { path: join(base, "old.txt"), data: "new", mode: 0o600 }], 8);
    for (const [i, f] of files.entries()) expect(readFileSync(f.path, "utf8")).toBe(`content ${i}`);
    expect(readFileSync(join(base, "old.txt"), "utf8")).toBe("new");
    expect(list(base).filter((p) => p.includes("devrites-tmp"))).toEqual([]);
    expect(list(base)).toHaveLength(41);
    expect(statSync(join(base, "d0", "f0.txt")).mode & 0o777).toBe(0o644);
  });

  it("does nothing for an empty list", async () => {
    const base = tmp();
    await writeFilesAtomic([]);
    expect(list(base)).toEqual([]);
  });

  it("throws naming the file that failed, and leaves no temp file", async () => {
    const base = tmp();
    mkdirSync(join(base, "taken"));
    const bad = join(base, "taken");
    const err = await writeFilesAtomic(
      [
        { path: join(base, "ok.txt"), data: "x" },
        { path: bad, data: "cannot replace a folder with a file" },
      ],
      1,
    ).catch((e: unknown) => e as Error & { path?: string });
    expect(err).toBeInstanceOf(Error);
    expect(err?.path).toBe(bad);
    expect(list(base).filter((p) => p.includes("devrites-tmp"))).toEqual([]);
    expect(readFileSync(join(base, "ok.txt"), "utf8")).toBe("x");
  });
});
