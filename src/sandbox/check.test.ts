import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCTOR_LINE, withSandboxCheck } from "../cli/commands/init.js";
import { checkSandbox } from "./check.js";

describe("checkSandbox (devrites init)", () => {
  it("starts a real sandbox: ok only when bubblewrap ran /bin/true", () => {
    const seen: string[][] = [];
    const ok = checkSandbox(process.env, (argv) => {
      seen.push(argv);
      return { status: 0, stderr: "" };
    });
    if (!ok.ok) return; // no bwrap on this machine: covered by the negative cases below
    expect(seen[0]).toContain("--unshare-all");
    expect(seen[0]?.at(-1)).toBe("/bin/true");
    const failed = checkSandbox(process.env, () => ({
      status: 1,
      stderr: "bwrap: Creating new namespace failed: Operation not permitted\n",
    }));
    expect(failed).toMatchObject({
      ok: false,
      why: expect.stringContaining("Creating new namespace failed"),
      hint: expect.stringContaining("apt-get install bubblewrap"),
    });
  });

  it("starts what the planner starts: the helper's --plain, then --cow on the repository (or unshare without it)", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "devrites-check-")));
    try {
      const seen: string[][] = [];
      const record = (argv: string[]) => {
        seen.push(argv);
        return { status: 0, stderr: "" };
      };
      const withHelper = checkSandbox(process.env, record, { root, helper: "/pkg/devrites-landlock" });
      if (!withHelper.ok) return; // no bwrap here: covered by the negative cases
      expect(withHelper.copyOnWrite).toBe(true);
      expect(seen[0]?.slice(0, 2)).toEqual(["/pkg/devrites-landlock", "--plain"]);
      expect(seen[0]?.at(-1)).toBe("/bin/true");
      if (process.getuid?.() === 0) {
        expect(seen[1]?.slice(0, 5)).toEqual([
          "/pkg/devrites-landlock",
          "--cow",
          root,
          "--cow-at",
          "/dev/shm",
        ]);
        expect(seen[1]).toContain("--cap-drop");
        expect(seen[1]?.join(" ")).toContain(`--bind ${root} ${root} -- /bin/true`);
      }
      seen.length = 0;
      checkSandbox(process.env, record, { root, helper: null });
      expect(seen[0]?.[0]).toMatch(/bwrap$/);
      if (seen[1] !== undefined)
        expect(seen[1].slice(1, 4)).toEqual(["--user", "--map-root-user", "--mount"]);
      // near miss: a repository path overlayfs cannot take is not tried, and is no copy-on-write
      seen.length = 0;
      const odd = checkSandbox(process.env, record, { root: "/tmp/a:b", helper: "/pkg/devrites-landlock" });
      expect(odd).toMatchObject({ ok: true, copyOnWrite: false });
      expect(seen).toHaveLength(1);
      // and a copy-on-write start that fails is reported as none
      let n = 0;
      const second = () => ({ status: n++ === 0 ? 0 : 125, stderr: "devrites-landlock: unshare: EPERM" });
      expect(checkSandbox(process.env, second, { root, helper: "/pkg/devrites-landlock" })).toMatchObject({
        ok: true,
        copyOnWrite: false,
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("without bubblewrap on PATH or in the fixed folders, says how to get one", () => {
    const none = checkSandbox({ PATH: "/nonexistent" }, () => ({ status: 0, stderr: "" }));
    // The fixed folders are still searched: only assert the negative where bwrap is truly absent.
    if (!none.ok) expect(none.hint).toContain("apt-get install bubblewrap");
  });

  it("really starts here when bubblewrap is installed (CI installs it)", () => {
    const real = checkSandbox();
    if (real.ok) {
      expect(real.mechanism).toBe("bwrap");
      // as root with user namespaces (this machine, CI) the copy-on-write view starts for real too
      if (process.getuid?.() === 0) expect(real.copyOnWrite).toBe(true);
    } else expect(real.why).toMatch(/bubblewrap|namespace|platform|bash/);
  });
});

describe("withSandboxCheck", () => {
  const base = {
    exitCode: 0 as const,
    diagnostics: [],
    text: "devrites init: 3 created",
    data: { steps: [] },
  };

  it("adds a line and data.sandbox when a sandbox works", () => {
    const r = withSandboxCheck(base, {
      ok: true,
      mechanism: "bwrap",
      bwrap: "/usr/bin/bwrap",
      copyOnWrite: true,
    });
    expect(r.text).toBe(
      `devrites init: 3 created\nsandbox: bubblewrap works here (/usr/bin/bwrap); leaf shell calls run sandboxed\n${DOCTOR_LINE}`,
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.data).toMatchObject({ steps: [], sandbox: { ok: true } });
    expect(r.exitCode).toBe(0);
  });

  it("says so, with the fix, when none can start; the exit code is unchanged", () => {
    const r = withSandboxCheck(base, {
      ok: false,
      why: "bubblewrap (`bwrap`) is not installed",
      hint: "apt-get install bubblewrap",
    });
    expect(r.text).toContain("sandbox: none here: bubblewrap (`bwrap`) is not installed");
    expect(r.text).toContain("apt-get install bubblewrap");
    expect(r.text?.endsWith(`\n${DOCTOR_LINE}`)).toBe(true);
    expect(r.data).toMatchObject({ sandbox: { ok: false } });
    expect(r.exitCode).toBe(0);
  });
});
