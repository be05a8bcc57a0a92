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

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";
import { HOOK_BUNDLE_EXT, LAZY_PARTS_LINE } from "../src/hosts/output-path.js";
import { runWhenInvoked } from "./_entry.js";

/** ASCII, like the whole bundle (see `assertAscii`). */
export const HOOK_HEADER = "// generated - do not edit; regenerate with npm run build";

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
 * Built-ins every Node process has loaded before it runs a line of the bundle: taking them costs nothing.
 * Any other (`child_process`, `os`, …) is taken only when the bundle first calls one of its functions: loading
 * `node:child_process` alone pulls in the net, stream and dgram modules, ≈ 4 ms of a hook's start, for the one
 * call in a hundred that spawns anything.
 */
const PRELOADED_BUILTINS = new Set(["fs", "path", "process"]);

/**
 * An ES module re-exporting one built-in through `process.getBuiltinModule`, one named export per property
 * so esbuild keeps only the names the bundle uses (no copy of the whole module object at startup). For a
 * built-in not in `PRELOADED_BUILTINS`, a plain function (lower-case name, no properties of its own: not a
 * class, nothing like `realpathSync.native`) is exported as a wrapper that loads the module on its first call;
 * anything else is taken from the module when the bundle initialises a name it uses.
 */
function builtinShim(name: string): string {
  const id = JSON.stringify(`node:${name}`);
  const mod = (
    process as unknown as { getBuiltinModule(id: string): Record<string, unknown> }
  ).getBuiltinModule(`node:${name}`);
  const names = (name === "process" ? cleanProcessKeys() : Object.keys(mod))
    .filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default")
    .sort();
  const lazy = !PRELOADED_BUILTINS.has(name);
  return [
    "let m;",
    `const g = () => (m === undefined ? (m = process.getBuiltinModule(${id})) : m);`,
    "export default /* @__PURE__ */ g();",
    ...names.map((k) =>
      lazy && isPlainFunction(mod[k], k)
        ? `export function ${k}(...args) { return g().${k}(...args); }`
        : `export const ${k} = /* @__PURE__ */ (() => g().${k})();`,
    ),
  ].join("\n");
}

