import { chmodSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeScratch, posixTmpdir, scratchParent } from "./scratch.js";

const uid = process.getuid?.() ?? 0;
let bases: string[] = [];
afterEach(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
  bases = [];
});
function base(): string {
  const b = realpathSync(mkdtempSync(join(tmpdir(), "devrites-scratch-test-")));
  bases.push(b);
  return b;
}

describe("makeScratch", () => {
  it("makes a fresh 0700 folder per call under a 0700 parent owned by this user", () => {
    const b = base();
    const one = makeScratch(b, uid);
    const two = makeScratch(b, uid);
    expect(one).toBeDefined();
    expect(two).not.toBe(one);
    expect(dirname(one as string)).toBe(scratchParent(b, uid));
    expect(lstatSync(one as string).mode & 0o777).toBe(0o700);
    expect(lstatSync(scratchParent(b, uid)).mode & 0o777).toBe(0o700);
  });

  it("near misses: a symlinked parent, one others may enter, or another user's gives no scratch", () => {
    const b = base();
    const elsewhere = base();
    symlinkSync(elsewhere, scratchParent(b, uid));
    expect(makeScratch(b, uid)).toBeUndefined();

    const c = base();
    mkdirSync(scratchParent(c, uid), { mode: 0o700 });
    chmodSync(scratchParent(c, uid), 0o755);
    expect(makeScratch(c, uid)).toBeUndefined();

    // a parent named for this uid but owned by someone else (as another uid would see ours)
    const e = base();
    mkdirSync(scratchParent(e, uid + 1), { mode: 0o700 });
    expect(makeScratch(e, uid + 1)).toBeUndefined();
    expect(makeScratch(join(e, "missing"), uid)).toBeUndefined();
  });

  it("one folder per agent id: every call of the same leaf reuses it; another agent gets its own", () => {
    const b = base();
    const one = makeScratch(b, uid, "agent-1");
    expect(one).toBe(join(scratchParent(b, uid), "a-agent-1"));
    expect(makeScratch(b, uid, "agent-1")).toBe(one);
    expect(makeScratch(b, uid, "agent-2")).not.toBe(one);
    expect(lstatSync(one as string).mode & 0o777).toBe(0o700);
  });

  it("near misses: an agent id that is no plain name gets a fresh folder; a planted link or open folder none", () => {
    const b = base();
    for (const bad of ["../x", "a/b", "", ".hidden", "x".repeat(200)]) {
      const d = makeScratch(b, uid, bad);
      expect(d, bad).toBeDefined();
      expect(dirname(d as string)).toBe(scratchParent(b, uid));
      expect((d as string).split("/").at(-1)).toMatch(/^c-/);
    }
    symlinkSync(base(), join(scratchParent(b, uid), "a-planted"));
    expect(makeScratch(b, uid, "planted")).toBeUndefined();
    mkdirSync(join(scratchParent(b, uid), "a-open"), { mode: 0o755 });
    chmodSync(join(scratchParent(b, uid), "a-open"), 0o755);
    expect(makeScratch(b, uid, "open")).toBeUndefined();
  });
});

describe("posixTmpdir", () => {
  it("is os.tmpdir() for the variables Node reads, in its order, without a trailing slash", () => {
    const keep = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
    try {
      for (const env of [
        {},
        { TMPDIR: "/x/y/" },
        { TMPDIR: "/x" },
        { TMP: "/t" },
        { TEMP: "/e/", TMP: "" },
        { TMPDIR: "", TMP: "/t2", TEMP: "/e" },
        { TMPDIR: "/" },
      ] as Record<string, string>[]) {
        for (const k of ["TMPDIR", "TMP", "TEMP"]) {
          if (env[k] === undefined) delete process.env[k];
          else process.env[k] = env[k];
        }
        expect(posixTmpdir(env)).toBe(tmpdir());
      }
    } finally {
      for (const [k, v] of Object.entries(keep)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
