/**
 * gzip, xz, zstd and the other compressors replace their files in place unless an option makes them print, list
 * or test (`-c`, `-l`, `-t`). Such a letter counts only where it is an option: the value of `-S`/`--suffix` (or
 * of another value option) that happens to read `c` leaves the command a writer. See ./test-cx.ts for the notation.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { runHandler } from "./test-cx.js";

const GZIP = ["write-unknown: `gzip` replaces files in place"];
const XZ = ["write-unknown: `xz` replaces files in place"];
const ZSTD = ["write-unknown: `zstd` replaces files in place"];

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

describe("compressors: stdout, list and test options read only", () => {
  check([
    ["gzip -c notes", []],
    ["gzip -9c notes", []],
    ["gzip -kl notes", []],
    ["xz -T0 -c notes", []],
    ["xz -dct notes", []],
    ["gzip --stdout notes", []],
    ["gzip -c -S .z notes", []],
    ['gzip -c "$f"', []],
    ["zstd -d -c a", []],
    ["gzip -cS .z data", []],
    ["gzip --keep -c data", []],
    ["gzip --k -c data", []],
    ["gzip --suffix=.z -c data", []],
    ["xz --format=xz -c data", []],
  ]);
});

describe("compressors: a letter that is an option's value is not -c", () => {
  check([
    // `-Sc`: the suffix is `c`, so notes becomes notesc and notes is removed
    ["gzip -Sc notes", GZIP],
    ["gzip -S -c notes", GZIP],
    ["gzip --suffix -c notes", GZIP],
    ["gzip --suf -c notes", GZIP],
    ["gzip --suffix=c notes", GZIP],
    ["gzip -S.tgz notes", GZIP],
    ["xz -Sc notes", XZ],
    ["xz -T -c notes", XZ],
    ["xz --threads -c notes", XZ],
    ["zstd -oc notes", ZSTD],
    ["zstd -o -c notes", ZSTD],
    // a long option that takes a value, or an abbreviation of one, takes the next word
    ["gzip --s -c data", GZIP],
    ["xz --memlimit -c data", XZ],
    ["xz --files -c data", XZ],
  ]);
});

describe("compressors: each long value option takes the next word", () => {
  it.each([
    ["xz", "format"],
    ["xz", "check"],
    ["xz", "memlimit-compress"],
    ["xz", "memlimit-decompress"],
    ["xz", "block-size"],
    ["xz", "block-list"],
    ["xz", "files0"],
    ["xz", "filters"],
    ["zstd", "output-dir-flat"],
    ["zstd", "output-dir-mirror"],
    ["zstd", "patch-from"],
  ])("%s --%s -c data writes", (cmd, option) => {
    expect(runHandler(CORE, `${cmd} --${option} -c data`)).toEqual([
      `write-unknown: \`${cmd}\` replaces files in place`,
    ]);
    expect(runHandler(CORE, `${cmd} --${option}=v -c data`)).toEqual([]);
  });
});

describe("compressors: operands and variable words", () => {
  check([
    // a file whose name holds a dash and a c is still a file
    ["gzip my-cat", GZIP],
    ["gzip data", GZIP],
    ["gzip notes.c", GZIP],
    ["gzip -- -c", GZIP],
    ["gzip -- data -c", GZIP],
    ["gzip - notes", GZIP],
    ["gzip -1.c notes", GZIP],
    // a variable word before -c may be `-S` (swallowing it) or `--`
    ["gzip $x -c notes", GZIP],
    ['gzip "$x" -c notes', GZIP],
    ["gzip a$x -c notes", GZIP],
    // a quoted word that starts with a letter stays one operand
    ['gzip "a$x" -c notes', []],
  ]);
});

describe("compressors: properties", () => {
  const flags = fc.string({ unit: fc.constantFrom(..."dfkqrv19"), maxLength: 4 });
  it("without a c, l or t anywhere the command replaces files", () => {
    const words = fc.array(fc.string({ unit: fc.constantFrom(..."-abdfkqrsSvzoT019."), minLength: 1 }), {
      maxLength: 5,
    });
    fc.assert(
      fc.property(words, (ws) => {
        expect(runHandler(CORE, ["gzip", ...ws].join(" "))).toEqual(GZIP);
      }),
    );
  });
  it("a -c right after a value option is its value; the same -c as its own option reads only", () => {
    fc.assert(
      fc.property(flags, fc.constantFrom(..."SoT"), (f, v) => {
        expect(runHandler(CORE, `xz -${f}${v}c data`)).toEqual(XZ);
        expect(runHandler(CORE, `xz -${f}${v} -c data`)).toEqual(XZ);
        expect(runHandler(CORE, `xz -${f}c data`)).toEqual([]);
        expect(runHandler(CORE, `xz -${f}${v} x -c data`)).toEqual([]);
      }),
    );
  });
});
