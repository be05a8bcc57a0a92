import { describe, expect, it } from "vitest";
import { withSandboxCheck } from "../cli/commands/init.js";
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

  it("without bubblewrap on PATH or in the fixed folders, says how to get one", () => {
    const none = checkSandbox({ PATH: "/nonexistent" }, () => ({ status: 0, stderr: "" }));
    // The fixed folders are still searched: only assert the negative where bwrap is truly absent.
    if (!none.ok) expect(none.hint).toContain("apt-get install bubblewrap");
  });

  it("really starts here when bubblewrap is installed (CI installs it)", () => {
    const real = checkSandbox();
    if (real.ok) expect(real.mechanism).toBe("bwrap");
    else expect(real.why).toMatch(/bubblewrap|namespace|platform|bash/);
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
      "devrites init: 3 created\nsandbox: bubblewrap works here (/usr/bin/bwrap); leaf shell calls run sandboxed",
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
    expect(r.data).toMatchObject({ sandbox: { ok: false } });
    expect(r.exitCode).toBe(0);
  });
});
