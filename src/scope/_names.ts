/**
 * How one path segment looks to the file systems devrites may run on. Case-insensitive volumes (NTFS, APFS,
 * HFS+), HFS+ ignoring invisible code points, NTFS dropping trailing dots and spaces, `name:stream` alternate
 * data streams and 8.3 short names all let a harmless-looking segment open `.git` or `.devrites`. We reject
 * every spelling on every OS and never ask the file system whether it is case-sensitive.
 */

/**
 * Code points HFS+ ignores in names (git's `is_hfs_dotgit` list), widened to all default-ignorables. Built on
 * first use: the bundler turns it into `new RegExp`, which builds the Unicode set at once (a cost every hook's
 * start would pay; see `docs/hooks.md`, Speed), and most segments are ASCII and never need it.
 */
let ignorable: RegExp | undefined;

/** ASCII only: NFKC leaves it unchanged and it has no default-ignorable code points. */
const ASCII = /^[\u0000-\u007f]*$/;

/** The segment as NFKC with the default-ignorable code points dropped. */
function visible(segment: string): string {
  if (ASCII.test(segment)) return segment;
  ignorable ??= /\p{Default_Ignorable_Code_Point}/gu;
  return segment.normalize("NFKC").replace(ignorable, "");
}

/** Fold a segment to the name a permissive file system might resolve it to. */
export function foldSegment(segment: string): string {
  let s = visible(segment);
  // Upper then lower so that e.g. dotless `ı` (→ I) and long `ſ` (→ S) fold like their ASCII letters.
  s = s.toUpperCase().toLowerCase();
  const colon = s.indexOf(":");
  if (colon >= 0) s = s.slice(0, colon); // NTFS `name:stream` and `name::$INDEX_ALLOCATION` open `name`
  return s.replace(/[. ]+$/, ""); // NTFS drops trailing dots and spaces
}

/** `.git` in any spelling, including its 8.3 short name `GIT~1`. */
export function isGitSegment(segment: string): boolean {
  const f = foldSegment(segment);
  return f === ".git" || /^git~[0-9]+$/.test(f);
}

/** `.devrites` in any spelling, including its 8.3 short name `DEVRIT~1`. */
export function isDevritesSegment(segment: string): boolean {
  const f = foldSegment(segment);
  return f === ".devrites" || /^devrit~[0-9]+$/.test(f);
}

export type DotKind = "traversal" | "dot" | "blank" | null;

/**
 * Segments that are, or on some file system become, `.` or `..` or nothing: `..`, `.`, `...`, `.. `, ` `,
 * `．．` (fullwidth), `.\u200C.`. Everything made only of dots and spaces is rejected.
 */
export function dotKind(segment: string): DotKind {
  const s = visible(segment);
  if (!/^[. ]*$/.test(s)) return null;
  if (s.includes("..")) return "traversal";
  if (s.includes(".")) return "dot";
  return "blank";
}
