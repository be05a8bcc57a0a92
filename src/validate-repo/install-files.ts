/**
 * Every file `devrites init`/`update` manages, compared with the SHA-256 that `.devrites/install.json`
 * recorded when devrites last wrote it. This holds without the sidecar manifests (`.devrites-generated.json`)
 * the drift check reads: deleting them and replacing the guard bundle by a no-op is still found here.
 *
 * - `owned` and `git-hook` files are devrites' whole: any other bytes (or a symlink, or nothing) is an error;
 * - `merged-json`, `marked-block`, `toml-block` files also hold the user's own part, which the user may edit:
 *   a different digest is a warning naming the file (the drift check, when sidecars exist, compares
 *   devrites' part);
 * - `skeleton` files (`.devrites/state.json`) belong to the workspace once created: not compared.
 */

import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import type { InstallManifest, ManagedFile } from "../install/manifest.js";

const WHOLE: ReadonlySet<ManagedFile["kind"]> = new Set(["owned", "git-hook"]);
const MERGED: ReadonlySet<ManagedFile["kind"]> = new Set(["merged-json", "marked-block", "toml-block"]);

export interface InstalledFilesReport {
  diagnostics: Diagnostic[];
  /** Managed files compared. */
  compared: number;
}

/** `only`: compare just these paths (a `--staged` run); all managed files when undefined. */
export function checkInstalledFiles(
  root: string,
  manifest: InstallManifest,
  only?: ReadonlySet<string>,
): InstalledFilesReport {
  const out: Diagnostic[] = [];
  let compared = 0;
  for (const f of manifest.files) {
    if (only && !only.has(f.path)) continue;
    if (!WHOLE.has(f.kind) && !MERGED.has(f.kind)) continue;
    compared++;
    const now = digestOf(join(root, f.path));
    if (now === f.sha256) continue;
    const what =
      now === null
        ? "is gone"
        : now === "symlink"
          ? "is now a symlink"
          : `has SHA-256 ${now}, not ${f.sha256}`;
    if (WHOLE.has(f.kind))
      out.push(
        error(
          now === null ? "install.file-missing" : "install.file-changed",
          `${f.path} ${what} as devrites last wrote it (.devrites/install.json)`,
          {
            path: f.path,
            hint: "a managed file is never edited by hand: run devrites update to write it again, or restore it",
          },
        ),
      );
    else
      out.push(
        warning(
          "install.merged-file-changed",
          `${f.path} ${what}; it also holds your own part, which you may edit`,
          {
            path: f.path,
            hint: "if devrites' part was edited, run devrites update to write it again",
          },
        ),
      );
  }
  return { diagnostics: out, compared };
}

/** SHA-256 of a regular file's bytes, `symlink` for a link, null when nothing is there. */
function digestOf(abs: string): string | null {
  try {
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) return "symlink";
    if (!st.isFile()) return "not a file";
    return sha256Hex(readFileSync(abs));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    return `unreadable (${code ?? "error"})`;
  }
}
