/**
 * Directory arithmetic for `cd` and `cp … dir/` (./cwd.ts): absolute directories are normalised, `..`, `-`
 * and variables make the directory unknown, a union keeps each directory once, and `intoDir` joins a source's
 * base name only when it has one.
 */

import { describe, expect, it } from "vitest";
import { enter, intoDir, union } from "./cwd.js";
import { word } from "./parse.js";

describe("enter", () => {
  it.each<[string, (string | null)[]]>([
    ["/abs/./x", ["/abs/x", "/abs/x"]],
    ["//abs", ["/abs", "/abs"]],
    ["/abs//x", ["/abs/x", "/abs/x"]],
    ["sub/./x", ["/r/sub/x", null]],
    ["sub//x", ["/r/sub/x", null]],
  ])("from [/r, unknown] into %j", (dir, expected) => {
    expect(enter(["/r", null], word(dir))).toEqual(expected);
  });

  it.each<string>(["", "-", "..", "a/..", "../b", "/abs/../x"])("into %j is unknown", (dir) => {
    expect(enter(["/r"], word(dir))).toEqual([null]);
  });

  it("into a variable or nothing is unknown", () => {
    expect(enter(["/r"], word("\u0000d\u0000"))).toEqual([null]);
    expect(enter(["/r"], undefined)).toEqual([null]);
  });
});

describe("union and intoDir", () => {
  it("union keeps each directory once, in order", () => {
    expect(union(["/a", null], [null, "/b", "/a"])).toEqual(["/a", null, "/b"]);
  });

  it("intoDir joins the source's base name", () => {
    expect(intoDir(word("d"), word("x/y.ts"))).toEqual(word("d/y.ts"));
    expect(intoDir(word("d/"), word("y/"))).toEqual(word("d/y"));
    for (const src of ["", ".", "..", "a/..", "a/."])
      expect(intoDir(word("d"), word(src)), src).toBeUndefined();
    expect(intoDir(word("\u0000d\u0000"), word("y"))).toBeUndefined();
    expect(intoDir(word("d"), word("*", true))).toBeUndefined();
  });
});
