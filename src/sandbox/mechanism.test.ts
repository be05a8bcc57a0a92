import { describe, expect, it } from "vitest";
import { bwrapTools, chooseMechanism, type DetectFs, detectMechanisms, usernsAllowed } from "./mechanism.js";

function fakeFs(files: Record<string, string | true>): DetectFs {
  return {
    isExecutable: (p) => files[p] === true,
    readText: (p) => (typeof files[p] === "string" ? (files[p] as string) : undefined),
    exists: (p) => p in files,
  };
}

describe("chooseMechanism", () => {
  const base = {
    platform: "linux",
    bwrap: "/usr/bin/bwrap",
    bash: "/bin/bash",
    userns: { ok: true } as const,
  };

  it("picks bubblewrap on Linux when bwrap, bash and user namespaces are there", () => {
    expect(chooseMechanism({ ...base, unshare: "/usr/bin/unshare" })).toEqual({
      kind: "bwrap",
      bwrap: "/usr/bin/bwrap",
      bash: "/bin/bash",
      unshare: "/usr/bin/unshare",
    });
    expect(chooseMechanism(base)).toEqual({ kind: "bwrap", bwrap: "/usr/bin/bwrap", bash: "/bin/bash" });
  });

  it("falls back to none, with the reason and the fix, when anything is missing", () => {
    expect(chooseMechanism({ ...base, bwrap: undefined })).toMatchObject({
      kind: "none",
      why: expect.stringContaining("apt-get install bubblewrap"),
    });
    expect(chooseMechanism({ ...base, bash: undefined })).toMatchObject({ kind: "none" });
    expect(chooseMechanism({ ...base, userns: { ok: false, why: "off" } })).toEqual({
      kind: "none",
      why: "off",
    });
    expect(chooseMechanism({ ...base, platform: "darwin" })).toMatchObject({
      kind: "none",
      why: expect.stringContaining("darwin"),
    });
  });

  it("keeps bubblewrap first and carries the Landlock helper along as its fallback", () => {
    expect(chooseMechanism({ ...base, landlock: "/x/landlock", landlockOk: true })).toEqual({
      kind: "bwrap",
      bwrap: "/usr/bin/bwrap",
      bash: "/bin/bash",
      landlock: "/x/landlock",
    });
    // the fallback needs no support answer: the helper refuses (exit 125) where Landlock does not apply
    expect(chooseMechanism({ ...base, landlock: "/x/landlock" })).toMatchObject({
      kind: "bwrap",
      landlock: "/x/landlock",
    });
  });

  it("lets the helper make the copy-on-write view only where a program without a profile may mount", () => {
    const m = chooseMechanism({ ...base, landlock: "/x/landlock", profilelessMounts: true });
    expect(m).toMatchObject({ kind: "bwrap", landlock: "/x/landlock", helperCow: true });
    expect(m.kind === "bwrap" && bwrapTools(m)).toEqual({
      bwrap: "/usr/bin/bwrap",
      bash: "/bin/bash",
      helper: "/x/landlock",
      helperCow: true,
    });
    // near misses: under the AppArmor restriction (false) or unknown, and without a helper
    const no = chooseMechanism({ ...base, landlock: "/x/landlock", profilelessMounts: false });
    expect(no).not.toHaveProperty("helperCow");
    expect(no.kind === "bwrap" && bwrapTools(no)).toEqual({
      bwrap: "/usr/bin/bwrap",
      bash: "/bin/bash",
      helper: "/x/landlock",
    });
    expect(chooseMechanism({ ...base, landlock: "/x/landlock" })).not.toHaveProperty("helperCow");
    expect(chooseMechanism({ ...base, profilelessMounts: true })).not.toHaveProperty("helperCow");
  });

  it("picks Landlock alone when bubblewrap is absent or cannot use user namespaces", () => {
    const ll = { landlock: "/x/landlock", landlockOk: true };
    expect(chooseMechanism({ ...base, ...ll, bwrap: undefined })).toEqual({
      kind: "landlock",
      landlock: "/x/landlock",
      bash: "/bin/bash",
    });
    expect(chooseMechanism({ ...base, ...ll, userns: { ok: false, why: "off" } })).toMatchObject({
      kind: "landlock",
    });
  });

  it("near misses: no helper, a kernel without Landlock, no bash, or not Linux is `none`", () => {
    expect(chooseMechanism({ ...base, bwrap: undefined, landlock: "/x/landlock" })).toMatchObject({
      kind: "none",
      why: expect.stringContaining("apt-get install bubblewrap"),
    });
    expect(
      chooseMechanism({ ...base, bwrap: undefined, landlock: "/x/landlock", landlockOk: false }),
    ).toMatchObject({ kind: "none" });
    expect(
      chooseMechanism({ ...base, userns: { ok: false, why: "off" }, landlock: "/x", landlockOk: false }),
    ).toEqual({ kind: "none", why: "off" });
    expect(chooseMechanism({ ...base, bwrap: undefined, landlockOk: true })).toMatchObject({ kind: "none" });
    expect(
      chooseMechanism({ ...base, bash: undefined, bwrap: undefined, landlock: "/x", landlockOk: true }),
    ).toMatchObject({ kind: "none" });
    expect(chooseMechanism({ ...base, platform: "darwin", landlock: "/x", landlockOk: true })).toMatchObject({
      kind: "none",
    });
  });
});

