/**
 * `npm run build` (second half): bundle each hook entry point `hooks-src/<name>.ts` into one self-contained
 * `hooks/<name>.cjs` (esbuild; CommonJS for Node 20; every dependency inlined, only Node built-ins loaded at
 * run time). The bundles are committed: a plugin installed from git runs them as they are.
 *
 * CommonJS, not ESM: the generated launcher (`src/hosts/launcher.ts`) `require`s the bundle into its own
 * process and calls the function it exports, so a tool call costs one Node start, with no ES module loader.
 * `--check` writes nothing and exits 1 when a committed bundle differs from a fresh build.
 *
 * Minified: the PreToolUse hook runs before every tool call and its cost is mostly parsing the bundle, so
 * the smallest text starts fastest (see `npm run bench -- hooks`). Minified output also carries no file
 * path comments, which keeps the bytes identical on every machine.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";
import { HOOK_BUNDLE_EXT } from "../src/hosts/output-path.js";

export const HOOK_HEADER = "// generated — do not edit; regenerate with npm run build";

/** The hook entry points: `hooks-src/<name>.ts` → `hooks/<name>.cjs`. */
export const HOOK_NAMES = ["pre-tool-use", "subagent-stop", "user-prompt-submit"] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/**
 * Node built-ins (`node:fs`, and bare `fs` from CommonJS dependencies) are taken from
 * `process.getBuiltinModule` (Node ≥ 20.16), which needs no module resolution at all. The bundles therefore
 * import and require nothing.
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
  const names = Object.keys(mod)
    .filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default")
    .sort();
  return [
    `const m = process.getBuiltinModule(${id});`,
    "export default m;",
    ...names.map((k) => `export const ${k} = /* @__PURE__ */ (() => m.${k})();`),
  ].join("\n");
}

/** Repository-relative path of a built hook bundle. */
export function bundlePath(name: string): string {
  return `hooks/${name}${HOOK_BUNDLE_EXT}`;
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
    outfile: join(root, bundlePath(name)),
    bundle: true,
    platform: "node",
    format: "cjs",
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
    path: bundlePath(name),
    text: outputText(result.outputFiles),
    inputs: inputsOf(result.metafile),
  };
}

export async function buildHooks(root: string = REPO_ROOT): Promise<BuiltHook[]> {
  return Promise.all(HOOK_NAMES.map((n) => buildHook(n, root)));
}

function outputText(files: { path: string; text: string }[] | undefined): string {
  const js = files?.find((f) => f.path.endsWith(HOOK_BUNDLE_EXT));
  if (!js) throw new Error(`esbuild produced no ${HOOK_BUNDLE_EXT} output`);
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
