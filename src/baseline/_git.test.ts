import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, gitOk } from "./_git.js";

const dir = mkdtempSync(join(tmpdir(), "devrites-git-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("git", () => {
  it("returns stdout as bytes, exact to the last newline, and exit 0", async () => {
    await gitOk(dir, ["init", "-q"]);
    writeFileSync(join(dir, "a b.txt"), "x\n");
    const r = await git(dir, ["ls-files", "-z", "--others"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.equals(Buffer.from("a b.txt\0"))).toBe(true);
    expect(r.spawnError).toBeUndefined();
  });
  it("returns git's own exit code and message when git fails", async () => {
    const r = await git(dir, ["rev-parse", "--verify", "-q", "no-such-ref"]);
    expect(r.exitCode).toBe(1);
    const bad = await git(dir, ["no-such-command"]);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toMatch(/no-such-command/);
  });
  it("says git did not start when the folder is missing, without throwing", async () => {
    const r = await git(join(dir, "missing"), ["status"]);
    expect(r.exitCode).toBeNull();
    expect(r.spawnError).toBe("ENOENT");
    await expect(gitOk(join(dir, "missing"), ["status"])).rejects.toThrow(/ENOENT|failed/);
  });
  it("collects output larger than one pipe read whole", async () => {
    const big = "y".repeat(300_000);
    writeFileSync(join(dir, "big.txt"), big);
    const shown = await git(dir, ["diff", "--no-index", "--no-color", "/dev/null", "big.txt"]);
    expect(shown.exitCode).toBe(1); // --no-index: 1 means the files differ
    expect(shown.stdout.length).toBeGreaterThan(300_000);
    expect(shown.stdout.includes(Buffer.from(big))).toBe(true);
  });
});
