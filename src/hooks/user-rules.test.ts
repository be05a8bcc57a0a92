/**
 * Which Claude Code settings files hold the user's own rules, how each is read, and what a leaf's shell call
 * gets: deny naming the rule and its file, ask, nothing, or a fail-closed deny for a file that cannot be read.
 */

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkUserRules, loadUserRules, rulesFromText, settingsFiles } from "./user-rules.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "devrites-user-rules-"));
  dirs.push(d);
  return d;
}
function settings(dir: string, name: string, value: unknown): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
  return p;
}

describe("settingsFiles", () => {
  it("lists managed, user ($CLAUDE_CONFIG_DIR, else ~/.claude) and both project files", () => {
    const paths = (env: Record<string, string>) => settingsFiles("/r", env, "linux").map((f) => f.path);
    expect(paths({ HOME: "/h" })).toEqual([
      "/etc/claude-code/managed-settings.json",
      "/h/.claude/settings.json",
      "/r/.claude/settings.json",
      "/r/.claude/settings.local.json",
    ]);
    expect(paths({ HOME: "/h", CLAUDE_CONFIG_DIR: "/cfg" })).toContain("/cfg/settings.json");
    expect(paths({ HOME: "/h", CLAUDE_CONFIG_DIR: "/cfg" })).not.toContain("/h/.claude/settings.json");
    expect(paths({ HOME: "/h", CLAUDE_PROJECT_DIR: "/other" })).toContain(
      "/other/.claude/settings.local.json",
    );
    expect(settingsFiles("/r", {}, "darwin")[0]?.path).toBe(
      "/Library/Application Support/ClaudeCode/managed-settings.json",
    );
  });
});

describe("rulesFromText", () => {
  it("keeps deny and ask rules with their file; ignores allow", () => {
    const r = rulesFromText(
      "/f",
      JSON.stringify({ permissions: { allow: ["Bash"], deny: ["Bash(a:*)"], ask: ["Bash(b)"] } }),
    );
    expect(r).toEqual({
      ok: true,
      managedOnly: false,
      rules: [
        { text: "Bash(a:*)", behavior: "deny", source: "/f" },
        { text: "Bash(b)", behavior: "ask", source: "/f" },
      ],
    });
    expect(rulesFromText("/f", "{}")).toEqual({ ok: true, rules: [], managedOnly: false });
  });

  it("refuses what is not JSON, not an object, or has rule lists of the wrong shape", () => {
    for (const [text, why] of [
      ["{", "not valid JSON"],
      ["[]", "not a JSON object"],
      ['{"permissions": []}', "`permissions` is not an object"],
      ['{"permissions": {"deny": "Bash(x)"}}', "`permissions.deny` is not a list of strings"],
      ['{"permissions": {"ask": [1]}}', "`permissions.ask` is not a list of strings"],
    ] as const) {
      const r = rulesFromText("/f", text);
      expect(r.ok, text).toBe(false);
      expect(!r.ok && r.why, text).toContain(why);
    }
  });
});

