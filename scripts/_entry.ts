import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Run a build script's `main` when the file is the one node was started with (not when a test imports it):
 * exit with its code, or print the crash under the script's name and exit 1.
 */
export function runWhenInvoked(
  moduleUrl: string,
  name: string,
  main: (argv: string[]) => Promise<number>,
): void {
  const invokedPath = process.argv[1];
  if (!invokedPath || resolve(invokedPath) !== fileURLToPath(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${name}: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