/** A function called as a function, not constructed, and carrying no properties of its own. */
function isPlainFunction(v: unknown, key: string): boolean {
  if (typeof v !== "function" || !/^[a-z]/.test(key)) return false;
  return Object.getOwnPropertyNames(v).every((p) => p === "length" || p === "name" || p === "prototype");
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

/** Repository-relative path of a built hook bundle. */
export function bundlePath(name: string): string {
  return `hooks/${name}${HOOK_BUNDLE_EXT}`;
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A module a bundle compiles only when a call first needs it. Its code travels at the end of the bundle as line
 * comments (the parser skips them at next to no cost; parsing code is most of a hook's start-up) and is read
 * back from the bundle's file and compiled with `new Function` on the first call of one of its exports. The PreToolUse guard's shell classifier with its command tables is
 * over half of the bundle, and only a leaf's shell call needs it: the root session's calls (most of them) and
 * a leaf's file tools never pay for it.
 *
 * Modules the classifier shares with the rest of the guard (the parser's word helpers) are then in both parts;
 * they hold constants only (no mutable state, no classes), so two copies behave as one.
 */
export interface LazyModule {
  /**
   * The imports it replaces: a repository-relative importing source file and the specifier as written there.
   * Every one: an import left out loads its module eagerly. Several modules a call needs together can share
   * one part (a `source` that re-exports them): one compile, one cache entry, one copy of what they share.
   */
  imports: readonly { importer: string; specifier: string }[];
  /** Repository-relative source of the lazy module. */
  source: string;
  /** Its exported functions the bundle calls (checked at build time). */
  exports: readonly string[];
  /**
   * Packages only the lazy module uses: in the bundle's eager part they are marked free of side effects, so an
   * import there whose names go unused (a shared module's) is dropped instead of run at every start.
   */
  packages?: readonly string[];
}

export const LAZY_MODULES: Partial<Record<HookName, readonly LazyModule[]>> = {
  "pre-tool-use": [
    {
      // the classifier: a leaf's shell call where no sandbox runs (classified mode)
      imports: [
        { importer: "src/guard/decide.ts", specifier: "./shell/classify.js" },
        { importer: "src/guard/index.ts", specifier: "./shell/classify.js" },
      ],
      source: "src/guard/shell/classify.ts",
      exports: ["classifyArgvCommand", "classifyShell"],
      packages: ["shell-quote"],
    },
    {
      // a leaf's sandboxed shell call the eager shortcut (src/guard/shell/front-plain.ts) could not answer
      imports: [{ importer: "src/guard/decide.ts", specifier: "./shell/front.js" }],
      source: "src/guard/shell/front.ts",
      exports: ["frontArgv", "frontShell"],
      packages: ["shell-quote"],
    },
    {
      // the sandbox planner: every allowed sandboxed shell call
      imports: [{ importer: "src/hooks/pre-tool-use.ts", specifier: "./sandbox-plan-call.js" }],
      source: "src/hooks/sandbox-plan-call.ts",
      exports: ["planShellCall"],
    },
    {
      // the matcher of the user's own Claude Code rules: only when a settings file holds a deny or ask rule
      imports: [{ importer: "src/hooks/user-rules.ts", specifier: "./user-rules-match.js" }],
      source: "src/hooks/user-rules-match.ts",
      exports: ["matchUserRules"],
      packages: ["shell-quote"],
    },
  ],
};

interface LazyChunk {
  text: string;
  inputs: string[];
}

/** Build a lazy module as a CommonJS body (`module`, `exports` free) and check its exports. */
async function buildLazy(root: string, lazy: LazyModule): Promise<LazyChunk> {
  const result = await build({
    ...common(root),
    entryPoints: [join(root, lazy.source)],
    outfile: join(root, "lazy.cjs"),
  });
  const text = outputText(result.outputFiles, ".cjs");
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  new Function("module", "exports", text)(mod, mod.exports);
  for (const name of lazy.exports) {
    if (typeof mod.exports[name] !== "function")
      throw new Error(`lazy module ${lazy.source} does not export a function ${name}`);
  }
  return { text, inputs: inputsOf(result.metafile) };
}

/** The comment line that starts a lazy module's text at the end of a bundle. */
function lazyMarker(lazy: LazyModule): string {
  return `//devrites-lazy ${lazy.source}`;
}

/**
 * The lazy module's text as line comments (`//` before every line), to append after the bundle's code: the
 * parser skips comments without building anything, where a string literal of the same text costs ~0.5 ms.
 * Refuses text a line comment cannot carry (JavaScript line terminators other than `\n`) or that could be
 * taken for the next marker.
 */
function lazyPayload(lazy: LazyModule, chunk: LazyChunk): string {
  if (/[\r\u2028\u2029]/.test(chunk.text))
    throw new Error(`lazy module ${lazy.source}: its build has a line terminator a comment cannot carry`);
  const lines = chunk.text.replace(/\n$/, "").split("\n");
  if (lines.some((l) => l.startsWith("devrites-lazy ")))
    throw new Error(`lazy module ${lazy.source}: a line reads like a marker`);
  return `\n${lazyMarker(lazy)}\n${lines.map((l) => `//${l}`).join("\n")}\n`;
}

/**
 * The stand-in the bundle gets for a lazy module: one wrapper per export that, on first use, takes the bundle's
 * text (the launcher's copy, `globalThis[Symbol.for("devrites.source")]`, when it is of this file: the lazy part
 * then comes from the very text that was compiled and the file is not read twice; else the file itself), takes
 * the module's text from the comments after its marker (the last occurrence: the payload comes after all code)
 * and compiles it, through the launcher's code cache when the launcher runs the bundle. A failure to find or
 * compile it throws from the call (the guard turns that into a deny for leaves).
 */
function lazyStandIn(lazy: LazyModule): string {
  return [
    `const marker = ${JSON.stringify(`\n${lazyMarker(lazy)}`)};`,
    "let loaded;",
    "function load() {",
    "  if (loaded === undefined) {",
    // the launcher's copy of the text it compiled, else the file
    '    const source = globalThis[Symbol.for("devrites.source")];',
    '    const all = source !== null && typeof source === "object" && source.filename === __filename && typeof source.text === "string"',
    "      ? source.text",
    '      : process.getBuiltinModule("node:fs").readFileSync(__filename, "utf8");',
    // the marker line ends in \n, or in \r\n in a CRLF checkout
    "    const at = all.lastIndexOf(marker);",
    "    let from = at < 0 ? -1 : at + marker.length;",
    '    if (from >= 0 && all[from] === "\\r") from += 1;',
    `    if (from < 0 || all[from] !== "\\n") throw new Error(${JSON.stringify(`the bundle has lost its lazy part ${lazy.source}`)});`,
    '    const next = all.indexOf("\\n//devrites-lazy ", from);',
    "    const lines = all.slice(from + 1, next < 0 ? all.length : next);",
    // every line is `//` and a line of the module: one native replace takes the comment marks off; a CRLF
    // checkout leaves a \r on every line, taken off line by line (no regex: the lines are up to 50 KB long)
    '    const text = lines.includes("\\r")',
    '      ? lines.split("\\n").map((line) => (line.endsWith("\\r") ? line.slice(2, -1) : line.slice(2))).join("\\n")',
    '      : lines.slice(2).replaceAll("\\n//", "\\n");',
    "    const mod = { exports: {} };",
    // the launcher's cached compile when it runs the bundle (src/hosts/compile-cache/bootstrap.ts), else a plain one
    '    const cached = globalThis[Symbol.for("devrites.compile")];',
    '    const body = typeof cached === "function"',
    `      ? cached(text, ["module", "exports"], __filename + ${JSON.stringify(`#${lazy.source}`)})`,
    '      : new Function("module", "exports", text);',
    "    body(mod, mod.exports);",
    "    loaded = mod.exports;",
    "  }",
    "  return loaded;",
    "}",
    ...lazy.exports.map((e) => `export function ${e}(...args) { return load().${e}(...args); }`),
  ].join("\n");
}

function lazyPlugin(root: string, chunks: ReadonlyMap<LazyModule, LazyChunk>): Plugin {
  return {
    name: "devrites-lazy",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        for (const lazy of chunks.keys()) {
          if (lazy.imports.some((i) => args.path === i.specifier && args.importer === join(root, i.importer)))
            return { path: lazy.source, namespace: "devrites-lazy" };
        }
        return undefined;
      });
      const packages = new Set([...chunks.keys()].flatMap((l) => l.packages ?? []));
      b.onResolve({ filter: /^[\w@][\w@/.-]*$/ }, async (args) => {
        if (!packages.has(args.path) || args.pluginData === "devrites-lazy") return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: "devrites-lazy",
        });
        return found.errors.length > 0 ? undefined : { path: found.path, sideEffects: false };
      });
      b.onLoad({ filter: /.*/, namespace: "devrites-lazy" }, (args) => {
        const entry = [...chunks].find(([l]) => l.source === args.path);
        if (!entry) throw new Error(`no lazy module ${args.path}`);
        return { contents: lazyStandIn(entry[0]), loader: "js" };
      });
    },
  };
}

