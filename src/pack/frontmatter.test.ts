import { describe, expect, it } from "vitest";
import { lineOf, parseMarkdownDoc, parseYamlWithLines } from "./frontmatter.js";

const P = "agents/x.md";

describe("parseMarkdownDoc", () => {
  it("splits frontmatter and body and records key lines", () => {
    const r = parseMarkdownDoc(P, "---\nname: a\ndevrites:\n  dispatches: [b, c]\n---\n# Body\nline\n");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.doc.data).toEqual({ name: "a", devrites: { dispatches: ["b", "c"] } });
    expect(r.doc.keyLines).toMatchObject({
      name: 2,
      devrites: 3,
      "devrites.dispatches": 4,
      "devrites.dispatches.0": 4,
    });
    expect(r.doc.bodyLine).toBe(6);
    expect(r.doc.body).toBe("# Body\nline\n");
    expect(r.doc.frontmatterText).toBe("name: a\ndevrites:\n  dispatches: [b, c]");
  });

  it("accepts CRLF line endings and a byte-order mark", () => {
    const r = parseMarkdownDoc(P, "\uFEFF---\r\nname: a\r\n---\r\nbody\r\n");
    expect(r.ok && r.doc.data).toEqual({ name: "a" });
    expect(r.ok && r.doc.bodyLine).toBe(4);
  });

  it("reports a file without frontmatter as pack.frontmatter-missing on line 1", () => {
    const r = parseMarkdownDoc(P, "# just a body\n");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics).toMatchObject([{ code: "pack.frontmatter-missing", path: P, line: 1 }]);
  });

  it("does not take a leading blank line or `----` for a frontmatter start", () => {
    for (const text of ["\n---\nname: a\n---\n", "----\nname: a\n----\n"]) {
      const r = parseMarkdownDoc(P, text);
      expect(!r.ok && r.diagnostics[0]?.code).toBe("pack.frontmatter-missing");
    }
  });

  it("reports an unclosed block as pack.frontmatter-malformed", () => {
    const r = parseMarkdownDoc(P, "---\nname: a\n# Body\n");
    expect(!r.ok && r.diagnostics[0]).toMatchObject({ code: "pack.frontmatter-malformed", line: 1 });
  });

  it("reports a YAML syntax error with its line", () => {
    const r = parseMarkdownDoc(P, "---\nname: a\ndescription: Use to: x\n---\nbody\n");
    expect(!r.ok && r.diagnostics[0]).toMatchObject({ code: "pack.frontmatter-malformed", path: P, line: 3 });
  });

  it("rejects duplicate keys", () => {
    const r = parseMarkdownDoc(P, "---\nname: a\nname: b\n---\n");
    expect(!r.ok && r.diagnostics[0]).toMatchObject({ code: "pack.frontmatter-malformed", line: 3 });
  });

  it("rejects an empty block and a block that is not a mapping", () => {
    for (const text of ["---\n---\nbody\n", "---\n- a\n- b\n---\n", "---\njust text\n---\n"]) {
      const r = parseMarkdownDoc(P, text);
      expect(!r.ok && r.diagnostics[0]?.code).toBe("pack.frontmatter-malformed");
    }
  });

  it("rejects a `---x` line inside the block (gray-matter would close there)", () => {
    const r = parseMarkdownDoc(P, "---\nname: a\n---x\ndescription: b\n---\nbody\n");
    expect(!r.ok && r.diagnostics[0]).toMatchObject({ code: "pack.frontmatter-malformed", line: 5 });
  });
});

describe("parseYamlWithLines", () => {
  it("adds the line offset and uses the given code", () => {
    const r = parseYamlWithLines("h.yaml", "a: [1\n", 10, "pack.hooks-malformed");
    expect(!r.ok && r.diagnostics[0]).toMatchObject({ code: "pack.hooks-malformed", path: "h.yaml" });
    expect(!r.ok && (r.diagnostics[0]?.line ?? 0) > 10).toBe(true);
  });
});

describe("lineOf", () => {
  it("falls back to the nearest ancestor with a line", () => {
    const lines = { devrites: 3, "devrites.route": 5 };
    expect(lineOf(lines, "devrites.route.hints.2")).toBe(5);
    expect(lineOf(lines, "devrites.phase")).toBe(3);
    expect(lineOf(lines, "name")).toBeUndefined();
  });
});
