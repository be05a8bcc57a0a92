import { describe, expect, it } from "vitest";
import { diffLines, unifiedDiff } from "./diff.js";

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", "x", "y")).toBe("");
  });

  it("shows one changed line with three lines of context", () => {
    const old = "1\n2\n3\n4\n5\n6\n7\n8\n";
    const next = "1\n2\n3\n4\nFIVE\n6\n7\n8\n";
    expect(unifiedDiff(old, next, "a (on disk)", "a (generated)")).toBe(
      [
        "--- a (on disk)",
        "+++ a (generated)",
        "@@ -2,7 +2,7 @@",
        " 2",
        " 3",
        " 4",
        "-5",
        "+FIVE",
        " 6",
        " 7",
        " 8",
        "",
      ].join("\n"),
    );
  });

  it("keeps distant changes in separate hunks with correct line numbers", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    const next = [...lines];
    next[1] = "X";
    next.splice(15, 1);
    const d = unifiedDiff(`${lines.join("\n")}\n`, `${next.join("\n")}\n`, "a", "b");
    expect(d.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,5 +1,5 @@", "@@ -13,7 +13,6 @@"]);
  });

  it("handles creation and deletion of every line", () => {
    expect(unifiedDiff("", "a\n", "x", "y")).toBe("--- x\n+++ y\n@@ -0,0 +1,1 @@\n+a\n");
    expect(unifiedDiff("a\nb\n", "", "x", "y")).toBe("--- x\n+++ y\n@@ -1,2 +0,0 @@\n-a\n-b\n");
  });

  it("finds a minimal edit between reordered lines", () => {
    const ops = diffLines("a\nb\nc\n", "b\nc\na\n");
    expect(ops.filter((o) => o.kind !== " ")).toEqual([
      { kind: "-", line: "a" },
      { kind: "+", line: "a" },
    ]);
  });
});
