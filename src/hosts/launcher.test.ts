import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { ECHO_BUNDLE, guardCommand as guard, LEAF_CALL as LEAF, runHookCommand } from "./fixtures.js";
import { hookCommand, launcherScript } from "./launcher.js";
import { DEVRITES_HOOK_MARKER } from "./merge.js";
import { LAZY_PARTS_LINE } from "./output-path.js";

/** A bundle that throws while it is being loaded. */
const THROWING_BUNDLE = `throw new Error("broken at load");\n`;
/** A bundle that loads but exports no function (e.g. an old bundle that ran on its own). */
const NO_FUNCTION_BUNDLE = `module.exports = { answer: 1 };\n`;

const ROOT = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" });

/** A temporary directory of this file's own, so the launcher's compile cache stays out of the machine's. */
const TMP = realpathSync(mkdtempSync(join(tmpdir(), "devrites-launcher-tmp-")));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const run = (command: string, cwd: string, input: string, env: NodeJS.ProcessEnv = {}) =>
  runHookCommand(command, cwd, input, { TMPDIR: TMP, ...env });

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