describe("loadUserRules", () => {
  it("a missing file has no rules; the rules of every present file are merged", () => {
    const d = temp();
    const a = settings(d, "a.json", { permissions: { deny: ["Bash(a:*)"] } });
    const b = settings(d, "b.json", { permissions: { ask: ["Bash(b:*)"] } });
    const r = loadUserRules([
      { path: join(d, "missing.json"), managed: true },
      { path: a, managed: false },
      { path: b, managed: false },
    ]);
    expect(r.ok && r.rules.map((x) => x.text)).toEqual(["Bash(a:*)", "Bash(b:*)"]);
  });

  it("allowManagedPermissionRulesOnly in a managed file drops the other files' rules", () => {
    const d = temp();
    const m = settings(d, "m.json", {
      allowManagedPermissionRulesOnly: true,
      permissions: { deny: ["Bash(m)"] },
    });
    const u = settings(d, "u.json", { permissions: { deny: ["Bash(u)"] } });
    const r = loadUserRules([
      { path: m, managed: true },
      { path: u, managed: false },
    ]);
    expect(r.ok && r.rules.map((x) => x.text)).toEqual(["Bash(m)"]);
    // the same key in a user file does not do that
    const u2 = settings(d, "u2.json", {
      allowManagedPermissionRulesOnly: true,
      permissions: { deny: ["Bash(u2)"] },
    });
    const r2 = loadUserRules([
      { path: m.replace("m.json", "none.json"), managed: true },
      { path: u2, managed: false },
      { path: u, managed: false },
    ]);
    expect(r2.ok && r2.rules.map((x) => x.text)).toEqual(["Bash(u2)", "Bash(u)"]);
  });

  it("a malformed, unreadable or oversized file is an error naming it", () => {
    const d = temp();
    const bad = settings(d, "bad.json", "{ not json");
    expect(loadUserRules([{ path: bad, managed: false }])).toMatchObject({ ok: false, file: bad });
    const dir = join(d, "dir.json");
    mkdirSync(dir);
    expect(loadUserRules([{ path: dir, managed: false }])).toMatchObject({
      ok: false,
      why: "it is not a regular file",
    });
    const big = settings(d, "big.json", `{"x":"${"a".repeat(1024 * 1024)}"}`);
    expect(loadUserRules([{ path: big, managed: false }])).toMatchObject({ ok: false, file: big });
    if (process.getuid?.() !== 0) {
      const locked = settings(d, "locked.json", "{}");
      chmodSync(locked, 0);
      expect(loadUserRules([{ path: locked, managed: false }])).toMatchObject({ ok: false, file: locked });
    }
  });
});

describe("checkUserRules", () => {
  it("deny names the rule, its file and what it matched; a non-matching command gets nothing", () => {
    const root = temp();
    const p = settings(join(root, ".claude"), "settings.json", {
      permissions: { deny: ["Bash(git push:*)"] },
    });
    const v = checkUserRules("git add . && git push origin", root, {}, "devrites-slice-wright");
    expect(v.kind).toBe("deny");
    if (v.kind !== "deny") return;
    expect(v.rule).toBe("guard.user-deny-rule");
    expect(v.reason).toContain("[guard.user-deny-rule] devrites-slice-wright");
    expect(v.reason).toContain('"Bash(git push:*)" (deny)');
    expect(v.reason).toContain(p);
    expect(v.reason).toContain("matches `git push origin`");
    expect(checkUserRules("git pull", root, {}, "w")).toEqual({ kind: "none" });
  });

  it("reads the user file from CLAUDE_CONFIG_DIR and settings.local.json of the project", () => {
    const root = temp();
    const cfg = temp();
    settings(cfg, "settings.json", { permissions: { deny: ["Bash(curl:*)"] } });
    settings(join(root, ".claude"), "settings.local.json", { permissions: { ask: ["Bash(npm publish)"] } });
    expect(checkUserRules("curl x", root, { CLAUDE_CONFIG_DIR: cfg }, "w").kind).toBe("deny");
    expect(checkUserRules("curl x", root, {}, "w").kind).toBe("none");
    const ask = checkUserRules("npm publish", root, {}, "w");
    expect(ask).toMatchObject({ kind: "deny", rule: "guard.user-ask-rule", input: "command" });
    expect(ask.kind === "deny" && ask.reason).toContain('"Bash(npm publish)" (ask)');
    expect(ask.kind === "deny" && ask.reason).toContain("the root can run it");
    expect(checkUserRules("npm publish --dry-run", root, {}, "w")).toEqual({ kind: "none" });
  });

  it("an unreadable settings file denies every leaf shell call, naming the file and the fix", () => {
    const root = temp();
    const p = settings(join(root, ".claude"), "settings.json", '{"permissions": {"deny": ["Bash(x)"]');
    const v = checkUserRules("ls", root, {}, "w");
    expect(v).toMatchObject({ kind: "deny", rule: "guard.user-rules-unreadable", input: p });
    expect(v.kind === "deny" && v.reason).toContain("not valid JSON");
    expect(v.kind === "deny" && v.reason).toContain("Fix or remove the file");
  });
});
