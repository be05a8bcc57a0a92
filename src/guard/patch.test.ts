import { describe, expect, it } from "vitest";
import { patchPaths } from "./patch.js";

const wrap = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");

describe("patchPaths", () => {
  it("lists every path with its operation", () => {
    expect(
      patchPaths(
        wrap(
          "*** Add File: src/new.ts",
          "+export {};",
          "*** Update File: src/a.ts",
          "*** Move to: src/b.ts",
          "@@ fn",
          "-x",
          "+y",
          "*** End of File",
          "*** Delete File: old.ts",
        ),
      ),
    ).toEqual({
      ok: true,
      paths: [
        { path: "src/new.ts", op: "add" },
        { path: "src/a.ts", op: "update" },
        { path: "src/b.ts", op: "move" },
        { path: "old.ts", op: "delete" },
      ],
    });
  });

  it("sees indented markers and CRLF line ends", () => {
    const r = patchPaths("*** Begin Patch\r\n  *** Add File: x.ts\r\n+1\r\n*** End Patch\r\n");
    expect(r).toEqual({ ok: true, paths: [{ path: "x.ts", op: "add" }] });
  });

  it("does not mistake content lines for markers", () => {
    const r = patchPaths(
      wrap("*** Update File: a.ts", "@@", "+*** Add File: not-a-marker", "-*** Delete File: nor-this"),
    );
    expect(r).toEqual({ ok: true, paths: [{ path: "a.ts", op: "update" }] });
  });

  it.each([
    ["no begin", "*** Add File: x\n+1\n*** End Patch"],
    ["no operation", wrap("@@", "+x")],
    ["an unknown marker", wrap("*** Replace File: x")],
    ["an empty path", wrap("*** Add File: ")],
    ["a path with trailing spaces", wrap("*** Add File: x.ts  ")],
    ["an operation after the end", "*** Begin Patch\n*** End Patch\n*** Add File: x\n"],
    ["two begins", wrap("*** Begin Patch", "*** Add File: x")],
    ["plain text", "just some text"],
  ])("refuses %s", (_l, body) => {
    expect(patchPaths(body).ok).toBe(false);
  });

  it("reads markers with trailing blanks and a path without the space after the colon", () => {
    expect(patchPaths("*** Begin Patch \n*** Add File:x\n*** End of File  \n*** End Patch \n")).toEqual({
      ok: true,
      paths: [{ path: "x", op: "add" }],
    });
  });

  // The reason names the construct, so the leaf can fix the patch instead of guessing.
  it.each([
    ["no begin", "just some text", "no `*** Begin Patch` line"],
    ["no operation", wrap("@@", "+x"), "no file operation"],
    [
      "an operation before the begin",
      "*** Add File: x\n+1\n*** End Patch",
      "a file operation outside `*** Begin Patch` … `*** End Patch`",
    ],
    [
      "an operation after the end",
      "*** Begin Patch\n*** End Patch\n*** Add File: x\n",
      "a file operation outside `*** Begin Patch` … `*** End Patch`",
    ],
    ["two begins", wrap("*** Begin Patch", "*** Add File: x"), "a second `*** Begin Patch`"],
    ["an unknown marker", wrap("*** Replace File: x"), "an unknown patch marker `*** Replace File: x`"],
    [
      "a long unknown marker (cut at 60)",
      wrap(`*** ${"y".repeat(80)}`),
      `an unknown patch marker \`*** ${"y".repeat(56)}\``,
    ],
    ["an empty path", wrap("*** Delete File:"), "the patch path `` is empty or has surrounding spaces"],
    [
      "two spaces before the path",
      wrap("*** Add File:  x"),
      "the patch path ` x` is empty or has surrounding spaces",
    ],
    [
      "trailing spaces",
      wrap("*** Add File: x.ts  "),
      "the patch path `x.ts  ` is empty or has surrounding spaces",
    ],
  ])("refuses %s with its reason", (_l, body, why) => {
    expect(patchPaths(body)).toEqual({ ok: false, why });
  });
});
