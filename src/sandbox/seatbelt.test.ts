/**
 * The macOS profile's text (it cannot run here: see seatbelt.ts). A small SBPL reader below parses the
 * generated profile back, so the tests check what `sandbox-exec` would read, not a substring of it.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SANDBOX_EXEC, SeatbeltSpecError, sbplString, seatbeltArgv, seatbeltProfile } from "./seatbelt.js";

type Sexp = string | { str: string } | Sexp[];

/** Read SBPL as a Scheme reader does: lists, atoms, `;` comments, strings with `\` escaping the next char. */
function readSbpl(text: string): Sexp[] {
  let i = 0;
  const top: Sexp[] = [];
  const stack: Sexp[][] = [top];
  while (i < text.length) {
    const c = text[i]!;
    if (c === "(") {
      const list: Sexp[] = [];
      stack.at(-1)!.push(list);
      stack.push(list);
      i++;
    } else if (c === ")") {
      if (stack.length === 1) throw new Error(`unbalanced ) at ${i}`);
      stack.pop();
      i++;
    } else if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const [str, end] = readString(text, i);
      stack.at(-1)!.push({ str });
      i = end;
    } else {
      let j = i;
      while (j < text.length && !/[\s()";]/.test(text[j]!)) j++;
      stack.at(-1)!.push(text.slice(i, j));
      i = j;
    }
  }
  if (stack.length !== 1) throw new Error("unclosed (");
  return top;
}

/** The string literal starting at `start`: its value and the index after its closing quote. */
function readString(text: string, start: number): [string, number] {
  let out = "";
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      i++;
      if (i >= text.length) break;
      out += text[i];
    } else if (c === '"') {
      return [out, i + 1];
    } else {
      out += c;
    }
  }
  throw new Error("unterminated string");
}

