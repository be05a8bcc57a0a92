/**
 * The committed hook bundles: up to date with the sources, self-contained (nothing but Node built-ins at run
 * time), and the PreToolUse bundle free of the heavy modules it must not load on every tool call.
 */

import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import {
  assertAscii,
  type BuiltHook,
  buildHooks,
  HOOK_HEADER,
  HOOK_NAMES,
  REPO_ROOT,
  withLazyParts,
} from "../../scripts/build-hooks.js";
import { makeInstalledRepo, runId } from "../../src/hooks/fixtures.js";
import { LAZY_PARTS_LINE } from "../../src/hosts/output-path.js";

let built: BuiltHook[];
beforeAll(async () => {
  built = await buildHooks();
});

const committed = (name: string) => readFileSync(join(REPO_ROOT, "hooks", `${name}.cjs`), "utf8");
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/**
 * Every module the bundle loads at run time: its `import` statements and `import()`/`require()` calls as
 * esbuild parses them (every import left external), plus the names passed to `process.getBuiltinModule`.
 */
async function specifiers(file: string): Promise<string[]> {
  const r = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    logLevel: "silent",
    plugins: [
      {
        name: "all-external",
        setup: (b) =>
          b.onResolve({ filter: /.*/ }, (a) =>
            a.kind === "entry-point" ? undefined : { path: a.path, external: true },
          ),
      },
    ],
  });
  // `<runtime>` is esbuild's own helper code for reading a CommonJS file, not something the bundle loads
  const parsed = Object.values(r.metafile.inputs)
    .flatMap((i) => i.imports.map((x) => x.path))
    .filter((p) => p !== "<runtime>");
  const text = readFileSync(file, "utf8");
  const builtins = [...text.matchAll(/\bgetBuiltinModule\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map(
    (m) => m[1]!,
  );
  return [...parsed, ...builtins];
}

describe("hook bundles", () => {
  it.each(HOOK_NAMES)("hooks/%s.cjs is up to date with its sources (run `npm run build`)", (name) => {
    const b = built.find((x) => x.name === name)!;
    expect(committed(name) === b.text, `hooks/${name}.cjs is stale`).toBe(true);
  });

  it("the build is deterministic", async () => {
    const again = await buildHooks();
    expect(again.map((b) => b.text)).toEqual(built.map((b) => b.text));
  });

  it.each(HOOK_NAMES)("hooks/%s.cjs starts with the generated header", (name) => {
    expect(committed(name).split("\n")[0]).toBe(HOOK_HEADER);
  });

  it.each(HOOK_NAMES)("hooks/%s.cjs loads nothing but Node built-ins", async (name) => {
    const specs = await specifiers(join(REPO_ROOT, "hooks", `${name}.cjs`));
    expect(specs.filter((s) => !BUILTINS.has(s))).toEqual([]);
    expect(committed(name)).not.toContain("Dynamic require of");
  });

  it("the scanner catches imports, dynamic imports, requires and built-in names", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "devrites-scan-")));
    try {
      const file = join(dir, "x.mjs");
      writeFileSync(
        file,
        'import{x as y}from"zod";import"./a.js";const z=require("execa");await import("fast-glob");' +
          'const d=["import","from"];process.getBuiltinModule("node:fs");process.getBuiltinModule("leftpad")',
      );
      expect((await specifiers(file)).sort()).toEqual([
        "./a.js",
        "execa",
        "fast-glob",
        "leftpad",
        "node:fs",
        "zod",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(HOOK_NAMES)("hooks/%s.cjs is ASCII throughout (V8 keeps it one byte per character)", (name) => {
    expect(committed(name)).toMatch(/^[\u0000-\u007f]*$/);
  });

  it("the PreToolUse bundle's code ends at the lazy-parts line, once, before its lazy part", () => {
    const text = committed("pre-tool-use");
    const line = `\n${LAZY_PARTS_LINE}\n`;
    const at = text.indexOf(line);
    expect(at).toBeGreaterThan(0);
    expect(text.indexOf(line, at + 1)).toBe(-1);
    expect(text.slice(at + line.length)).toMatch(/^\/\/devrites-lazy src\/guard\/shell\/classify\.ts\n\/\//);
    // the bundles without lazy parts have no such line
    expect(committed("subagent-stop")).not.toContain(LAZY_PARTS_LINE);
  });

  it("the build refuses code that contains the lazy-parts line; code without lazy parts is left as it is", () => {
    const lazy = { imports: [], source: "src/x.ts", exports: ["f"] };
    const chunks = new Map([[lazy, { text: "exports.f = () => 1;\n", inputs: [] }]]);
    expect(() => withLazyParts("x", `const s = \`\n${LAZY_PARTS_LINE}\n\`;\n`, chunks)).toThrow(
      /hook bundle x: its code contains \/\/devrites-lazy-parts/,
    );
    expect(withLazyParts("x", "code();\n", chunks)).toBe(
      `code();\n${LAZY_PARTS_LINE}\n//devrites-lazy src/x.ts\n//exports.f = () => 1;\n`,
    );
    expect(withLazyParts("x", "code();", new Map())).toBe("code();");
  });

  it("the build refuses a bundle with a character outside ASCII, naming the line; ASCII passes", () => {
    expect(() => assertAscii("x", "a\n// generated \u2014 note\n")).toThrow(
      /hook bundle x: .* line 2; bundles must be ASCII/,
    );
    expect(() => assertAscii("x", "a\n\u00e9")).toThrow(/line 2/);
    expect(assertAscii("x", "a\n\u007f~")).toBe("a\n\u007f~");
  });

  it("the PreToolUse bundle contains neither zod nor the judge nor the result commands nor the SubagentStop logic", () => {
    const b = built.find((x) => x.name === "pre-tool-use")!;
    const heavy = b.inputs.filter((i) =>
      /node_modules\/(zod|execa|ajv|fast-glob)\/|src\/(judge|result)\/|subagent-stop/.test(i),
    );
    expect(heavy).toEqual([]);
  });

  it.each(HOOK_NAMES)(
    "hooks/%s.cjs, loaded with require, exports the hook function and does nothing else",
    (name) => {
      // a child process: loading the bundle must neither read stdin nor exit
      const r = spawnSync(
        process.execPath,
        [
          "-e",
          'const h = require(process.argv[1]); process.stdout.write(typeof h + " " + h.length); process.exitCode = 7',
          join(REPO_ROOT, "hooks", `${name}.cjs`),
        ],
        { input: "{}", env: { PATH: process.env.PATH ?? "" }, encoding: "utf8" },
      );
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        status: 7,
        stdout: "function 1",
        stderr: "",
      });
    },
  );

  it("the PreToolUse bundle compiles the shell classifier only for a leaf's shell call, once", () => {
    // counts `new Function` (how the bundle compiles its lazy part) while the bundle answers three calls
    const script = `
      let n = 0;
      const F = Function;
      globalThis.Function = new Proxy(F, { construct: (t, a) => (n++, Reflect.construct(t, a)) });
      const h = require(process.argv[1]);
      const base = { cwd: process.cwd(), hook_event_name: "PreToolUse", session_id: "s" };
      const leaf = { ...base, agent_id: "a", agent_type: "devrites-evidence-scout" };
      const counts = [];
      const codes = [];
      for (const call of [
        { ...base, tool_name: "Bash", tool_input: { command: "touch x" } },
        { ...leaf, tool_name: "Write", tool_input: { file_path: "x", content: "" } },
        { ...leaf, tool_name: "Bash", tool_input: { command: "echo hi > x" } },
        { ...leaf, tool_name: "Bash", tool_input: { command: "touch y" } },
      ]) {
        codes.push(h(JSON.stringify(call)).exitCode);
        counts.push(n);
      }
      process.stdout.write(JSON.stringify({ counts, codes }));
    `;
    const repo = makeInstalledRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    try {
      const r = spawnSync(process.execPath, ["-e", script, join(REPO_ROOT, "hooks", "pre-tool-use.cjs")], {
        cwd: repo.root,
        env: { PATH: process.env.PATH ?? "" },
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      // root Bash: allowed, nothing compiled; the scout's Write: denied by the file-tool rules, nothing
      // compiled; the scout's shell calls: denied (they write), the classifier compiled once and reused
      expect(JSON.parse(r.stdout)).toEqual({ counts: [0, 0, 1, 1], codes: [0, 2, 2, 2] });
    } finally {
      repo.cleanup();
    }
  });

  it("the PreToolUse bundle compiles the sandbox planner only for an allowed leaf shell call, and loads no child_process or os on calls that spawn nothing", () => {
    // `names`: the lazy parts compiled so far (by the names the compile hook is given); `mods`: which of
    // node:child_process and node:os were loaded
    const script = `
      const names = [];
      globalThis[Symbol.for("devrites.compile")] = (text, params, name) => (names.push(name.split("#")[1]), new Function(...params, text));
      const h = require(process.argv[1]);
      const loaded = () => ["child_process", "os"].filter((m) => process.moduleLoadList.includes("NativeModule " + m));
      const base = { cwd: process.cwd(), hook_event_name: "PreToolUse", session_id: "s" };
      const leaf = { ...base, agent_id: "a", agent_type: "devrites-evidence-scout" };
      const out = [];
      for (const call of [
        { ...base, tool_name: "Write", tool_input: { file_path: "x", content: "" } },
        { ...leaf, tool_name: "Read", tool_input: { file_path: "x" } },
        { ...leaf, tool_name: "Bash", tool_input: { command: "echo hi > x" } },
      ]) {
        const r = h(JSON.stringify(call));
        out.push({ code: r.exitCode, names: [...names], mods: loaded() });
      }
      process.stdout.write(JSON.stringify(out));
    `;
    const repo = makeInstalledRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    try {
      const r = spawnSync(process.execPath, ["-e", script, join(REPO_ROOT, "hooks", "pre-tool-use.cjs")], {
        cwd: repo.root,
        // classified mode: the classifier, not the front table, and no planner
        env: { PATH: process.env.PATH ?? "", DEVRITES_SANDBOX: "off" },
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      expect(JSON.parse(r.stdout)).toEqual([
        { code: 0, names: [], mods: [] },
        { code: 0, names: [], mods: [] },
        { code: 2, names: ["src/guard/shell/classify.ts"], mods: [] },
      ]);
    } finally {
      repo.cleanup();
    }
  });

  it.runIf(existsSync("/usr/bin/bwrap"))(
    "sandboxed, a leaf shell call compiles only the parts it needs (never the classifier), each once",
    () => {
      // a plain command skips the front table; an allowed one needs the planner; the user-rule matcher only
      // when a settings file holds a rule
      const script = `
        const names = [];
        globalThis[Symbol.for("devrites.compile")] = (text, params, name) => (names.push(name.split("#")[1]), new Function(...params, text));
        const h = require(process.argv[1]);
        const call = (command) => ({ cwd: process.cwd(), hook_event_name: "PreToolUse", session_id: "s", agent_id: "a",
          agent_type: "devrites-evidence-scout", tool_name: "Bash", tool_input: { command } });
        const step = (command) => { const r = h(JSON.stringify(call(command))); const got = names.splice(0); return [r.exitCode, got]; };
        const steps = [step("echo hi > x"), step("ls"), step('grep -n "a b" src'), step("cat a")];
        require("fs").mkdirSync(".claude", { recursive: true });
        require("fs").writeFileSync(".claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(curl:*)"] } }));
        steps.push(step("cat a"), step("curl x"));
        process.stdout.write(JSON.stringify(steps));
      `;
      const repo = makeInstalledRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
      try {
        const r = spawnSync(process.execPath, ["-e", script, join(REPO_ROOT, "hooks", "pre-tool-use.cjs")], {
          cwd: repo.root,
          env: { PATH: process.env.PATH ?? "" },
          encoding: "utf8",
        });
        expect(r.stderr).toBe("");
        expect(JSON.parse(r.stdout)).toEqual([
          [2, ["src/guard/shell/front.ts"]],
          [0, ["src/hooks/sandbox-plan-call.ts"]],
          [0, []],
          [0, []],
          [0, ["src/hooks/user-rules-match.ts"]],
          [2, []],
        ]);
      } finally {
        repo.cleanup();
      }
    },
  );

  it("takes the lazy part from the launcher's published text of this very bundle, and only of this bundle", () => {
    // the launcher publishes the text it compiled; here the published text has lost its lazy parts, so using it
    // shows as an internal-error deny, and reading the file instead as the classifier's own verdict
    const script = `
      const file = process.argv[1];
      const text = require("fs").readFileSync(file, "utf8");
      const lost = text.slice(0, text.indexOf("\\n//devrites-lazy-parts"));
      globalThis[Symbol.for("devrites.source")] = { filename: process.argv[2] === "other" ? file + ".other" : file, text: lost };
      const h = require(file);
      const call = { cwd: process.cwd(), hook_event_name: "PreToolUse", session_id: "s", agent_id: "a",
        agent_type: "devrites-evidence-scout", tool_name: "Bash", tool_input: { command: "echo hi > x" } };
      const r = h(JSON.stringify(call));
      process.stdout.write(JSON.stringify({ code: r.exitCode, rule: /\\[(guard\\.[a-z-]+)\\]/.exec(r.stderr)?.[1] }));
    `;
    const repo = makeInstalledRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    try {
      const run = (which: string) => {
        const r = spawnSync(
          process.execPath,
          ["-e", script, join(REPO_ROOT, "hooks", "pre-tool-use.cjs"), which],
          { cwd: repo.root, env: { PATH: process.env.PATH ?? "" }, encoding: "utf8" },
        );
        expect(r.stderr).toBe("");
        return JSON.parse(r.stdout);
      };
      expect(run("this")).toEqual({ code: 2, rule: "guard.internal-error" });
      expect(run("other")).toEqual({ code: 2, rule: "guard.readonly-write" });
    } finally {
      repo.cleanup();
    }
  });

  it("a CRLF checkout of the PreToolUse bundle still classifies a leaf's shell call (and allows a harmless one)", () => {
    const repo = makeInstalledRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "devrites-crlf-")));
    try {
      const file = join(dir, "pre-tool-use.cjs");
      writeFileSync(
        file,
        readFileSync(join(REPO_ROOT, "hooks", "pre-tool-use.cjs"), "utf8").replaceAll("\n", "\r\n"),
      );
      const call = (command: string) =>
        spawnSync(process.execPath, [file], {
          cwd: repo.root,
          input: JSON.stringify({
            cwd: repo.root,
            hook_event_name: "PreToolUse",
            session_id: "s",
            agent_id: "a",
            agent_type: "devrites-evidence-scout",
            tool_name: "Bash",
            tool_input: { command },
          }),
          env: { PATH: process.env.PATH ?? "" },
          encoding: "utf8",
        });
      const denied = call("echo hi > x");
      expect(denied.status).toBe(2);
      expect(denied.stderr).toContain("[guard.readonly-write]");
      expect(call("grep -rn x src | sort").status).toBe(0);
    } finally {
      repo.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("when the lazy part cannot be compiled, a leaf's shell call is denied; the root and file tools still work", () => {
    const repo = makeInstalledRepo([
      { role: "devrites-slice-wright", run_id: runId(2), allowed_repo_writes: ["a.ts"] },
    ]);
    try {
      const call = (input: Record<string, unknown>) =>
        spawnSync(
          process.execPath,
          ["--disallow-code-generation-from-strings", join(REPO_ROOT, "hooks", "pre-tool-use.cjs")],
          {
            cwd: repo.root,
            input: JSON.stringify({
              cwd: repo.root,
              hook_event_name: "PreToolUse",
              session_id: "s",
              ...input,
            }),
            env: { PATH: process.env.PATH ?? "" },
            encoding: "utf8",
          },
        );
      const leaf = { agent_id: "a", agent_type: "devrites-slice-wright" };
      const bash = call({ ...leaf, tool_name: "Bash", tool_input: { command: "ls" } });
      expect(bash.status).toBe(2);
      expect(bash.stderr).toContain("[guard.internal-error]");
      const write = call({ ...leaf, tool_name: "Write", tool_input: { file_path: "a.ts", content: "" } });
      expect({ status: write.status, stderr: write.stderr }).toEqual({ status: 0, stderr: "" });
      const root = call({ tool_name: "Bash", tool_input: { command: "ls" } });
      expect({ status: root.status, stderr: root.stderr }).toEqual({ status: 0, stderr: "" });
    } finally {
      repo.cleanup();
    }
  });

  it.each(HOOK_NAMES)("hooks/%s.cjs runs from a copy outside the repository with no NODE_PATH", (name) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "devrites-bundle-")));
    try {
      const file = join(dir, `${name}.cjs`);
      copyFileSync(join(REPO_ROOT, "hooks", `${name}.cjs`), file);
      const r = spawnSync(process.execPath, [file], {
        cwd: dir,
        input: JSON.stringify({ cwd: dir, hook_event_name: "x", session_id: "s" }),
        env: { PATH: process.env.PATH ?? "", NODE_PATH: "" },
        encoding: "utf8",
      });
      expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/);
      expect([0, 2]).toContain(r.status);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
