/**
 * Customising a rite or a role in a user's repository: `.devrites/pack/` holds files laid out as the pack is
 * (`skills/<rite>/SKILL.md`, `agents/<role>.md`, a skill's assets), each replacing the installed package's
 * file of the same path, or adding one. `init`, `update` and `validate` build the adapters from the package's
 * pack with these files laid over it (the effective pack), lint it as a whole, and so treat a customised rite as
 * the source of its generated files: editing one and forgetting `devrites update` is drift, as for any source.
 * A devrites update keeps the customised files and brings every other file of the new version.
 *
 * The effective pack is built in a private temporary folder (the loader and the renderer read one folder) and
 * removed after use. Only regular files are taken: a symlink, or anything else, is refused with its path.
 */

import { cpSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { type Diagnostic, error } from "../core/diagnostics.js";

/** The overlay folder, repository-relative. */
export const PACK_OVERLAY = ".devrites/pack";

export interface EffectivePack {
  /** The folder to load and render the pack from. */
  dir: string;
  /** The installed package's pack it was built from. */
  base: string;
  /** Pack-relative paths the overlay supplied, sorted. */
  overlaid: string[];
  /** Where a pack-relative path of the effective pack comes from, for diagnostics (repository-relative for overlay files). */
  origin(path: string): string;
  /** Remove the temporary folder (nothing when there is no overlay). */
  cleanup(): void;
}

export type EffectivePackResult =
  | { ok: true; pack: EffectivePack }
  | { ok: false; diagnostics: Diagnostic[] };

/** Every entry under `dir`, pack-relative; refuses anything that is not a regular file or a folder. */
function overlayFiles(root: string, dir: string): { files: string[]; bad: Diagnostic[] } {
  const files: string[] = [];
  const bad: Diagnostic[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) files.push(r);
      else
        bad.push(
          error("install.overlay-entry", "a customised pack file must be a regular file", {
            path: `${relative(root, dir).split("\\").join("/")}/${r}`,
            hint: "replace the link with a copy of the file",
          }),
        );
    }
  };
  walk("");
  return { files, bad };
}

/** The pack to install from in repository `root`: `base` itself, or `base` with `.devrites/pack/` laid over it. */
export function effectivePack(root: string, base: string): EffectivePackResult {
  const overlay = join(root, PACK_OVERLAY);
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(overlay);
  } catch {
    st = undefined;
  }
  if (st === undefined)
    return { ok: true, pack: { dir: base, base, overlaid: [], origin: (p) => join(base, p), cleanup() {} } };
  if (!st.isDirectory())
    return {
      ok: false,
      diagnostics: [
        error("install.overlay-entry", `${PACK_OVERLAY} must be a folder`, {
          path: PACK_OVERLAY,
          hint: "make it a folder laid out as the pack is (skills/<rite>/SKILL.md, agents/<role>.md)",
        }),
      ],
    };
  const { files, bad } = overlayFiles(root, overlay);
  if (bad.length > 0) return { ok: false, diagnostics: bad };
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "devrites-pack-")));
  try {
    cpSync(base, dir, { recursive: true });
    for (const f of files) cpSync(join(overlay, f), join(dir, f), { force: true });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const set = new Set(files);
  return {
    ok: true,
    pack: {
      dir,
      base,
      overlaid: files,
      origin: (p) => (set.has(p) ? `${PACK_OVERLAY}/${p}` : join(base, p)),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    },
  };
}

/** A pack-relative diagnostic re-anchored to where its file comes from. */
export function anchorToOrigin(d: Diagnostic, pack: EffectivePack): Diagnostic {
  return { ...d, path: d.path ? pack.origin(d.path) : pack.overlaid.length > 0 ? PACK_OVERLAY : pack.base };
}
