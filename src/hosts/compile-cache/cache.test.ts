/**
 * The compile cache (`./bootstrap.ts`) as the launcher runs it: real hook commands through a shell, each with a
 * TMPDIR of its own, then the cache directory compared. Every safety rule has its near miss beside it.
 */

import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../../tests/helpers/temp-tree.js";
import { ECHO_BUNDLE, guardCommand as guard, LEAF_CALL as LEAF, runHookCommand as run } from "../fixtures.js";
import { COMPILE_CACHE_MAX_ENTRIES, COMPILE_CACHE_TAG } from "./bootstrap.js";

describe("the compile cache, run by the launcher", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  /** A project with `bundle`, and a fresh TMPDIR whose cache directory the launcher would use. */
  function setup(bundle: string) {
    const t = makeTree({ ".devrites/hooks/pre-tool-use.cjs": bundle, "tmp/": "" });
    cleanups.push(t.cleanup);
    const tmp = join(t.base, "tmp");
    const uid = process.getuid?.() ?? -1;
    return { base: t.base, tmp, dir: join(tmp, `devrites-compile-cache-${uid}`) };
  }
  const entries = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".bin"));

  it.skipIf(process.platform === "win32")(
    "keeps one entry per compiled text in a private directory, written once, and answers the same from it",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      const first = run(guard(), base, LEAF, { TMPDIR: tmp });
      expect(first).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF}` });
      expect(lstatSync(dir).mode & 0o777).toBe(0o700);
      const [entry, ...more] = entries(dir);
      expect(more).toEqual([]);
      expect(entry).toMatch(/^[0-9a-f]{16}\.bin$/);
      const file = join(dir, entry as string);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const before = statSync(file);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toEqual(first);
      const after = statSync(file);
      expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
      expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    },
  );

  it.skipIf(process.platform === "win32")(
    "finds its directory as os.tmpdir() would: TMPDIR with a trailing slash, else TMP, and one entry per kind of caller",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      expect(run(guard(), base, LEAF, { TMPDIR: `${tmp}/` })).toMatchObject({ code: 0 });
      expect(entries(dir)).toHaveLength(1);
      expect(run(guard(), base, LEAF, { TMPDIR: "", TMP: tmp })).toMatchObject({ code: 0 });
      expect(entries(dir)).toHaveLength(1);
      // a root call (no agent_type) keeps its own entry of the same bundle
      expect(run(guard(), base, "root call", { TMPDIR: tmp })).toMatchObject({
        code: 0,
        stdout: "bundle saw root call",
      });
      expect(entries(dir)).toHaveLength(2);
      expect(run(guard(), base, "root call", { TMPDIR: tmp })).toMatchObject({ code: 0 });
      expect(entries(dir)).toHaveLength(2);
    },
  );

  it.skipIf(process.platform === "win32")(
    "an entry is only offered to its own text: a changed bundle of the same length answers with its new code",
    () => {
      const one = `module.exports = () => ({ exitCode: 0, stdout: "one", stderr: "" });\n`;
      const two = one.replace('"one"', '"two"');
      expect(two.length).toBe(one.length);
      const { base, tmp, dir } = setup(one);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp }).stdout).toBe("one");
      const [entry] = entries(dir);
      const file = join(dir, entry as string);
      expect(readFileSync(file).includes(one)).toBe(true);
      writeFileSync(join(base, ".devrites/hooks/pre-tool-use.cjs"), two);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp }).stdout).toBe("two");
      // the bundle's one entry now holds the new text
      expect(entries(dir)).toEqual([entry]);
      expect(readFileSync(file).includes(two)).toBe(true);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp }).stdout).toBe("two");
      // near miss: an entry of the old format (no tag) holding the right text is not used either
      writeFileSync(file, readFileSync(file).subarray(COMPILE_CACHE_TAG.length));
      expect(run(guard(), base, LEAF, { TMPDIR: tmp }).stdout).toBe("two");
      expect(readFileSync(file).subarray(0, COMPILE_CACHE_TAG.length).toString()).toBe(COMPILE_CACHE_TAG);
    },
  );

  it.skipIf(process.platform === "win32")(
    "stays bounded: a miss over the limit removes the least recently written entries and a killed writer's old temporary files",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      mkdirSync(dir, { mode: 0o700 });
      const old = Date.now() / 1000 - 3600;
      const names = Array.from(
        { length: COMPILE_CACHE_MAX_ENTRIES + 5 },
        (_, i) => `${i.toString(16).padStart(16, "0")}.bin`,
      );
      // entry i was written i seconds after the oldest
      names.forEach((n, i) => {
        writeFileSync(join(dir, n), "stale");
        utimesSync(join(dir, n), old + i, old + i);
      });
      writeFileSync(join(dir, "dead.1.tmp"), "half");
      utimesSync(join(dir, "dead.1.tmp"), old, old);
      writeFileSync(join(dir, "live.2.tmp"), "being written");
      writeFileSync(join(dir, "notes"), "not ours to remove");
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({
        code: 0,
        stdout: `bundle saw ${LEAF}`,
      });
      const left = entries(dir);
      expect(left).toHaveLength(COMPILE_CACHE_MAX_ENTRIES);
      // the new entry stays, the six oldest went
      expect(left.filter((n) => !names.includes(n))).toHaveLength(1);
      expect(left.filter((n) => names.slice(0, 6).includes(n))).toEqual([]);
      expect(left).toEqual(expect.arrayContaining(names.slice(6)));
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(["live.2.tmp", "notes"]));
      expect(readdirSync(dir)).not.toContain("dead.1.tmp");
      // near miss: a hit writes nothing and removes nothing, even over the limit
      writeFileSync(join(dir, "ffffffffffffffff.bin"), "stale");
      utimesSync(join(dir, "ffffffffffffffff.bin"), old, old);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({ code: 0 });
      expect(entries(dir)).toHaveLength(COMPILE_CACHE_MAX_ENTRIES + 1);
    },
  );

  it.skipIf(process.platform === "win32")(
    "a corrupt entry is rejected by V8 and replaced; the answer comes from the text",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      run(guard(), base, LEAF, { TMPDIR: tmp });
      const file = join(dir, entries(dir)[0] as string);
      writeFileSync(file, Buffer.alloc(4096, 0xa5));
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({
        code: 0,
        stdout: `bundle saw ${LEAF}`,
      });
      expect(readFileSync(file).equals(Buffer.alloc(4096, 0xa5))).toBe(false);
      // a denying answer is unchanged by a corrupt entry too
      writeFileSync(file, "garbage");
      expect(run(guard(), base, `${LEAF} deny`, { TMPDIR: tmp })).toMatchObject({
        code: 2,
        stderr: "denied by bundle",
      });
    },
  );

  it.skipIf(process.platform === "win32")(
    "near misses: a directory open to others, a directory that is a link, or DEVRITES_NO_COMPILE_CACHE=1 caches nothing",
    () => {
      const open = setup(ECHO_BUNDLE);
      mkdirSync(open.dir);
      chmodSync(open.dir, 0o777);
      expect(run(guard(), open.base, LEAF, { TMPDIR: open.tmp })).toMatchObject({ code: 0 });
      expect(entries(open.dir)).toEqual([]);

      const linked = setup(ECHO_BUNDLE);
      const elsewhere = join(linked.base, "elsewhere");
      mkdirSync(elsewhere, { mode: 0o700 });
      symlinkSync(elsewhere, linked.dir);
      expect(run(guard(), linked.base, LEAF, { TMPDIR: linked.tmp })).toMatchObject({ code: 0 });
      expect(readdirSync(elsewhere)).toEqual([]);

      const off = setup(ECHO_BUNDLE);
      expect(run(guard(), off.base, LEAF, { TMPDIR: off.tmp, DEVRITES_NO_COMPILE_CACHE: "1" })).toMatchObject(
        {
          code: 0,
        },
      );
      expect(readdirSync(off.tmp)).toEqual([]);
    },
  );

  it.skipIf(process.platform === "win32")(
    "an entry that is a link is not read: the answer comes from the text and the link's target is untouched",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      run(guard(), base, LEAF, { TMPDIR: tmp });
      const name = entries(dir)[0] as string;
      const target = join(base, "target.bin");
      writeFileSync(target, readFileSync(join(dir, name)));
      rmSync(join(dir, name));
      symlinkSync(target, join(dir, name));
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({
        code: 0,
        stdout: `bundle saw ${LEAF}`,
      });
      // the refresh renames a new entry over the link; the file it pointed to is never written through
      expect(lstatSync(join(dir, name)).isSymbolicLink()).toBe(false);
    },
  );

  // only root can hand a file to another user
  const asRoot = process.platform !== "win32" && process.getuid?.() === 0;
  const OTHER_UID = 65534;

  it.skipIf(!asRoot)(
    "an entry another user owns is not read: it is replaced by one of ours; near miss: our own entry is kept",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      run(guard(), base, LEAF, { TMPDIR: tmp });
      const file = join(dir, entries(dir)[0] as string);
      const ours = statSync(file);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({ code: 0 });
      expect(statSync(file).ino).toBe(ours.ino);
      chownSync(file, OTHER_UID, OTHER_UID);
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({
        code: 0,
        stdout: `bundle saw ${LEAF}`,
      });
      const after = statSync(file);
      expect(after.uid).toBe(process.getuid?.());
      expect(after.ino).not.toBe(ours.ino);
    },
  );

  it.skipIf(!asRoot)("a cache directory another user owns is not used: nothing is written into it", () => {
    const { base, tmp, dir } = setup(ECHO_BUNDLE);
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, OTHER_UID, OTHER_UID);
    expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({
      code: 0,
      stdout: `bundle saw ${LEAF}`,
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(process.platform === "win32")(
    "a write that cannot be renamed into place leaves no temporary file, and the answer is unchanged",
    () => {
      const { base, tmp, dir } = setup(ECHO_BUNDLE);
      run(guard(), base, LEAF, { TMPDIR: tmp });
      const name = entries(dir)[0] as string;
      rmSync(join(dir, name));
      // a directory in the entry's place: the rename over it fails
      mkdirSync(join(dir, name, "in-the-way"), { recursive: true });
      expect(run(guard(), base, LEAF, { TMPDIR: tmp })).toMatchObject({
        code: 0,
        stdout: `bundle saw ${LEAF}`,
      });
      expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
      expect(readdirSync(join(dir, name))).toEqual(["in-the-way"]);
    },
  );
});
