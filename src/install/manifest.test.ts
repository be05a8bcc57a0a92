import { describe, expect, it } from "vitest";
import {
  INSTALL_SCHEMA,
  type InstallManifest,
  installManifestText,
  isPlainRelPath,
  parseInstallManifest,
} from "./manifest.js";

const SHA = "a".repeat(64);

function manifest(over: Partial<InstallManifest> = {}): InstallManifest {
  return {
    schema: INSTALL_SCHEMA,
    version: "1.2.3",
    hosts: ["claude"],
    files: [
      { path: ".claude/agents/x.md", kind: "owned", sha256: SHA },
      {
        path: ".claude/settings.json",
        kind: "merged-json",
        sha256: SHA,
        original: { exists: true, base64: Buffer.from("{}\n").toString("base64"), mode: 0o600, exact: true },
      },
      { path: "AGENTS.md", kind: "marked-block", sha256: SHA, original: { exists: false } },
      {
        path: ".git/hooks/pre-commit",
        kind: "git-hook",
        sha256: SHA,
        chained: ".git/hooks/pre-commit.pre-devrites",
      },
    ],
    dirs: [".claude", ".claude/agents"],
    installed_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

function corrupt(value: unknown): string {
  const r = parseInstallManifest(typeof value === "string" ? value : JSON.stringify(value));
  if (r.ok) throw new Error("expected a corrupt manifest");
  expect(r.diagnostic.code).toBe("install.manifest-corrupt");
  expect(r.diagnostic.path).toBe(".devrites/install.json");
  expect(r.diagnostic.hint).toContain("git checkout");
  return r.diagnostic.message;
}

describe("the install manifest", () => {
  it("round-trips through its text", () => {
    const text = installManifestText(manifest());
    const r = parseInstallManifest(text);
    expect(r.ok && installManifestText(r.manifest)).toBe(text);
  });

  it("keeps roles when there are some and leaves the field out when there are none", () => {
    const withRoles = parseInstallManifest(installManifestText(manifest({ hosts: [], roles: ["codex"] })));
    expect(withRoles.ok && withRoles.manifest.roles).toEqual(["codex"]);
    expect(installManifestText(manifest({ roles: [] }))).not.toContain("roles");
    expect(installManifestText(manifest())).toBe(installManifestText(manifest({ roles: [] })));
  });

  it("is written sorted and stable", () => {
    const m = manifest();
    const shuffled = { ...m, files: [...m.files].reverse(), dirs: [...m.dirs].reverse() };
    expect(installManifestText(shuffled)).toBe(installManifestText(m));
  });

  it("rejects each kind of damage with its own reason", () => {
    expect(corrupt("{not json")).toContain("not valid JSON");
    expect(corrupt([])).toContain("not a JSON object");
    expect(corrupt({ ...manifest(), schema: "other/v1" })).toContain("schema");
    expect(corrupt({ ...manifest(), extra: 1 })).toContain("unknown field `extra`");
    const { dirs: _, ...noDirs } = manifest();
    expect(corrupt(noDirs)).toContain("missing field `dirs`");
    expect(corrupt(manifest({ hosts: ["claude", "claude"] }))).toContain("hosts");
    expect(corrupt(manifest({ hosts: ["vim" as never] }))).toContain("hosts");
    expect(corrupt(manifest({ roles: ["codex", "codex"] }))).toContain("roles");
    expect(corrupt(manifest({ roles: ["vim" as never] }))).toContain("roles");
    expect(corrupt({ ...manifest(), roles: "codex" })).toContain("roles");
    expect(corrupt(manifest({ files: [{ path: "../x", kind: "owned", sha256: SHA }] }))).toContain(
      "plain relative path",
    );
    expect(corrupt(manifest({ files: [{ path: "/etc/passwd", kind: "owned", sha256: SHA }] }))).toContain(
      "plain relative path",
    );
    expect(corrupt(manifest({ files: [{ path: ".git/config", kind: "owned", sha256: SHA }] }))).toContain(
      ".git",
    );
    expect(corrupt(manifest({ files: [{ path: "a", kind: "sideways" as never, sha256: SHA }] }))).toContain(
      "unknown kind",
    );
    expect(corrupt(manifest({ files: [{ path: "a", kind: "owned", sha256: "ABC" }] }))).toContain("sha256");
    expect(corrupt(manifest({ files: [{ path: "a", kind: "owned", sha256: SHA, chained: "b" }] }))).toContain(
      "chained",
    );
    expect(
      corrupt(
        manifest({
          files: [
            { path: "a", kind: "owned", sha256: SHA },
            { path: "a", kind: "owned", sha256: SHA },
          ],
        }),
      ),
    ).toContain("listed twice");
    expect(
      corrupt(
        manifest({
          files: [{ path: "a", kind: "merged-json", sha256: SHA, original: { exists: true } as never }],
        }),
      ),
    ).toContain("original");
    expect(
      corrupt(
        manifest({
          files: [
            {
              path: "a",
              kind: "merged-json",
              sha256: SHA,
              original: { exists: true, base64: "!!", mode: 420, exact: true },
            },
          ],
        }),
      ),
    ).toContain("base64");
    expect(corrupt(manifest({ dirs: ["a/../b"] }))).toContain("dirs");
  });

  it("plain relative paths: the near misses", () => {
    expect(isPlainRelPath("a/b.md")).toBe(true);
    expect(isPlainRelPath(".devrites/state.json")).toBe(true);
    for (const bad of [
      "",
      "/a",
      "a//b",
      "a/./b",
      "a/../b",
      "..",
      ".../a",
      "a/. /b",
      "a\\b",
      "a\u0000b",
      "a/\nb",
      3,
    ])
      expect(isPlainRelPath(bad), String(bad)).toBe(false);
  });
});
