import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { hookCommand, launcherScript } from "./launcher.js";
import { DEVRITES_HOOK_MARKER } from "./merge.js";

/** A stand-in bundle: echoes its stdin to stdout with a tag, exits 2 on "deny", crashes on "crash". */
const ECHO_BUNDLE = `
let s = "";
process.stdin.on("data", (d) => (s += d));
process.stdin.on("end", () => {
  if (s.includes("crash")) throw new Error("boom");
  if (s.includes("hang")) setTimeout(() => {}, 60_000);
  else {
    process.stdout.write("bundle saw " + s);
    if (s.includes("deny")) { process.stderr.write("denied by bundle"); process.exitCode = 2; }
  }
});
`;

const LEAF = JSON.stringify({
  hook_event_name: "PreToolUse",
  agent_type: "devrites-slice-wright",
  tool_name: "Bash",
});
const ROOT = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" });

function run(command: string, cwd: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const { CLAUDE_PROJECT_DIR: _drop, ...rest } = process.env;
  const r = spawnSync("/bin/sh", ["-c", command], { cwd, input, encoding: "utf8", env: { ...rest, ...env } });
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

  function project(withBundle: boolean) {
    const t = makeTree({
      "src/deep/er/": "",
      ...(withBundle ? { ".devrites/hooks/pre-tool-use.mjs": ECHO_BUNDLE } : {}),
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
    expect(r.stderr).toContain("denied by bundle");
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

  it("fails closed for a leaf when the bundle crashes", () => {
    const base = project(true);
    const r = run(guard(), base, `${LEAF} crash`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("failed: exit 1");
    expect(r.stderr).toContain("denied (fail closed)");
  });

  it("fails closed for a leaf when the bundle outlives the hook timeout", () => {
    const base = project(true);
    const r = run(guard({ timeoutSec: 2 }), base, `${LEAF} hang`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("denied (fail closed)");
  });

  it("plugin mode (walk off) runs only the given bundle, never a project copy, and fails closed without it", () => {
    const base = project(true);
    const v = (name: string) => `"$${"{"}${name}}`;
    const cmd = guard({ candidates: [`${v("PLUGIN_DIR")}/hooks/pre-tool-use.mjs"`], walk: false });
    const r = run(cmd, base, LEAF, { PLUGIN_DIR: join(base, "no-plugin-here") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `bundle ${join(base, "no-plugin-here", "hooks", "pre-tool-use.mjs")} not found`,
    );
    expect(r.stdout).toBe("");
  });

  it("tries explicit candidates first and skips ones the shell expanded to nothing", () => {
    const base = project(false);
    mkdirSync(join(base, "plugin", "hooks"), { recursive: true });
    writeFileSync(join(base, "plugin", "hooks", "pre-tool-use.mjs"), ECHO_BUNDLE);
    const v = (name: string) => `"$${"{"}${name}}`;
    const cmd = guard({
      candidates: [`${v("NOT_SET_ANYWHERE")}"`, `${v("PLUGIN_DIR")}/hooks/pre-tool-use.mjs"`],
    });
    const r = run(cmd, base, LEAF, { PLUGIN_DIR: join(base, "plugin") });
    expect(r).toMatchObject({ code: 0, stdout: `bundle saw ${LEAF}` });
  });
});
