/**
 * Entry point of the one-file CLI `bin/devrites.cjs` (`scripts/build-cli.ts`): what the Claude Code plugin
 * carries as its `bin/devrites`, so the plugin's rites run the CLI with no npm install. Same commands as
 * `bin/devrites.js`.
 */
import { main } from "./main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`devrites: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
