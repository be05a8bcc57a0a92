/** Package metadata for plugin manifests and marketplaces, taken from the package's `package.json` (pure). */

import type { PackageMeta } from "./types.js";

/** Used when `package.json` names no author: plugin manifests and marketplaces need one. */
export const DEFAULT_AUTHOR = { name: "devrites contributors" };

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

/** `package.json` (parsed) → the metadata the adapters print. Missing fields get neutral defaults. */
export function packageMeta(pkg: unknown): PackageMeta {
  const p = (typeof pkg === "object" && pkg !== null ? pkg : {}) as Record<string, unknown>;
  let author: PackageMeta["author"] = DEFAULT_AUTHOR;
  if (text(p.author)) {
    // npm's "Name <email> (url)" shorthand.
    const m = /^([^<(]+?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?$/.exec(p.author as string);
    author = { name: (m?.[1] ?? (p.author as string)).trim() };
    if (m?.[2]) author.email = m[2];
    if (m?.[3]) author.url = m[3];
  } else if (
    typeof p.author === "object" &&
    p.author !== null &&
    text((p.author as { name?: unknown }).name)
  ) {
    const a = p.author as { name: string; email?: unknown; url?: unknown };
    author = {
      name: a.name,
      ...(text(a.email) ? { email: a.email as string } : {}),
      ...(text(a.url) ? { url: a.url as string } : {}),
    };
  }
  const repo = p.repository;
  const repository =
    text(repo) ??
    (typeof repo === "object" && repo !== null ? text((repo as { url?: unknown }).url) : undefined);
  return {
    name: text(p.name) ?? "devrites",
    version: text(p.version) ?? "0.0.0",
    description: text(p.description) ?? "",
    license: text(p.license) ?? "UNLICENSED",
    author,
    ...(text(p.homepage) ? { homepage: p.homepage as string } : {}),
    ...(repository ? { repository } : {}),
  };
}
