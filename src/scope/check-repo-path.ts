import { dotKind, isDevritesSegment, isGitSegment } from "./_names.js";
import { PRINTABLE_ASCII, reject, show } from "./_violation.js";
import { MAX_PATH_BYTES, type ScopeCheck } from "./types.js";

/** C0, DEL, C1, line/paragraph separators, bidirectional controls (Trojan Source), unpaired surrogates. */
const CONTROL = /[\u0001-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\p{Cs}]/u;
/**
 * Wildcards, and brace expansion with a comma. Square brackets and lone braces are literal: framework route files
 * use them (`app/[slug]/page.tsx`, `routes/{id}.ts`), and an allowlist is always matched exactly, never expanded.
 */
const GLOB = /[*?]|\{[^{}]*,[^{}]*\}/;

/**
 * Character-level rules shared by every entry point: type, empty, length, NUL, control characters.
 * Returns null when the input passes them.
 */
export function checkCharacters(input: unknown): ScopeCheck | null {
  if (typeof input !== "string")
    return reject("scope.empty", "", `expected a path string, got ${typeof input}`);
  if (input.length === 0) return reject("scope.empty", input, "the path is empty");
  // printable ASCII (most paths) has no control character and one byte per character: the Unicode class
  // below is built on first use, which costs a hook more than the rest of the check
  const printable = PRINTABLE_ASCII.test(input);
  const bytes = printable ? input.length : Buffer.byteLength(input, "utf8");
  if (bytes > MAX_PATH_BYTES)
    return reject("scope.too-long", input, `the path is ${bytes} bytes long; the limit is ${MAX_PATH_BYTES}`);
  const nul = input.indexOf("\u0000");
  if (nul >= 0)
    return reject("scope.nul", input, `the path ${show(input)} contains a NUL byte at index ${nul}`);
  const ctl = printable ? null : CONTROL.exec(input);
  if (ctl)
    return reject(
      "scope.control-char",
      input,
      `the path ${show(input)} contains the control character ${show(ctl[0])} at index ${ctl.index}`,
    );
  return null;
}

/** Root forms: UNC / device paths, drive letters, absolute paths. Null when the input has none. */
export function checkRootForms(input: string): ScopeCheck | null {
  if (/^[\\/][\\/]/.test(input))
    return reject("scope.unc", input, `the path ${show(input)} is a UNC or device path`);
  if (/^[A-Za-z]:/.test(input))
    return reject("scope.drive", input, `the path ${show(input)} starts with a drive letter`);
  if (/^[\\/]/.test(input)) return reject("scope.absolute", input, `the path ${show(input)} is absolute`);
  return null;
}

/**
 * Pure, lexical. An allowlist or envelope path must already be canonical: nothing is silently normalised.
 * Accepts only a repository-relative file path with forward slashes and no `.`, `..` or empty segments, no
 * `.git` or `.devrites` segment in any spelling, and no glob characters. The first rule broken is reported.
 */
export function checkRepoPath(input: string): ScopeCheck {
  const chars = checkCharacters(input);
  if (chars) return chars;
  const root = checkRootForms(input);
  if (root) return root;
  const bs = input.indexOf("\\");
  if (bs >= 0)
    return reject("scope.backslash", input, `the path ${show(input)} contains a backslash at index ${bs}`);
  if (input.endsWith("/"))
    return reject("scope.trailing-slash", input, `the path ${show(input)} ends with a slash`);
  const segments = input.split("/");
  for (const [i, seg] of segments.entries()) {
    const where = `segment ${i + 1} (${show(seg)}) of ${show(input)}`;
    if (seg === "") return reject("scope.empty-segment", input, `${where} is empty`);
    const dots = dotKind(seg);
    if (dots === "traversal")
      return reject("scope.traversal", input, `${where} is a parent-directory segment`);
    if (dots === "dot") return reject("scope.dot-segment", input, `${where} is a current-directory segment`);
    if (dots === "blank") return reject("scope.empty-segment", input, `${where} is blank`);
    if (isGitSegment(seg)) return reject("scope.git", input, `${where} names .git`);
    if (isDevritesSegment(seg))
      return reject("scope.devrites", input, `${where} names the .devrites workspace`);
  }
  const glob = GLOB.exec(input);
  if (glob)
    return reject(
      "scope.glob",
      input,
      `the path ${show(input)} contains the glob character ${glob[0]} at index ${glob.index}`,
    );
  return { ok: true, path: input };
}
