/**
 * `npm run build` (third part): bundle the whole CLI (`src/cli/bin.ts`) into one self-contained CommonJS file,
 * `bin/devrites.cjs` (esbuild; every dependency inlined, only Node built-ins loaded at run time). The Claude Code
 * plugin carries it as `bin/devrites` (`devrites generate` copies it there), so a plugin install runs the rites'
 * CLI with no npm install. Committed, like the hook bundles; `--check` writes nothing and exits 1 when the
 * committed file differs from a fresh build.
 *
 * The CLI finds its package's files (`package.json`, `pack/.claude`, `hooks/`) from `import.meta.url`, which a
 * CommonJS bundle does not have: each source file's `import.meta.url` becomes the URL that file would have in a
 * package whose `bin/` holds the bundle (`<root>/src/route/cards.ts` for `<root>/bin/devrites.cjs` or
 * `<root>/bin/devrites`), so `new URL("../../pack/.claude", import.meta.url)` still names `<root>/pack/.claude`.
 * The package version is fixed at build time (`DEVRITES_BUNDLE_VERSION`): the plugin has no `package.json`.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { build, type Plugin } from "esbuild";
import { runWhenInvoked } from "./_entry.js";
import { common, outputText, REPO_ROOT, readOrEmpty } from "./build-hooks.js";

/** Repository-relative path of the CLI bundle. */
export const CLI_BUNDLE_PATH = "bin/devrites.cjs";

/** The shebang comes first: the plugin runs the file by its name. */
export const CLI_HEADER = [
  "#!/usr/bin/env node",
  "// generated - do not edit; regenerate with npm run build (scripts/build-cli.ts)",
].join("\n");

/** The bundle's package root: the parent of the folder that holds it. */
const ROOT_BANNER = [
  'const __devritesRoot = require("path").resolve(__dirname, "..");',
  'const __devritesUrl = (rel) => require("url").pathToFileURL(require("path").join(__devritesRoot, rel)).href;',
].join("\n");

/** `import.meta.url` in every repository source file, as that file's URL under the bundle's package root. */
function importMetaUrl(root: string): Plugin {
  return {
    name: "devrites-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const rel = relative(root, args.path).split("\\").join("/");
        if (rel.startsWith("..") || rel.startsWith("node_modules/")) return undefined;
        const text = readFileSync(args.path, "utf8");
        return {
          contents: text.replaceAll("import.meta.url", `__devritesUrl(${JSON.stringify(rel)})`),
          loader: "ts",
        };
      });
    },
  };
}

export interface BuiltCli {
  path: string;
  text: string;
}

/** Build the CLI bundle in memory. Deterministic: the same sources give the same bytes. */
export async function buildCli(root: string = REPO_ROOT): Promise<BuiltCli> {
  const base = common(root);
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string })
    .version;
  const result = await build({
    ...base,
    entryPoints: [join(root, "src", "cli", "bin.ts")],
    outfile: join(root, CLI_BUNDLE_PATH),
    banner: { js: `${CLI_HEADER}\n${ROOT_BANNER}` },
    define: { DEVRITES_BUNDLE_VERSION: JSON.stringify(version) },
    plugins: [importMetaUrl(root), ...(base.plugins ?? [])],
  });
  const warnings = result.warnings.filter((w) => !/"import\.meta" is not available/.test(w.text));
  if (warnings.length > 0)
    throw new Error(`CLI bundle: ${warnings.map((w) => `${w.location?.file ?? ""}: ${w.text}`).join("; ")}`);
  // not held to ASCII like the hook bundles (their rule is for start-up speed): the router's regular expressions
  // carry typographic quotes, which esbuild leaves as they are
  return { path: CLI_BUNDLE_PATH, text: outputText(result.outputFiles, ".cjs") };
}

export async function main(argv: readonly string[], root: string = REPO_ROOT): Promise<number> {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`usage: tsx scripts/build-cli.ts [--check]\nunexpected argument: ${unknown[0]}\n`);
    return 2;
  }
  const built = await buildCli(root);
  const fresh = readOrEmpty(join(root, built.path)) === built.text;
  if (argv.includes("--check")) {
    if (fresh) {
      process.stdout.write(`cli: ${built.path} up to date\n`);
      return 0;
    }
    process.stderr.write(`stale: ${built.path}\nrun \`npm run build\` to regenerate\n`);
    return 1;
  }
  if (!fresh) writeFileSync(join(root, built.path), built.text, { mode: 0o755 });
  const size = (Buffer.byteLength(built.text) / 1024).toFixed(1);
  process.stdout.write(`cli: ${built.path} ${size} KiB${fresh ? " (unchanged)" : ""}\n`);
  return 0;
}

runWhenInvoked(import.meta.url, "build-cli", main);
