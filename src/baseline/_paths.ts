/** Paths travel as raw bytes from git and readdir; names that are not UTF-8 get a lossless, inert spelling. */

export function pathFromBytes(raw: Buffer): string {
  const s = raw.toString("utf8");
  return Buffer.from(s, "utf8").equals(raw) ? s : `\u0000hex:${raw.toString("hex")}`;
}

export function pathToBytes(path: string): Buffer {
  if (path.startsWith("\u0000hex:")) return Buffer.from(path.slice(5), "hex");
  return Buffer.from(path, "utf8");
}

/** Order by UTF-8 bytes (what `git` and `LC_ALL=C sort` do), not by UTF-16 code units. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/**
 * Sort by `path` in UTF-8 byte order (the order of `compareBytes`), in place and stable. Each path is encoded
 * once instead of twice per comparison.
 */
export function sortByPathBytes<T extends { path: string }>(items: T[]): T[] {
  const keyed = items.map((item) => ({ key: Buffer.from(item.path, "utf8"), item }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  for (let i = 0; i < keyed.length; i++) items[i] = keyed[i]!.item;
  return items;
}

/** The workspace folder, excluded from every manifest (the CLI writes there while leaves work). */
export function isWorkspacePath(raw: Buffer): boolean {
  const ws = Buffer.from(".devrites");
  if (raw.length < ws.length || !raw.subarray(0, ws.length).equals(ws)) return false;
  return raw.length === ws.length || raw[ws.length] === 0x2f;
}

/** `root` + `/` + repo-relative bytes, as a Buffer path for fs calls. */
export function joinRaw(root: string, rel: Buffer): Buffer {
  return Buffer.concat([Buffer.from(root.endsWith("/") ? root : `${root}/`, "utf8"), rel]);
}
