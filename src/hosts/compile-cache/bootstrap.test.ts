import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import {
  buildCompileCacheJs,
  COMPILE_CACHE_GENERATED,
  generatedModule,
  main,
} from "../../../scripts/build-compile-cache.js";
import { COMPILE_CACHE_JS } from "./bootstrap.generated.js";
import { COMPILE_CACHE_TAG, entryBytes, entryData, entryHash, tempDir } from "./bootstrap.js";

const tag = Buffer.from(COMPILE_CACHE_TAG);
const data = Buffer.from("v8 data");

describe("an entry is offered only to the text it was made from", () => {
  const text = Buffer.from('module.exports = () => "one";');

  it("gives back V8's data for the very text", () => {
    expect(entryData(entryBytes(text, data, tag), text, tag)?.equals(data)).toBe(true);
  });

  it("near misses: a changed text of the same length, a longer or shorter one, gets nothing", () => {
    const entry = entryBytes(text, data, tag);
    const same = Buffer.from('module.exports = () => "two";');
    expect(same.length).toBe(text.length);
    expect(entryData(entry, same, tag)).toBeUndefined();
    expect(entryData(entry, Buffer.concat([text, Buffer.from(" ")]), tag)).toBeUndefined();
    expect(entryData(entry, text.subarray(1), tag)).toBeUndefined();
  });

  it("near misses: no tag, another tag, a torn entry or none at all gets nothing", () => {
    const entry = entryBytes(text, data, tag);
    expect(entryData(entry.subarray(tag.length), text, tag)).toBeUndefined();
    expect(
      entryData(entryBytes(text, data, Buffer.from("devrites-code-cache/v1\n")), text, tag),
    ).toBeUndefined();
    expect(entryData(entry.subarray(0, tag.length + 4 + text.length - 1), text, tag)).toBeUndefined();
    expect(entryData(entry.subarray(0, tag.length + 2), text, tag)).toBeUndefined();
    expect(entryData(undefined, text, tag)).toBeUndefined();
  });
});

describe("an entry's name", () => {
  it("is 16 hex digits and differs for a one-character change", () => {
    expect(entryHash("v20\0x64\0a\0/b.cjs\0leaf")).toMatch(/^[0-9a-f]{16}$/);
    expect(entryHash("")).toBe("811c9dc5deadbeef");
    expect(entryHash("v20\0x64\0a\0/b.cjs\0leaf")).not.toBe(entryHash("v20\0x64\0a\0/b.cjs\0root"));
  });
});

describe("the cache directory's parent is found as os.tmpdir() would on POSIX", () => {
  it("takes TMPDIR, else TMP, else TEMP, else /tmp, without a trailing slash", () => {
    expect(tempDir({ TMPDIR: "/a/", TMP: "/b" })).toBe("/a");
    expect(tempDir({ TMPDIR: "", TMP: "/b" })).toBe("/b");
    expect(tempDir({ TEMP: "/c" })).toBe("/c");
    expect(tempDir({})).toBe("/tmp");
    expect(tempDir({ TMPDIR: "/" })).toBe("/");
  });
});

describe("the code the launcher embeds", () => {
  it("is what the readable source builds to (regenerate with npx tsx scripts/build-compile-cache.ts)", async () => {
    const built = await buildCompileCacheJs();
    expect(built).toBe(COMPILE_CACHE_JS);
    expect(generatedModule(built)).toMatch(/^\/\/ generated — do not edit; regenerate with npx tsx /);
  });

  it("fits in the single-quoted shell bootstrap: no single quote, no line break", () => {
    expect(COMPILE_CACHE_JS).not.toContain("'");
    expect(COMPILE_CACHE_JS).not.toMatch(/[\n\r]/);
    // only Q and QS reach the bootstrap's scope; everything else is inside the cache's own function
    expect(COMPILE_CACHE_JS).toMatch(/^let Q,QS;\(\(\)=>\{.*\}\)\(\)$/);
  });

  it("defines a working Q and QS from the bootstrap's fs and path", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const run = new Function("f", "p", "require", "process", `${COMPILE_CACHE_JS};return [Q,QS]`);
    const env = { ...process.env, DEVRITES_NO_COMPILE_CACHE: "1" };
    const [Q, QS] = run(fs, path, (await import("node:module")).createRequire(import.meta.url), {
      ...process,
      env,
      getuid: process.getuid,
      version: process.version,
      arch: process.arch,
      pid: process.pid,
    });
    expect(Q("return a + b", ["a", "b"], "sum.js")(2, 3)).toBe(5);
    expect(() => QS()).not.toThrow();
  });
});

describe("scripts/build-compile-cache.ts --check", () => {
  it("fails on a missing or edited generated file and writes nothing; passes once it is built", async () => {
    const root = mkdtempSync(join(tmpdir(), "devrites-cc-build-"));
    const quiet = [vi.spyOn(process.stdout, "write"), vi.spyOn(process.stderr, "write")];
    for (const q of quiet) q.mockImplementation(() => true);
    try {
      const here = fileURLToPath(new URL(".", import.meta.url));
      mkdirSync(join(root, "src/hosts/compile-cache"), { recursive: true });
      for (const name of ["bootstrap.ts", "entry.ts"])
        copyFileSync(join(here, name), join(root, "src/hosts/compile-cache", name));
      const generated = join(root, COMPILE_CACHE_GENERATED);
      expect(await main(["--check"], root)).toBe(1);
      expect(existsSync(generated)).toBe(false);
      expect(await main([], root)).toBe(0);
      expect(readFileSync(generated, "utf8")).toBe(generatedModule(COMPILE_CACHE_JS));
      expect(await main(["--check"], root)).toBe(0);
      writeFileSync(generated, readFileSync(generated, "utf8").replace("QS", "QT"));
      expect(await main(["--check"], root)).toBe(1);
      expect(await main(["--fix"], root)).toBe(2);
    } finally {
      for (const q of quiet) q.mockRestore();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
