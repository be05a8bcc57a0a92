import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AttackRepo } from "../../tests/tree-attacks/harness.js";
import { forgeIndexStat } from "../../tests/tree-attacks/tamper.js";
import { forgedCleanPaths, parseIndexDebug } from "./_index-verify.js";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

const g = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args], { cwd: root });

function repo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "devrites-idxv-")));
  temps.push(root);
  g(root, "init", "-q");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/b.ts"), "export const b = 1;\n");
  writeFileSync(join(root, "a b.txt"), "x\n");
  g(root, "add", ".");
  g(root, "commit", "-qm", "init");
  return root;
}

const nowS = () => Math.floor(Date.now() / 1000);

describe("parseIndexDebug", () => {
  it("reads mode, blob, stage, path and the cached times of every entry", () => {
    const root = repo();
    const entries = parseIndexDebug(g(root, "ls-files", "-s", "--debug", "-z"));
    expect(entries.map((e) => e.raw.toString())).toEqual(["a b.txt", "src/b.ts"]);
    for (const e of entries) {
      expect(e.mode).toBe("100644");
      expect(e.blob).toMatch(/^[0-9a-f]{40}$/);
      expect(e.stage).toBe("0");
      expect(e.ctimeS).toBeGreaterThan(nowS() - 600);
    }
  });
  it("refuses truncated output", () => {
    expect(() => parseIndexDebug(Buffer.from("100644 abc 0\tx\0  ctime: 1:2\n"))).toThrow(/truncated/);
  });
  const record = (ctime: string, mtime: string) =>
    Buffer.from(
      `100644 abc 0\tx\0  ${ctime}\n  ${mtime}\n  dev: 1\tino: 2\n  uid: 0\tgid: 0\n  size: 3\tflags: 0\n`,
    );
  it("reads the seconds of the ctime and mtime lines from the bytes", () => {
    expect(parseIndexDebug(record("ctime: 1796180000:12", "mtime: 17:0"))).toMatchObject([
      { mode: "100644", blob: "abc", stage: "0", ctimeS: 1796180000, mtimeS: 17 },
    ]);
  });
  it.each([
    ["the lines swapped", "mtime: 1:2", "ctime: 1:2"],
    ["no digits", "ctime: :2", "mtime: 1:2"],
    ["no nanoseconds separator", "ctime: 12", "mtime: 1:2"],
    ["a sign", "ctime: -1:2", "mtime: 1:2"],
    ["more digits than a number keeps exactly", "ctime: 1234567890123456:0", "mtime: 1:2"],
    ["no space after the colon", "ctime:1:2", "mtime: 1:2"],
  ])("refuses a debug record with %s", (_why, ctime, mtime) => {
    expect(() => parseIndexDebug(record(ctime, mtime))).toThrow(/unexpected git ls-files --debug record/);
  });
});

describe("forgedCleanPaths", () => {
  it("finds a rewritten file whose index entry was given its new stat data (blob id kept)", async () => {
    const root = repo();
    const since = nowS();
    writeFileSync(join(root, "src/b.ts"), "export const b = 3;\n");
    forgeIndexStat(
      { abs: (p: string) => join(root, p), gitDir: () => join(root, ".git") } as AttackRepo,
      "src/b.ts",
    );
    expect(g(root, "-c", "core.fsmonitor=false", "status", "--porcelain").toString()).toBe(""); // git is fooled
    const found = await forgedCleanPaths(root, since, new Set());
    expect(found.map((b) => b.toString())).toEqual(["src/b.ts"]);
    // A path already a candidate is not hashed again.
    expect(await forgedCleanPaths(root, since, new Set([Buffer.from("src/b.ts").toString("hex")]))).toEqual(
      [],
    );
  });

  it("near miss: a file touched after `since` with its content unchanged is not reported", async () => {
    const root = repo();
    const since = nowS();
    writeFileSync(join(root, "src/b.ts"), "export const b = 1;\n");
    g(root, "update-index", "--refresh");
    expect(await forgedCleanPaths(root, since, new Set())).toEqual([]);
  });

  it("near miss: entries stamped before `since` are not hashed at all", async () => {
    const root = repo();
    writeFileSync(join(root, "src/b.ts"), "changed\n");
    expect(await forgedCleanPaths(root, nowS() + 3600, new Set())).toEqual([]);
  });
});
