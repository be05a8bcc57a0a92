import { describe, expect, it } from "vitest";
import { hasOpt, optValues, parseArgs } from "./options.js";
import { word } from "./parse.js";

const ws = (...xs: string[]) => xs.map((x) => word(x));

describe("parseArgs", () => {
  const spec = { flags: "abv", values: "o", longFlags: ["verbose", "in-place"], longValues: ["output"] };
  it("reads bundles, attached and separate values", () => {
    const p = parseArgs(ws("-abofile", "x", "-o", "y", "--output=z", "--output", "w", "rest"), spec);
    expect(p.opts.map((o) => `${o.name}=${o.value?.text ?? ""}`)).toEqual([
      "-a=",
      "-b=",
      "-o=file",
      "-o=y",
      "--output=z",
      "--output=w",
    ]);
    expect(p.operands.map((w) => w.text)).toEqual(["x", "rest"]);
  });
  it("expands unambiguous long-option prefixes", () => {
    expect(parseArgs(ws("--in"), spec).opts).toEqual([{ name: "--in-place" }]);
    expect(parseArgs(ws("--outp=f"), spec).opts[0]).toMatchObject({ name: "--output" });
  });
  it("reports unknown options and option-like expansions", () => {
    const p = parseArgs([...ws("-z", "--nope"), word("\u0000x\u0000"), word("*", true)], spec);
    expect(p.unknown).toEqual(["-z", "--nope"]);
    expect(p.ambiguous.map((w) => w.text)).toEqual(["\u0000x\u0000", "*"]);
  });
  it("stops at -- and, in posix mode, at the first operand", () => {
    expect(parseArgs(ws("--", "-a"), spec).operands.map((w) => w.text)).toEqual(["-a"]);
    expect(parseArgs(ws("cmd", "-a"), { ...spec, posix: true }).operands.map((w) => w.text)).toEqual([
      "cmd",
      "-a",
    ]);
  });
});

describe("parseArgs edges a command handler relies on", () => {
  const lit = (text: string) => ({ text, dynamic: false, split: false, glob: false });
  const spec = {
    flags: "a",
    values: "o",
    longFlags: ["in", "in-place", "verbose", "version"],
    longValues: ["output"],
  };

  it("prefers an exact long name over the longer names it prefixes", () => {
    expect(parseArgs(ws("--in"), spec)).toMatchObject({ opts: [{ name: "--in" }], unknown: [] });
    expect(parseArgs(ws("--in-place"), spec)).toMatchObject({ opts: [{ name: "--in-place" }], unknown: [] });
  });

  it("leaves an ambiguous or empty long prefix unknown", () => {
    expect(parseArgs(ws("--ver", "--ve=x"), spec)).toMatchObject({ opts: [], unknown: ["--ver", "--ve=x"] });
    // `--=x` names no option, even when the spec has a single long option.
    expect(parseArgs(ws("--=x"), { longValues: ["output"] })).toMatchObject({ opts: [], unknown: ["--=x"] });
  });

  it("keeps attached values literal: a `--output=f` or `-of` target is a known file", () => {
    expect(parseArgs(ws("--output=f", "-og"), spec).opts).toEqual([
      { name: "--output", value: lit("f") },
      { name: "-o", value: lit("g") },
    ]);
  });

  it("reports a value option at the end without its value as unknown", () => {
    expect(parseArgs(ws("--output"), spec)).toMatchObject({ opts: [], unknown: ["--output"] });
    expect(parseArgs(ws("-ao"), spec)).toMatchObject({ opts: [{ name: "-a" }], unknown: ["-o"] });
  });

  it("reads a lone `-` as an operand (standard input), not an option", () => {
    expect(parseArgs(ws("-", "-a"), spec)).toMatchObject({
      opts: [{ name: "-a" }],
      operands: [{ text: "-" }],
    });
  });

  it("in posix mode stops at an expansion as at any operand", () => {
    const p = parseArgs([word("\u0000x\u0000"), ...ws("-a")], { ...spec, posix: true });
    expect(p.opts).toEqual([]);
    expect(p.operands.map((w) => w.text)).toEqual(["\u0000x\u0000", "-a"]);
  });

  it("optValues returns only the values of the named options", () => {
    const p = parseArgs(ws("-a", "-o", "x", "--in", "--output=y"), spec);
    expect(optValues(p, "-o", "--output", "--in").map((w) => w.text)).toEqual(["x", "y"]);
    expect(hasOpt(p, "--in")).toBe(true);
    expect(hasOpt(p, "--verbose")).toBe(false);
  });
});
