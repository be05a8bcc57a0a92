/** What is at a manifest path. `missing`: nothing (deleted, or never there); `submodule`: a nested repository. */
export type EntryType = "file" | "symlink" | "missing" | "submodule";

/**
 * One path's state. `sha256`: file → SHA-256 of its bytes; symlink → SHA-256 of the link text (never followed);
 * missing → null; submodule → the commit it has checked out, or null when it has none.
 * A path that is not valid UTF-8 is written as NUL + `hex:` + its bytes in hex: it can neither collide with
 * nor pass as a real repository path.
 */
export interface ManifestEntry {
  path: string;
  type: EntryType;
  /** The owner-execute bit (what git records as mode 100755). False for everything but files. */
  exec: boolean;
  sha256: string | null;
}

/** The dirty manifest at one instant: every path that differs from `head`, sorted by path bytes. */
export interface TreeSnapshot {
  /** Commit id, `unborn` or `no-git`. */
  head: string;
  entries: ManifestEntry[];
  /** Work done, so tests and `bench` can see that cost follows dirty files, not repository size. */
  stats: { hashedFiles: number; hashedBytes: number };
  /**
   * Ignored paths' stat signatures (`entriesFor` turns them into entries for one packet). Absent outside git.
   */
  ignored?: import("./_extra.js").IgnoredTree[];
}

/** A path whose dirty record differs between two snapshots. `null` = same as HEAD (not dirty). */
export interface TreeChange {
  path: string;
  before: ManifestEntry | null;
  after: ManifestEntry | null;
}