export interface BuiltHook {
  name: HookName;
  /** Repository-relative output path. */
  path: string;
  text: string;
  /** Repository-relative inputs that went into the bundle (from esbuild's metafile). */
  inputs: string[];
}

export function common(root: string): BuildOptions & { write: false; metafile: true } {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    legalComments: "none",
    // ASCII output (other characters escaped): see assertAscii
    charset: "ascii",
    // node_modules may be a symlink; keep input paths repository-relative so the output never depends on it
    preserveSymlinks: true,
    plugins: [builtinsFromProcess],
    metafile: true,
    write: false,
    logLevel: "silent",
  };
}

function options(root: string, name: HookName, chunks: ReadonlyMap<LazyModule, LazyChunk>): BuildOptions {
  const base = common(root);
  return {
    ...base,
    entryPoints: [join(root, "hooks-src", `${name}.ts`)],
    outfile: join(root, bundlePath(name)),
    banner: { js: HOOK_HEADER },
    plugins: [lazyPlugin(root, chunks), ...(base.plugins ?? [])],
  };
}

/** Build one hook in memory. Deterministic: the same sources give the same bytes. */
export async function buildHook(name: HookName, root: string = REPO_ROOT): Promise<BuiltHook> {
  const lazies = LAZY_MODULES[name] ?? [];
  const chunks = new Map<LazyModule, LazyChunk>();
  for (const lazy of lazies) chunks.set(lazy, await buildLazy(root, lazy));
  const result = await build(options(root, name, chunks));
  const own = inputsOf(result.metafile);
  for (const lazy of lazies) {
    if (own.includes(lazy.source)) throw new Error(`${lazy.source} is in ${name} eagerly as well as lazily`);
  }
  return {
    name,
    path: bundlePath(name),
    text: assertAscii(name, withLazyParts(name, outputText(result.outputFiles, HOOK_BUNDLE_EXT), chunks)),
    inputs: [...new Set([...own, ...[...chunks.values()].flatMap((c) => c.inputs)])].sort(),
  };
}

