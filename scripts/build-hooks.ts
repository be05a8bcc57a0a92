/**
 * `npm run build` (second half): bundle each hook entry point `hooks-src/<name>.ts` into one self-contained
 * `hooks/<name>.mjs` (esbuild; ESM for Node 20; every dependency inlined, only Node built-ins imported at
 * run time). The bundles are committed: a plugin installed from git runs them as they are.
 * `--check` writes nothing and exits 1 when a committed bundle differs from a fresh build.
 *
 * Minified: the PreToolUse hook runs before every tool call and its cost is mostly parsing the bundle, so
 * the smallest text starts fastest (see `npm run bench -- hooks`). Minified output also carries no file
 * path comments, which keeps the bytes identical on every machine.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";

export const HOOK_HEADER = "// generated — do not edit; regenerate with npm run build";

/** The hook entry points: `hooks-src/<name>.ts` → `hooks/<name>.mjs`. */
export const HOOK_NAMES = ["pre-tool-use", "subagent-stop", "user-prompt-submit"] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/**
 * Node built-ins (`node:fs`, and bare `fs` from CommonJS dependencies) are taken from
 * `process.getBuiltinModule` (Node ≥ 20.16) instead of ESM `import` statements: the ESM loader builds a
 * facade module for every imported built-in, which costs startup time on every tool call, and CommonJS
 * `require` of a built-in has no ESM equivalent inside a bundle. The bundles therefore import nothing at all.
 */
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

const builtinsFromProcess: Plugin = {
  name: "devrites-builtins",
  setup(b) {
    b.onResolve({ filter: /^[\w:/.-]+$/ }, (args) =>
      BUILTINS.has(args.path)
        ? // loading a built-in has no effect the bundle relies on: an unused one is dropped, not loaded
          { path: args.path.replace(/^node:/, ""), namespace: "devrites-builtin", sideEffects: false }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "devrites-builtin" }, (args) => ({
      contents: builtinShim(args.path),
      loader: "js",
    }));
  },
};

/**
 * An ES module re-exporting one built-in through `process.getBuiltinModule`, one named export per property
 * so esbuild keeps only the names the bundle uses (no copy of the whole module object at startup).
 */
function builtinShim(name: string): string {
  const id = JSON.stringify(`node:${name}`);
  const mod = (
    process as unknown as { getBuiltinModule(id: string): Record<string, unknown> }
  ).getBuiltinModule(`node:${name}`);
  const names = (name === "process" ? cleanProcessKeys() : Object.keys(mod))
    .filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default")
    .sort();
  return [
    `const m = process.getBuiltinModule(${id});`,
    "export default m;",
    ...names.map((k) => `export const ${k} = /* @__PURE__ */ (() => m.${k})();`),
  ].join("\n");
}

/**
 * The keys of `process` in a plain Node process, without `_`-private ones. This process's own `process`
 * differs with how it was started (a test worker forked with an IPC channel has `send`, `disconnect`, …;
 * hooks patch `emit`), and the shim's export list steers the minifier's naming: the bundles must not depend
 * on whether `npm run build` or a test built them.
 */
let processKeys: string[] | undefined;
function cleanProcessKeys(): string[] {
  if (processKeys) return processKeys;
  const env = { PATH: process.env.PATH ?? "" };
  const r = spawnSync(
    process.execPath,
    ["-e", "process.stdout.write(JSON.stringify(Object.keys(process)))"],
    {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  if (r.status !== 0) throw new Error(`listing the keys of process failed: ${r.stderr || r.error?.message}`);
  processKeys = (JSON.parse(r.stdout) as string[]).filter((k) => !k.startsWith("_"));
  return processKeys;
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BuiltHook {
  name: HookName;
  /** Repository-relative output path. */
  path: string;
  text: string;
  /** Repository-relative inputs that went into the bundle (from esbuild's metafile). */
  inputs: string[];
}

function options(root: string, name: HookName): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [join(root, "hooks-src", `${name}.ts`)],
    outfile: join(root, "hooks", `${name}.mjs`),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    // node_modules may be a symlink; keep input paths repository-relative so the output never depends on it
    preserveSymlinks: true,
    banner: { js: HOOK_HEADER },
    plugins: [builtinsFromProcess],
    metafile: true,
    write: false,
    logLevel: "silent",
  };
}

/** Build one hook in memory. Deterministic: the same sources give the same bytes. */
export async function buildHook(name: HookName, root: string = REPO_ROOT): Promise<BuiltHook> {
  const result = await build(options(root, name));
  return {
    name,
    path: `hooks/${name}.mjs`,
    text: outputText(result.outputFiles),
    inputs: inputsOf(result.metafile),
  };
}

export async function buildHooks(root: string = REPO_ROOT): Promise<BuiltHook[]> {
  return Promise.all(HOOK_NAMES.map((n) => buildHook(n, root)));
}

function outputText(files: { path: string; text: string }[] | undefined): string {
  const js = files?.find((f) => f.path.endsWith(".mjs"));
  if (!js) throw new Error("esbuild produced no .mjs output");
  return js.text;
}

function inputsOf(meta: Metafile | undefined): string[] {
  return Object.keys(meta?.inputs ?? {}).sort();
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

export async function main(argv: readonly string[], root: string = REPO_ROOT): Promise<number> {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`usage: tsx scripts/build-hooks.ts [--check]\nunexpected argument: ${unknown[0]}\n`);
    return 2;
  }
  const built = await buildHooks(root);
  const stale = built.filter((b) => readOrEmpty(join(root, b.path)) !== b.text);
  if (argv.includes("--check")) {
    if (stale.length === 0) {
      process.stdout.write(`hooks: ${built.length} bundles up to date\n`);
      return 0;
    }
    process.stderr.write(
      `${stale.map((b) => `stale: ${b.path}`).join("\n")}\nrun \`npm run build\` to regenerate\n`,
    );
    return 1;
  }
  for (const b of stale) {
    mkdirSync(dirname(join(root, b.path)), { recursive: true });
    writeFileSync(join(root, b.path), b.text);
  }
  const sizes = built.map((b) => `${b.path} ${(Buffer.byteLength(b.text) / 1024).toFixed(1)} KiB`);
  process.stdout.write(`hooks: ${sizes.join(", ")}${stale.length === 0 ? " (unchanged)" : ""}\n`);
  return 0;
}

const invokedPath = process.argv[1];
if (invokedPath && resolve(invokedPath) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`build-hooks: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