describe("detectMechanisms", () => {
  it("finds programs in the fixed folders, then in absolute PATH entries only", () => {
    const fs = fakeFs({ "/opt/b/bwrap": true, "/bin/bash": true, "rel/unshare": true });
    const f = detectMechanisms(fs, { PATH: "rel:/opt/b" }, "linux", 1000);
    expect(f.bwrap).toBe("/opt/b/bwrap");
    expect(f.unshare).toBeUndefined();
    expect(f.bash).toBe("/bin/bash");
    expect(detectMechanisms(fakeFs({ "/usr/bin/bwrap": true }), {}, "linux", 0).bwrap).toBe("/usr/bin/bwrap");
  });

  it("drops unshare under Ubuntu's AppArmor restriction unless it has a profile (the proof runner goes read-only)", () => {
    const knob = {
      "/usr/bin/bwrap": true as const,
      "/usr/bin/unshare": true as const,
      "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1\n",
      "/etc/apparmor.d/bwrap": "p",
    };
    expect(detectMechanisms(fakeFs(knob), {}, "linux", 1000).unshare).toBeUndefined();
    expect(
      detectMechanisms(fakeFs({ ...knob, "/etc/apparmor.d/unshare": "p" }), {}, "linux", 1000).unshare,
    ).toBe("/usr/bin/unshare");
    expect(detectMechanisms(fakeFs(knob), {}, "linux", 0).unshare).toBe("/usr/bin/unshare");
    // the helper has no profile of its own: it may mount only for root, or without the restriction
    expect(detectMechanisms(fakeFs(knob), {}, "linux", 1000).profilelessMounts).toBe(false);
    expect(detectMechanisms(fakeFs(knob), {}, "linux", 0).profilelessMounts).toBe(true);
    const off = { ...knob, "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "0\n" };
    expect(detectMechanisms(fakeFs(off), {}, "linux", 1000).profilelessMounts).toBe(true);
  });

  it("finds nothing off Linux", () => {
    expect(detectMechanisms(fakeFs({ "/usr/bin/bwrap": true }), {}, "darwin", 0).bwrap).toBeUndefined();
  });
});

describe("usernsAllowed", () => {
  it("allows by default and for root", () => {
    expect(usernsAllowed(fakeFs({}), 1000)).toEqual({ ok: true });
    expect(usernsAllowed(fakeFs({ "/proc/sys/kernel/unprivileged_userns_clone": "0\n" }), 0)).toEqual({
      ok: true,
    });
  });

  it("refuses when the kernel's knobs say no", () => {
    expect(usernsAllowed(fakeFs({ "/proc/sys/user/max_user_namespaces": "0\n" }), 0).ok).toBe(false);
    expect(usernsAllowed(fakeFs({ "/proc/sys/kernel/unprivileged_userns_clone": "0\n" }), 1000).ok).toBe(
      false,
    );
    expect(usernsAllowed(fakeFs({ "/proc/sys/user/max_user_namespaces": "15000\n" }), 1000).ok).toBe(true);
  });

  it("refuses under Ubuntu's AppArmor restriction unless a bwrap profile is installed", () => {
    const knob = { "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1\n" };
    expect(usernsAllowed(fakeFs(knob), 1000)).toMatchObject({
      ok: false,
      why: expect.stringContaining("AppArmor"),
    });
    expect(usernsAllowed(fakeFs({ ...knob, "/etc/apparmor.d/bwrap-userns-restrict": "x" }), 1000).ok).toBe(
      true,
    );
    expect(
      usernsAllowed(fakeFs({ "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "0\n" }), 1000).ok,
    ).toBe(true);
  });
});