/** Characters that matter to an SBPL reader, often, and any other character. */
const unit = fc.oneof(
  fc.constantFrom("\\", '"', "\n", "(", ")", ";", " ", "#", "\0"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

const forms = (profile: string) => readSbpl(profile) as Sexp[][];
const head = (f: Sexp[]) => f.slice(0, 2).join(" ");
const find = (profile: string, h: string) => forms(profile).filter((f) => head(f) === h);

describe("sbplString", () => {
  it.each([
    ["/plain/path", '"/plain/path"'],
    ['/with "quotes"', '"/with \\"quotes\\""'],
    ["/back\\slash\\", '"/back\\\\slash\\\\"'],
    ['/a\\"b', '"/a\\\\\\"b"'],
    ["/new\nline", '"/new\nline"'],
    ["/paren) (allow default", '"/paren) (allow default"'],
  ])("writes %j as %s", (s, want) => {
    expect(sbplString(s)).toBe(want);
  });
  it("refuses a NUL, with a stable code", () => {
    expect(() => sbplString("/a\0b")).toThrow(SeatbeltSpecError);
    try {
      sbplString("/a\0");
    } catch (e) {
      expect((e as SeatbeltSpecError).code).toBe("seatbelt.nul-byte");
    }
  });
  it("reads back as exactly the string it was given, ending at its own closing quote (any string)", () => {
    fc.assert(
      fc.property(fc.string({ unit }), fc.string({ unit }), (s, after) => {
        if (s.includes("\0")) {
          expect(() => sbplString(s)).toThrow(SeatbeltSpecError);
          return;
        }
        const lit = sbplString(s);
        const [value, end] = readString(`${lit}${after}`, 0);
        expect(value).toBe(s);
        expect(end).toBe(lit.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe("seatbeltProfile", () => {
  const spec = {
    readWrite: ["/Users/u/.devrites/scratch"],
    writeFiles: ["/Users/u/repo/src/a.ts"],
    denyNetwork: true,
  };

  it("denies by default, opens reads, and allows writes only where the spec says", () => {
    const p = seatbeltProfile(spec);
    const f = forms(p);
    expect(f[0]).toEqual(["version", "1"]);
    expect(f[1]).toEqual(["deny", "default"]);
    expect(find(p, "allow file-read*")).toEqual([["allow", "file-read*"]]);
    expect(find(p, "allow file-write*")).toEqual([
      ["allow", "file-write*", ["subpath", { str: "/Users/u/.devrites/scratch" }]],
    ]);
    expect(find(p, "allow file-write-data")).toEqual([
      [
        "allow",
        "file-write-data",
        ["literal", { str: "/dev/null" }],
        ["literal", { str: "/dev/zero" }],
        ["literal", { str: "/dev/dtracehelper" }],
      ],
      ["allow", "file-write-data", ["literal", { str: "/Users/u/repo/src/a.ts" }]],
    ]);
    // processes may only signal their own sandbox; nothing reaches LaunchServices or Apple events
    expect(find(p, "allow signal")).toEqual([["allow", "signal", ["target", "same-sandbox"]]]);
    expect(JSON.stringify(forms(p))).not.toMatch(/launchservices|appleevent|"allow","default"/i);
  });

  it("allows no network when denyNetwork, and the network and its resolver otherwise", () => {
    const none = seatbeltProfile(spec);
    expect(forms(none).filter((f) => String(f[1]).startsWith("network") || f[1] === "system-socket")).toEqual(
      [],
    );
    expect(none).not.toMatch(/mDNSResponder|dnssd/);
    const net = seatbeltProfile({ ...spec, denyNetwork: false });
    expect(find(net, "allow network*")).toEqual([["allow", "network*"]]);
    expect(find(net, "allow system-socket")).toHaveLength(1);
    expect(net).toMatch(/"com\.apple\.mDNSResponder"/);
  });

  it("has no write rule at all for an empty spec (a read-only role)", () => {
    const p = seatbeltProfile({ readWrite: [], writeFiles: [], denyNetwork: true });
    expect(find(p, "allow file-write*")).toEqual([]);
    expect(find(p, "allow file-write-data")).toHaveLength(1); // the null devices only
  });

  it.each([
    ["a relative path", { readWrite: ["scratch"] }],
    ["a .. segment", { readWrite: ["/a/../etc"] }],
    ["a . segment", { writeFiles: ["/a/./b"] }],
    ["an empty segment", { writeFiles: ["/a//b"] }],
    ["a trailing slash", { readWrite: ["/a/"] }],
    ["an empty path", { writeFiles: [""] }],
  ])("refuses %s with a hint", (_name, part) => {
    const bad = { readWrite: [], writeFiles: [], denyNetwork: true, ...part };
    expect(() => seatbeltProfile(bad)).toThrow(/not a canonical absolute path \(hint: pass fs\.realpathSync/);
  });

  it("keeps every path inside its own string literal (any segment text: quotes, backslashes, newlines, parens)", () => {
    const segment = fc
      .string({ unit, minLength: 1, maxLength: 10 })
      .filter((s) => !s.includes("/") && !s.includes("\0") && s !== "." && s !== "..");
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(
        fc.array(path, { maxLength: 3 }),
        fc.array(path, { maxLength: 3 }),
        fc.boolean(),
        (dirs, files, deny) => {
          const p = seatbeltProfile({ readWrite: dirs, writeFiles: files, denyNetwork: deny });
          const writeAll = find(p, "allow file-write*");
          const writeData = find(p, "allow file-write-data");
          expect(writeAll.flatMap((f) => f.slice(2))).toEqual(dirs.map((d) => ["subpath", { str: d }]));
          expect(writeData.slice(1).flatMap((f) => f.slice(2))).toEqual(
            files.map((x) => ["literal", { str: x }]),
          );
          // the same forms as for plain paths: nothing a path holds adds, drops or changes a rule
          const plain = seatbeltProfile({
            readWrite: dirs.map((_, i) => `/d${i}`),
            writeFiles: files.map((_, i) => `/f${i}`),
            denyNetwork: deny,
          });
          expect(forms(p).map(head)).toEqual(forms(plain).map(head));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses a NUL in any path", () => {
    expect(() => seatbeltProfile({ readWrite: ["/a\0"], writeFiles: [], denyNetwork: true })).toThrow(
      /NUL byte/,
    );
  });
});

describe("seatbeltArgv", () => {
  it("runs the program through sandbox-exec with the profile, the program's own arguments untouched", () => {
    expect(seatbeltArgv("(version 1)", ["bash", "-c", "-p x"])).toEqual([
      SANDBOX_EXEC,
      "-p",
      "(version 1)",
      "--",
      "bash",
      "-c",
      "-p x",
    ]);
    expect(() => seatbeltArgv("(version 1)", [])).toThrow(/no program/);
  });
});
