/**
 * parseArgs reports every long option its spec does not list as unknown: with no long options of some kind in
 * the spec, no `--name` (or `--name=value`) may be taken for one.
 */

import { describe, expect, it } from "vitest";
import { parseArgs } from "./options.js";
import { word } from "./parse.js";

const LETTERS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"];

describe("parseArgs without long options", () => {
  it("reports every `--x` and `--x=v` as unknown", () => {
    const args = LETTERS.flatMap((c) => [`--${c}`, `--${c}=v`]);
    const p = parseArgs(
      args.map((a) => word(a)),
      { flags: "a", values: "o" },
    );
    expect(p.opts).toEqual([]);
    expect(p.unknown).toEqual(args);
  });

  it.each([
    ["flags only", { longFlags: ["all"] }, "--all"],
    ["values only", { longValues: ["output"] }, "--output=v"],
    ["optional values only", { longOptional: ["color"] }, "--color"],
  ])("with %s, only those are known", (_label, spec, known) => {
    const args = [known, ...LETTERS.filter((c) => c !== known[2]).map((c) => `--${c}`)];
    const p = parseArgs(
      args.map((a) => word(a)),
      spec,
    );
    expect(p.opts.map((o) => o.name)).toEqual([known.split("=")[0]]);
    expect(p.unknown).toEqual(args.slice(1));
  });
});