/** The bundle's code, then (when it has lazy modules) the `LAZY_PARTS_LINE` and each lazy module's payload. */
export function withLazyParts(
  name: string,
  code: string,
  chunks: ReadonlyMap<LazyModule, LazyChunk>,
): string {
  if (chunks.size === 0) return code;
  if (code.includes(LAZY_PARTS_LINE))
    throw new Error(
      `hook bundle ${name}: its code contains ${LAZY_PARTS_LINE}, which ends the code for the launcher`,
    );
  const parts = [...chunks].map(([l, c]) => lazyPayload(l, c)).join("");
  return `${code.endsWith("\n") ? code : `${code}\n`}${LAZY_PARTS_LINE}\n${parts.replace(/^\n/, "")}`;
}

/**
 * A bundle is ASCII throughout. The launcher reads it as UTF-8 on every tool call; V8 keeps an all-ASCII text
 * one byte per character, and one character outside Latin-1 (an em dash in a comment) makes the whole 130 KB
 * text two bytes per character: slower to read, to hash for the compile cache and to hand to the compiler
 * (about 0.4 ms of a leaf shell call, docs/hooks.md). esbuild escapes what it emits (`charset: "ascii"`).
 */
export function assertAscii(name: string, text: string): string {
  const at = text.search(/[^\u0000-\u007f]/);
  if (at >= 0) {
    const line = text.slice(0, at).split("\n").length;
    throw new Error(`hook bundle ${name}: a character outside ASCII on line ${line}; bundles must be ASCII`);
  }
  return text;
}

export async function buildHooks(root: string = REPO_ROOT): Promise<BuiltHook[]> {
  return Promise.all(HOOK_NAMES.map((n) => buildHook(n, root)));
}

export function outputText(files: { path: string; text: string }[] | undefined, ext: string): string {
  const js = files?.find((f) => f.path.endsWith(ext));
  if (!js) throw new Error(`esbuild produced no ${ext} output`);
  return js.text;
}

function inputsOf(meta: Metafile | undefined): string[] {
  return Object.keys(meta?.inputs ?? {}).sort();
}

/** A file's text, or "" when it cannot be read (a bundle not built yet is stale, not an error). */
export function readOrEmpty(path: string): string {
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

runWhenInvoked(import.meta.url, "build-hooks", main);
