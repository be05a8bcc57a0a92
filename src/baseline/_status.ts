/** A path `git status` reported, as raw bytes, with what git said about it. */
export interface StatusPath {
  raw: Buffer;
  /** git marked it a submodule (gitlink), or listed an untracked directory (a nested repository). */
  repoLike: boolean;
  /** Listed as ignored (`!`); a directory when `repoLike` (it ended with `/`). */
  ignored?: boolean;
  /** The index's side of a changed record: its modes and object names (`mI hI`, or every stage of a conflict). */
  index?: string;
}

/** Fields before the path in each porcelain v2 record type. */
const FIELDS_BEFORE_PATH: Record<string, number> = { "1": 8, "2": 9, u: 10 };

/**
 * Parse `git status --porcelain=v2 -z`. Pure. Unknown record types throw: a format we do not understand must
 * not turn into "nothing is dirty".
 */
export function parsePorcelainV2(out: Buffer): StatusPath[] {
  const records = splitNul(out);
  const paths: StatusPath[] = [];
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    const kind = String.fromCharCode(rec[0] ?? 0);
    if (rec[1] !== 0x20)
      throw new Error(`unexpected git status record: ${JSON.stringify(rec.toString("latin1"))}`);
    if (kind === "#") continue;
    if (kind === "?" || kind === "!") {
      const raw = rec.subarray(2);
      const dir = raw[raw.length - 1] === 0x2f;
      paths.push({
        raw: dir ? raw.subarray(0, raw.length - 1) : raw,
        repoLike: dir,
        ...(kind === "!" ? { ignored: true } : {}),
      });
      continue;
    }
    const n = FIELDS_BEFORE_PATH[kind];
    if (n === undefined)
      throw new Error(`unknown git status record type ${JSON.stringify(kind)}: ${rec.toString("latin1")}`);
    const spaces: number[] = [];
    for (let at = rec.indexOf(0x20); at >= 0 && spaces.length < n; at = rec.indexOf(0x20, at + 1))
      spaces.push(at);
    if (spaces.length < n)
      throw new Error(`truncated git status record: ${JSON.stringify(rec.toString("latin1"))}`);
    // Field 3 is the submodule state: `N...` for a plain path, `S<c><m><u>` for a submodule.
    const repoLike = rec[spaces[1]! + 1] === 0x53;
    const at = spaces[n - 1]!;
    // Tokens after the type: `1`/`2` mI (4) and hI (7); `u` the three stages' modes (3-5) and objects (7-9).
    const field = (k: number) => rec.subarray(spaces[k - 1]! + 1, spaces[k]!).toString("latin1");
    const index = kind === "u" ? [3, 4, 5, 7, 8, 9].map(field).join(" ") : `${field(4)} ${field(7)}`;
    paths.push({ raw: rec.subarray(at + 1), repoLike, index });
    if (kind === "2") {
      const orig = records[++i];
      if (orig === undefined) throw new Error("git status rename record without its original path");
      paths.push({ raw: orig, repoLike: false });
    }
  }
  return paths;
}

/**
 * Parse `git ls-files -z -v` and keep the entries git status cannot see changes to: assume-unchanged (lower-case
 * tag) and skip-worktree (`S`). Pure.
 */
export function parseHiddenIndexEntries(out: Buffer): { raw: Buffer; skipWorktree: boolean }[] {
  const hidden: { raw: Buffer; skipWorktree: boolean }[] = [];
  for (const rec of splitNul(out)) {
    const tag = rec[0] ?? 0;
    if (rec[1] !== 0x20)
      throw new Error(`unexpected git ls-files record: ${JSON.stringify(rec.toString("latin1"))}`);
    const assumeUnchanged = tag >= 0x61 && tag <= 0x7a;
    const skipWorktree = tag === 0x53 || tag === 0x73;
    if (assumeUnchanged || skipWorktree) hidden.push({ raw: rec.subarray(2), skipWorktree });
  }
  return hidden;
}

function splitNul(out: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (;;) {
    const end = out.indexOf(0, start);
    if (end < 0) break;
    parts.push(out.subarray(start, end));
    start = end + 1;
  }
  if (start < out.length) throw new Error("git output does not end with NUL");
  return parts;
}
