/**
 * Every rule of the front table matches its examples and none of its near misses, and the table's general
 * behaviour: options stepped over, wrappers and `sh -c` looked through, variables left to the kernel.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Effect } from "./effects.js";
import { frontArgv, frontShell } from "./front.js";
import { FRONT_RULES, type FrontRule } from "./front-table.js";

const opts = { cwd: "/r" };

/** Whether `effects` hold what `rule` produces. */
function fromRule(rule: FrontRule, effects: readonly Effect[]): boolean {
  const does = rule.does;
  return "deny" in does
    ? effects.some((e) => e.kind === "deny" && e.rule === does.deny)
    : effects.some((e) => e.kind === "write" && (does.sink === true) === (e.sink === true));
}

describe("the front table", () => {
  it("has unique ids, and every rule has examples both ways", () => {
    const ids = FRONT_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of FRONT_RULES) {
      expect(r.examples.match.length, r.id).toBeGreaterThan(0);
      expect(r.examples.miss.length, r.id).toBeGreaterThan(0);
    }
  });

  for (const rule of FRONT_RULES) {
    describe(rule.id, () => {
      for (const ex of rule.examples.match) {
        it(`matches \`${ex}\``, () => expect(fromRule(rule, frontShell(ex, opts))).toBe(true));
      }
      for (const ex of rule.examples.miss) {
        it(`leaves \`${ex}\` alone`, () => expect(fromRule(rule, frontShell(ex, opts))).toBe(false));
      }
    });
  }
});

describe("the front walk", () => {
  const rules = (c: string) => frontShell(c, opts).map((e) => (e.kind === "deny" ? e.rule : e.kind));

  it("looks through wrappers and nested shells", () => {
    expect(rules("env A=1 git push")).toEqual(["guard.git-mutation"]);
    expect(rules("timeout 5 npm install")).toEqual(["guard.install"]);
    expect(rules("xargs -n 1 rm")).toEqual([]); // no operand to write: the kernel decides
    expect(rules("bash -lc 'git commit -m x'")).toEqual(["guard.git-mutation"]);
    expect(rules("sudo -u me claude -p hi")).toEqual(["guard.spawn"]);
    expect(rules("command -v git")).toEqual([]);
  });

  it("gives redirects and writer operands as writes with their directories", () => {
    const e = frontShell("cd src && echo x > a.ts; cp a.ts b.ts", opts);
    const writes = e.filter((x) => x.kind === "write");
    expect(writes.map((w) => (w.kind === "write" ? [w.target.text, w.cwds] : []))).toEqual([
      ["a.ts", ["/r", "/r/src"]],
      ["b.ts", ["/r", "/r/src"]],
    ]);
  });

  it("leaves what it cannot read to the kernel: variables, globs, unparsable input", () => {
    expect(rules('"$X" push')).toEqual([]);
    expect(rules("git $VERB")).toEqual([]);
    expect(rules("echo 'unterminated")).toEqual([]);
    expect(rules('node -e \'require("fs").writeFileSync("x", "")\'')).toEqual([]);
  });

  it("reads Codex's word-list form the same way", () => {
    expect(frontArgv(["git", "push"], opts).map((e) => e.kind)).toEqual(["deny"]);
    expect(
      frontArgv(["bash", "-lc", "npm publish"], opts).map((e) => (e.kind === "deny" ? e.rule : "")),
    ).toEqual(["guard.publish"]);
    expect(frontArgv(["ls", "-la"], opts)).toEqual([]);
  });

  it("refuses past the caps, like the classifier", () => {
    expect(rules(Array(1001).fill("true").join("; "))).toEqual(["guard.input-too-complex"]);
  });

  it("never throws, on any string or word list", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { minLength: 1 }), (c, argv) => {
        expect(Array.isArray(frontShell(c, opts))).toBe(true);
        expect(Array.isArray(frontArgv(argv, opts))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
