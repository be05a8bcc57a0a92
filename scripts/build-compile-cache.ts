/**
 * Build the compile cache the launcher embeds (`src/hosts/compile-cache/bootstrap.ts`, run by `./entry.ts`)
 * into `src/hosts/compile-cache/bootstrap.generated.ts`: one minified line of JavaScript (esbuild), in a
 * function scope of its own so its short names cannot meet the bootstrap's, behind `let Q,QS`, the two bindings
 * the bootstrap calls.
 *
 * Part of `npm run build`; `--check` writes nothing and exits 1 when the committed file differs from a fresh
 * build. The generated file is committed because `devrites generate` (run from the published CLI, without
 * esbuild) puts the code into every hook command.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { runWhenInvoked } from "./_entry.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const COMPILE_CACHE_ENTRY = "src/hosts/compile-cache/entry.ts";
export const COMPILE_CACHE_GENERATED = "src/hosts/compile-cache/bootstrap.generated.ts";
export const COMPILE_CACHE_COMMAND = "npx tsx scripts/build-compile-cache.ts";

/** The minified code: no single quote (the shell's quoting), no line break, no trailing semicolon. */
export async function buildCompileCacheJs(root: string = REPO_ROOT): Promise<string> {
  const out = await build({
    entryPoints: [join(root, COMPILE_CACHE_ENTRY)],
    bundle: true,
    write: false,
    // CommonJS keeps `require("vm")` as it is; the build wraps the code in its own function scope
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    charset: "ascii",
    legalComments: "none",
    // no template literals: esbuild would print the text's line break as a raw one inside backquotes
    supported: { "template-literal": false },
    logLevel: "silent",
  });
  const code = out.outputFiles[0]?.text
    .trim()
    .replace(/^"use strict";/, "")
    .replace(/;+$/, "");
  if (!code) throw new Error(`${COMPILE_CACHE_ENTRY}: esbuild produced no code`);
  const js = `let Q,QS;(()=>{${code}})()`;
  if (js.includes("'")) throw new Error(`${COMPILE_CACHE_ENTRY}: the built code holds a single quote`);
  if (/[\n\r]/.test(js)) throw new Error(`${COMPILE_CACHE_ENTRY}: the built code holds a line break`);
  return js;
}

/** The generated module's text. */
export function generatedModule(js: string): string {
  return [
    `// generated — do not edit; regenerate with ${COMPILE_CACHE_COMMAND} (source: ${COMPILE_CACHE_ENTRY})`,
    "",
    "/** The compile cache as the launcher embeds it; defines `Q` (compile) and `QS` (flush). */",
    `export const COMPILE_CACHE_JS = ${JSON.stringify(js)};`,
    "",
  ].join("\n");
}

export async function main(argv: readonly string[], root: string = REPO_ROOT): Promise<number> {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(
      `usage: tsx scripts/build-compile-cache.ts [--check]\nunexpected argument: ${unknown[0]}\n`,
    );
    return 2;
  }
  const text = generatedModule(await buildCompileCacheJs(root));
  const target = join(root, COMPILE_CACHE_GENERATED);
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (argv.includes("--check")) {
    if (current === text) {
      process.stdout.write(`compile cache: ${COMPILE_CACHE_GENERATED} up to date\n`);
      return 0;
    }
    process.stderr.write(
      `stale: ${COMPILE_CACHE_GENERATED}\nrun \`${COMPILE_CACHE_COMMAND}\` to regenerate\n`,
    );
    return 1;
  }
  if (current !== text) writeFileSync(target, text);
  process.stdout.write(
    `compile cache: ${COMPILE_CACHE_GENERATED}${current === text ? " (unchanged)" : ""}\n`,
  );
  return 0;
}

runWhenInvoked(import.meta.url, "build-compile-cache", main);
