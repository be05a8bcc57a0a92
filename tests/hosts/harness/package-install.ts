/**
 * The package as a user's project install puts it, for real-host projects made from this checkout.
 */
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { landlockHelperName, NATIVE_DIR } from "../../../src/sandbox/landlock-helper.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * The package installed in the project the way a user's install puts it (`<project>/node_modules/devrites/`,
 * its `package.json` and the built Landlock helper), kept out of git: the hook finds the helper there
 * (`landlockHelperPath`, order 4), as it would in a user's project.
 */
export function installPackage(project: string): void {
  const name = landlockHelperName();
  const built = name === undefined ? undefined : join(ROOT, NATIVE_DIR, name);
  if (name === undefined || built === undefined || !existsSync(built)) return;
  const pkg = join(project, "node_modules", "devrites");
  mkdirSync(join(pkg, NATIVE_DIR), { recursive: true });
  copyFileSync(join(ROOT, "package.json"), join(pkg, "package.json"));
  copyFileSync(built, join(pkg, NATIVE_DIR, name));
  chmodSync(join(pkg, NATIVE_DIR, name), 0o755);
  appendFileSync(join(project, ".git", "info", "exclude"), "node_modules/\n");
}
