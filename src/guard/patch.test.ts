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
});
