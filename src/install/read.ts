/**
 * The installer's read-only edge: what a target holds at one managed path. Every path goes through the lexical
 * rules first (the hosts' `checkOutputPath`; the two workspace files and the git hook have their own), then
 * the on-disk walk refuses a symlink anywhere on the way (a symlinked `.claude` or `AGENTS.md` would carry
 * devrites' writes somewhere else) and says whether it leads outside the repository.
 */

import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { type Code, type Diagnostic, error } from "../core/diagnostics.js";
import { checkOutputPath } from "../hosts/output-path.js";
import { LAUNCHER_PATH } from "./launcher.js";
import { INSTALL_MANIFEST, isPlainRelPath, STATE_PATH } from "./manifest.js";
import type { CurrentFile } from "./plan.js";

/** `git-hook`: the pre-commit hook or the user's hook moved aside (may be a symlink; lives in the git folder). */
export type PathClass = "output" | "workspace" | "git-hook";

function insideDir(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r !== "" && r !== ".." && !r.startsWith(`..${sep}`) && !isAbsolute(r);
}

function lexical(rel: string, cls: PathClass): Diagnostic | null {
  if (cls === "output") return checkOutputPath(rel);
  if (cls === "workspace" && (rel === STATE_PATH || rel === INSTALL_MANIFEST || rel === LAUNCHER_PATH))
    return null;
  if (cls === "git-hook" && isPlainRelPath(rel)) return null;
  return error("install.path-unsafe", "refused: not a path devrites manages", {
    path: rel,
    hint: "the install manifest names a path it may not; restore .devrites/install.json",
  });
}

/** What `rel` holds inside `root`. Never throws. */
export function readCurrent(root: string, rel: string, cls: PathClass): CurrentFile {
  const bad = lexical(rel, cls);
  if (bad) return { kind: "unsafe", diagnostic: bad };
  const parts = rel.split("/");
  let cur = root;
  for (const [i, part] of parts.entries()) {
    cur = join(cur, part);
    const last = i === parts.length - 1;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(cur);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR")
        return { kind: "absent" };
      return unsafe(
        "install.path-unreadable",
        `cannot inspect ${parts.slice(0, i + 1).join("/")}: ${(e as Error).message}`,
        rel,
      );
    }
    if (st.isSymbolicLink()) {
      if (last && cls === "git-hook") return { kind: "link", target: readlinkSync(cur) };
      return symlinkRefusal(root, cur, parts.slice(0, i + 1).join("/"), rel);
    }
    if (!last && !st.isDirectory())
      return unsafe(
        "install.path-not-dir",
        `${parts.slice(0, i + 1).join("/")} is not a folder`,
        rel,
        "move the file away so the folder can be created",
      );
    if (last) {
      if (!st.isFile())
        return unsafe(
          "install.path-not-file",
          `${rel} exists and is not a regular file`,
          rel,
          "move it away and rerun",
        );
      try {
        return { kind: "file", bytes: readFileSync(cur), mode: st.mode & 0o7777 };
      } catch (e) {
        return unsafe("install.path-unreadable", `cannot read: ${(e as Error).message}`, rel);
      }
    }
  }
  return { kind: "absent" };
}

function unsafe(code: Code, message: string, path: string, hint?: string): CurrentFile {
  return { kind: "unsafe", diagnostic: error(code, message, { path, ...(hint ? { hint } : {}) }) };
}

function symlinkRefusal(root: string, abs: string, shown: string, rel: string): CurrentFile {
  let outside = true;
  let where = "a missing target";
  try {
    const real = realpathSync(abs);
    where = real;
    outside = !insideDir(realpathSync(root), real);
  } catch {
    // dangling: treated as outside (nothing proves otherwise)
  }
  return outside
    ? unsafe(
        "install.symlink-outside",
        `${shown} is a symlink to ${where}, outside this repository`,
        rel,
        "devrites never writes outside the repository; replace the link with a real folder or file",
      )
    : unsafe(
        "install.path-symlink",
        `${shown} is a symlink`,
        rel,
        "devrites does not write through symlinks; replace the link with the folder or file it points to",
      );
}
