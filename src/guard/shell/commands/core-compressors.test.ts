/**
 * gzip, xz, zstd and the other compressors replace their files in place unless an option makes them print, list
 * or test (`-c`, `-l`, `-t`). Such a letter counts only where it is an option: the value of `-S`/`--suffix` (or
 * of another value option) that happens to read `c` leaves the command a writer. See ./test-cx.ts for the notation.
 */

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
  ]);
});

describe("compressors: operands and variable words", () => {
  check([
    // a file whose name holds a dash and a c is still a file
    ["gzip my-cat", GZIP],
    ["gzip notes.c", GZIP],
    ["gzip -- -c", GZIP],
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
