import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dotKind, foldSegment, isDevritesSegment, isGitSegment } from "./_names.js";

/** The fold without the ASCII shortcut: what `foldSegment` computed before it, for every input. */
function slowFold(segment: string): string {
  let s = segment.normalize("NFKC").replace(/\p{Default_Ignorable_Code_Point}/gu, "");
  s = s.toUpperCase().toLowerCase();
  const colon = s.indexOf(":");
  if (colon >= 0) s = s.slice(0, colon);
  return s.replace(/[. ]+$/, "");
}

function slowDotKind(segment: string): ReturnType<typeof dotKind> {
  const s = segment.normalize("NFKC").replace(/\p{Default_Ignorable_Code_Point}/gu, "");
  if (!/^[. ]*$/.test(s)) return null;
  if (s.includes("..")) return "traversal";
  if (s.includes(".")) return "dot";
  return "blank";
}

/** Segments near the names that matter, in ASCII and out of it. */
const segment = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(
      ".",
      " ",
      "g",
      "G",
      "i",
      "t",
      "~",
      "1",
      ":",
      "\u200c",
      "\u00ad",
      "\uff0e",
      "ı",
      "ſ",
      "\ud800",
    ),
    maxLength: 10,
  }),
  fc.constantFrom(
    ".git",
    ".GIT",
    "GIT~1",
    ".git.",
    ".git:$DATA",
    ".devrites",
    "DEVRIT~1",
    "..",
    ". .",
    "src",
  ),
);

describe("path segment names", () => {
  it("fold and classify exactly as the full Unicode path does, ASCII shortcut or not", () => {
    fc.assert(
      fc.property(segment, (s) => {
        expect(foldSegment(s)).toBe(slowFold(s));
        expect(dotKind(s)).toBe(slowDotKind(s));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    [".git", true],
    [".GIT.", true],
    ["git~12", true],
    [".g\u200cit", true],
    [".git:stream", true],
    [".gi", false],
    ["git", false],
    [".gitignore", false],
  ])("isGitSegment(%j) is %s", (s, expected) => {
    expect(isGitSegment(s)).toBe(expected);
  });

  it.each([
    [".devrites", true],
    ["DEVRIT~1", true],
    [".devrites\u00ad", true],
    [".devrite", false],
    ["devrites", false],
  ])("isDevritesSegment(%j) is %s", (s, expected) => {
    expect(isDevritesSegment(s)).toBe(expected);
  });

  it.each([
    ["..", "traversal"],
    ["\uff0e\uff0e", "traversal"],
    [".\u200c.", "traversal"],
    [".", "dot"],
    [" ", "blank"],
    ["", "blank"],
    ["a.", null],
    ["\u00e9", null],
  ])("dotKind(%j) is %j", (s, expected) => {
    expect(dotKind(s)).toBe(expected);
  });
});
