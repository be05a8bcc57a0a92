import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { COMPILE_CACHE_MAX_ENTRIES, COMPILE_CACHE_TAG } from "./compile-cache/bootstrap.js";
import { hookCommand, launcherScript } from "./launcher.js";
import { DEVRITES_HOOK_MARKER } from "./merge.js";
import { LAZY_PARTS_LINE } from "./output-path.js";

/**
 * A stand-in bundle in the launcher's contract: CommonJS exporting `(stdin bytes) => answer`. It echoes its
 * stdin on stdout; "deny" in the input denies; the other words pick a way of failing.
 */
const ECHO_BUNDLE = `
const ok = (s) => ({ exitCode: 0, stdout: "bundle saw " + s, stderr: "" });
module.exports = (input) => {
  const s = Buffer.from(input).toString("utf8");
  if (s.includes("deny")) return { exitCode: 2, stdout: "bundle saw " + s, stderr: "denied by bundle" };
  if (s.includes("crash")) throw new Error("boom");
  if (s.includes("garbage")) return { exitCode: 1, stdout: "", stderr: "" };
  if (s.includes("nothing")) return undefined;
  if (s.includes("async-ok")) return new Promise((r) => setTimeout(() => r(ok(s)), 10));
  if (s.includes("async-reject")) return Promise.reject(new Error("rejected"));
  if (s.includes("async-throw")) { setTimeout(() => { throw new Error("late boom"); }, 10); return new Promise(() => {}); }
  if (s.includes("hang")) return new Promise(() => { setTimeout(() => {}, 60_000); });
  return ok(s);
};
`;

/** A bundle that throws while it is being loaded. */
const THROWING_BUNDLE = `throw new Error("broken at load");\n`;
/** A bundle that loads but exports no function (e.g. an old bundle that ran on its own). */
const NO_FUNCTION_BUNDLE = `module.exports = { answer: 1 };\n`;

const LEAF = JSON.stringify({
  hook_event_name: "PreToolUse",
  agent_type: "devrites-slice-wright",
  tool_name: "Bash",
});
const ROOT = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" });

