import { readFileSync } from "node:fs";

/** Set at build time in the one-file CLI (`scripts/build-cli.ts`), which may run with no package.json. */
declare const DEVRITES_BUNDLE_VERSION: string | undefined;

function readVersion(): string {
  if (typeof DEVRITES_BUNDLE_VERSION === "string") return DEVRITES_BUNDLE_VERSION;
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** The package version: fixed in the one-file CLI, else read from package.json (two levels up from src/cli and dist/cli). */
export const VERSION = readVersion();
