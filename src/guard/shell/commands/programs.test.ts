/**
 * Every row of the program table comes to what its examples say, run through the full classifier, and the table
 * names every program once.
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "../classify.js";
import type { Effect } from "../effects.js";
import { commandBase } from "../words.js";
import type { Examples, ProgramSpec } from "./program.js";
import { PROGRAMS as CORE_PROGRAMS, PACKAGE_PROGRAMS, PROGRAM_EXAMPLES, TOOL_PROGRAMS } from "./programs.js";

const PROGRAMS = [...CORE_PROGRAMS, ...TOOL_PROGRAMS, ...PACKAGE_PROGRAMS];

const opts = { cwd: "/r" };

/** Whether `effects` are what the example's kind says, for `row`. */
const COMES_TO: Record<keyof Examples, (effects: readonly Effect[], row: ProgramSpec) => boolean> = {
  read: (e) => e.length === 0,
  write: (e, row) =>
    e.length > 0 && e.every((x) => x.kind === "write" && (x.sink === true) === (row.writes?.sink === true)),
  unknown: (e) => e.some((x) => x.kind === "write-unknown"),
  unclassified: (e) => e.some((x) => x.kind === "deny" && x.rule === "guard.shell-unclassified"),
  deny: (e, row) => e.some((x) => x.kind === "deny" && denyRules(row).includes(x.rule)),
  test: (e) => e.length > 0 && e.every((x) => x.kind === "test"),
  exec: (e) => e.some((x) => x.kind === "exec"),
};

/** The rules a row's outcomes deny by (besides unclassified). */
function denyRules(row: ProgramSpec): string[] {
  return [
    row.always,
    ...(row.words ?? []).map((w) => w.comes),
    ...(row.decide ?? []).map((d) => d.outcome),
  ].flatMap((o) => (o?.kind === "deny" ? [o.rule] : []));
}

const label = (row: ProgramSpec) => row.names.slice(0, 3).join(", ");
const examplesOf = (row: ProgramSpec): Examples => PROGRAM_EXAMPLES[row.names[0] as string] ?? {};

describe("the program table", () => {
  it("names no program twice", () => {
    const names = PROGRAMS.flatMap((r) => r.names);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("gives every row examples of its own programs, and near misses where its options decide", () => {
    expect(Object.keys(PROGRAM_EXAMPLES).sort()).toEqual(PROGRAMS.map((r) => r.names[0]).sort());
    for (const row of PROGRAMS) {
      const all = Object.values(examplesOf(row)).flat();
      expect(all.length, label(row)).toBeGreaterThan(0);
      for (const ex of all) expect(row.names, ex).toContain(commandBase(ex.split(" ")[0] as string));
      // a row that reads its options tells commands apart: it has examples of two outcomes at least
      if (row.always === undefined || row.words !== undefined)
        expect(Object.values(examplesOf(row)).filter((l) => l.length > 0).length, label(row)).toBeGreaterThan(
          1,
        );
    }
  });

  for (const row of PROGRAMS) {
    describe(label(row), () => {
      for (const [kind, list] of Object.entries(examplesOf(row)) as [keyof Examples, readonly string[]][]) {
        for (const ex of list) {
          it(`\`${ex}\` comes to ${kind}`, () => {
            const effects = classifyShell(ex, opts);
            expect(COMES_TO[kind](effects, row), JSON.stringify(effects)).toBe(true);
          });
        }
      }
    });
  }
});