/** A temporary directory of this file's own, so the launcher's compile cache stays out of the machine's. */
const TMP = realpathSync(mkdtempSync(join(tmpdir(), "devrites-launcher-tmp-")));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function run(command: string, cwd: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const { CLAUDE_PROJECT_DIR: _drop, DEVRITES_NO_COMPILE_CACHE: _off, ...rest } = process.env;
  const r = spawnSync("/bin/sh", ["-c", command], {
    cwd,
    input,
    encoding: "utf8",
    env: { ...rest, TMPDIR: TMP, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const guard = (extra: Partial<Parameters<typeof hookCommand>[1]> = {}) =>
  hookCommand("pre-tool-use", { failClosed: true, timeoutSec: 10, ...extra });

describe("launcherScript", () => {
  it("carries the devrites marker and no single quote (it is single-quoted for the shell)", () => {
    for (const failClosed of [true, false]) {
      const js = launcherScript({ failClosed, timeoutSec: 5 });
      expect(js).toContain(DEVRITES_HOOK_MARKER);
      expect(js).not.toContain("'");
    }
  });

  it("refuses an entry name the shell could misread", () => {
    expect(() => hookCommand("a b", { failClosed: true, timeoutSec: 5 })).toThrow(/not allowed/);
    expect(() => hookCommand("x;rm", { failClosed: true, timeoutSec: 5 })).toThrow(/not allowed/);
  });
});

describe("hookCommand, run by a shell", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  function project(withBundle: boolean | string) {
    const t = makeTree({
      "src/deep/er/": "",
      ...(withBundle
        ? { ".devrites/hooks/pre-tool-use.cjs": typeof withBundle === "string" ? withBundle : ECHO_BUNDLE }
        : {}),
    });
    cleanup = t.cleanup;
    return t.base;
  }

  it("runs the bundle with the hook's stdin and passes exit 0 and its stdout through", () => {
    const base = project(true);
    const r = run(guard(), base, LEAF);
    expect(r).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF}` });
  });

  it("passes the bundle's deny (exit 2 and stderr) through", () => {
    const base = project(true);
    const r = run(guard(), base, `${ROOT} deny`);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("denied by bundle");
    expect(r.stdout).toBe(`bundle saw ${ROOT} deny`);
  });

  it("finds the bundle from a subdirectory of the project (Codex runs hooks in the session cwd)", () => {
    const base = project(true);
    const r = run(guard(), join(base, "src", "deep", "er"), LEAF);
    expect(r).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF}` });
  });

  it("prefers $CLAUDE_PROJECT_DIR when it is set", () => {
    const base = project(true);
    const elsewhere = makeTree({ "x/": "" });
    const done = cleanup;
    cleanup = () => {
      done();
      elsewhere.cleanup();
    };
    const r = run(guard(), elsewhere.base, LEAF, { CLAUDE_PROJECT_DIR: base });
    expect(r).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF}` });
  });

  it("fails closed for a leaf when the bundle is missing, also from a subdirectory", () => {
    const base = project(false);
    for (const cwd of [base, join(base, "src", "deep")]) {
      const r = run(guard(), cwd, LEAF);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("not found");
      expect(r.stderr).toContain("denied (fail closed)");
    }
  });

  it("near miss: the root (no agent_type) gets a visible non-blocking error, not a deny", () => {
    const base = project(false);
    const r = run(guard(), base, ROOT);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("not found");
    expect(r.stderr).not.toContain("denied");
  });

  it("near miss: a hook that is not fail-closed never denies, even for a leaf", () => {
    const base = project(false);
    const cmd = hookCommand("subagent-stop", { failClosed: false, timeoutSec: 60 });
    const r = run(cmd, base, LEAF);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("denied");
  });

  it("fails closed for a leaf when the bundle throws while answering; the root gets a visible error", () => {
    const base = project(true);
    const leaf = run(guard(), base, `${LEAF} crash`);
    expect(leaf.code).toBe(2);
    expect(leaf.stderr).toContain("failed: boom");
    expect(leaf.stderr).toContain("denied (fail closed)");
    expect(leaf.stdout).toBe("");
    const root = run(guard(), base, `${ROOT} crash`);
    expect(root.code).toBe(1);
    expect(root.stderr).toContain("failed: boom");
    expect(root.stderr).not.toContain("denied");
  });

  it("fails closed for a leaf when the bundle throws while loading", () => {
    const base = project(THROWING_BUNDLE);
    const r = run(guard(), base, LEAF);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("failed: broken at load");
    expect(r.stderr).toContain("denied (fail closed)");
  });

  it("fails closed for a leaf when the bundle exports no function", () => {
    const base = project(NO_FUNCTION_BUNDLE);
    const r = run(guard(), base, LEAF);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("exports no hook function");
    expect(r.stderr).toContain("denied (fail closed)");
  });

  it("fails closed for a leaf when the bundle answers anything but exit 0 or 2 with two texts", () => {
    const base = project(true);
    for (const word of ["garbage", "nothing"]) {
      const r = run(guard(), base, `${LEAF} ${word}`);
      expect(r.code, word).toBe(2);
      expect(r.stderr, word).toContain("gave no valid answer");
      expect(r.stderr, word).toContain("denied (fail closed)");
      expect(r.stdout, word).toBe("");
    }
  });

  it("waits for an answer given as a promise", () => {
    const base = project(true);
    const r = run(guard(), base, `${LEAF} async-ok`);
    expect(r).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF} async-ok`, stderr: "" });
  });

  it("fails closed for a leaf when the promise rejects, or a callback throws later", () => {
    const base = project(true);
    const rejected = run(guard(), base, `${LEAF} async-reject`);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain("failed: rejected");
    expect(rejected.stderr).toContain("denied (fail closed)");
    const late = run(guard(), base, `${LEAF} async-throw`);
    expect(late.code).toBe(2);
    expect(late.stderr).toContain("failed: late boom");
    expect(late.stderr).toContain("denied (fail closed)");
  });

  it("fails closed for a leaf when the answer does not come before its own deadline (hook timeout less 1 s)", () => {
    const base = project(true);
    const leaf = run(guard({ timeoutSec: 2 }), base, `${LEAF} hang`);
    expect(leaf.code).toBe(2);
    expect(leaf.stderr).toContain("gave no answer within 1 s");
    expect(leaf.stderr).toContain("denied (fail closed)");
    const root = run(guard({ timeoutSec: 2 }), base, `${ROOT} hang`);
    expect(root.code).toBe(1);
    expect(root.stderr).toContain("gave no answer within 1 s");
  });

  it("passes the stdin bytes through unchanged, also when they are not UTF-8", () => {
    const base = project(
      `module.exports = (b) => ({ exitCode: 0, stdout: Buffer.isBuffer(b) ? b.toString("hex") : "not bytes", stderr: "" });\n`,
    );
    const { CLAUDE_PROJECT_DIR: _drop, ...rest } = process.env;
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
    const r = spawnSync("/bin/sh", ["-c", guard()], { cwd: base, input: bytes, env: rest });
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe(bytes.toString("hex"));
  });

  it("plugin mode (walk off) runs only the given bundle, never a project copy, and fails closed without it", () => {
    const base = project(true);
    const v = (name: string) => `"$${"{"}${name}}`;
    const cmd = guard({ candidates: [`${v("PLUGIN_DIR")}/hooks/pre-tool-use.cjs"`], walk: false });
    const r = run(cmd, base, LEAF, { PLUGIN_DIR: join(base, "no-plugin-here") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `bundle ${join(base, "no-plugin-here", "hooks", "pre-tool-use.cjs")} not found`,
    );
    expect(r.stdout).toBe("");
  });

  it("tries explicit candidates first and skips ones the shell expanded to nothing", () => {
    const base = project(false);
    mkdirSync(join(base, "plugin", "hooks"), { recursive: true });
    writeFileSync(join(base, "plugin", "hooks", "pre-tool-use.cjs"), ECHO_BUNDLE);
    const v = (name: string) => `"$${"{"}${name}}`;
    const cmd = guard({
      candidates: [`${v("NOT_SET_ANYWHERE")}"`, `${v("PLUGIN_DIR")}/hooks/pre-tool-use.cjs"`],
    });
    const r = run(cmd, base, LEAF, { PLUGIN_DIR: join(base, "plugin") });
    expect(r).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF}` });
  });
});

describe("the launcher compiles a bundle's code, not its lazy parts", () => {
  it("compiles only the text before the lazy-parts line (what follows is never code to it)", () => {
    const code = `module.exports = () => ({ exitCode: 0, stdout: "code only", stderr: "" });\n`;
    const t = makeTree({
      ".devrites/hooks/pre-tool-use.cjs": `${code}${LAZY_PARTS_LINE}\nthis is not ) JavaScript\n`,
    });
    try {
      expect(run(guard(), t.base, LEAF)).toMatchObject({ code: 0, stdout: "code only" });
      // near miss: without the line the same text is compiled whole, fails, and a leaf is denied
      writeFileSync(join(t.base, ".devrites/hooks/pre-tool-use.cjs"), `${code}this is not ) JavaScript\n`);
      expect(run(guard(), t.base, LEAF)).toMatchObject({ code: 2 });
    } finally {
      t.cleanup();
    }
  });
});

describe("the compile cache (src/hosts/compile-cache/bootstrap.ts), run by the launcher", () => {
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
