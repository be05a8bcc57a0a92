/**
 * The file paths an `apply_patch` body touches (Codex's patch format):
 *
 *     *** Begin Patch
 *     *** Add File: path        (+ lines)
 *     *** Update File: path     (@@ hunks; optionally *** Move to: new-path)
 *     *** Delete File: path
 *     *** End Patch
 *
 * Every `*** ` line must be one of these markers; anything else, a path with surrounding spaces, or a patch
 * without a file operation is malformed. Markers are recognised after leading whitespace too, so an indented
 * marker cannot hide a path from the guard.
 */

export type PatchOp = "add" | "update" | "delete" | "move";

export type PatchPaths = { ok: true; paths: { path: string; op: PatchOp }[] } | { ok: false; why: string };

const MARKERS: [string, PatchOp][] = [
  ["*** Add File:", "add"],
  ["*** Update File:", "update"],
  ["*** Delete File:", "delete"],
  ["*** Move to:", "move"],
];

export function patchPaths(body: string): PatchPaths {
  const lines = body.split("\n");
  const paths: { path: string; op: PatchOp }[] = [];
  let begun = false;
  let ended = false;
  for (const raw of lines) {
    const line = (raw.endsWith("\r") ? raw.slice(0, -1) : raw).trimStart();
    if (!line.startsWith("***")) continue;
    if (line.trimEnd() === "*** Begin Patch") {
      if (begun) return { ok: false, why: "a second `*** Begin Patch`" };
      begun = true;
      continue;
    }
    if (line.trimEnd() === "*** End Patch") {
      ended = true;
      continue;
    }
    if (line.trimEnd() === "*** End of File") continue;
    const marker = MARKERS.find(([m]) => line.startsWith(m));
    if (!marker) return { ok: false, why: `an unknown patch marker \`${line.slice(0, 60)}\`` };
    if (!begun || ended)
      return { ok: false, why: "a file operation outside `*** Begin Patch` … `*** End Patch`" };
    let path = line.slice(marker[0].length);
    if (path.startsWith(" ")) path = path.slice(1);
    if (path === "" || path !== path.trim()) {
      return { ok: false, why: `the patch path \`${path}\` is empty or has surrounding spaces` };
    }
    paths.push({ path, op: marker[1] });
  }
  if (!begun) return { ok: false, why: "no `*** Begin Patch` line" };
  if (paths.length === 0) return { ok: false, why: "no file operation" };
  return { ok: true, paths };
}
