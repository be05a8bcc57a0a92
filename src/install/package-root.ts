import { fileURLToPath } from "node:url";

/** The devrites package root (two levels up from both src/install and dist/install). No other imports: cheap. */
export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
