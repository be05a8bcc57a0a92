import { describe, expect, it } from "vitest";
import { parseArgs } from "./options.js";
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
