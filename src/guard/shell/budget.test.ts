/**
 * The shell walk answers within a fixed budget on any input: `cd` tracking stays bounded (at most MAX_CWDS
 * directories per command, so the walk is linear), and a call with more simple commands or words than the caps
 * is refused as `guard.input-too-complex` instead of being walked. The property measures the walk's own step
 * count on adversarial generated commands (repeated `cd`, `cd ..`, `cd -`, `pushd`, nested `sh -c`, wrappers),
 * and a generous wall budget for the whole decision, far inside the hook's 3 s deadline.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide, MAX_COMMAND_CHARS } from "../decide.js";
import type { GuardContext } from "../types.js";
import { classifyShellCounted, MAX_SIMPLE_COMMANDS, MAX_WORDS } from "./classify.js";
import { MAX_CWDS, union } from "./cwd.js";
import { frontShellCounted } from "./front.js";

const opts = { cwd: "/r" };
/** Nesting levels the walk allows (`MAX_DEPTH` in ./classify.ts) plus the top level. */
const NESTING = 9;
const tooComplex = (effects: ReturnType<typeof classifyShellCounted>["effects"]) =>
  effects.filter((e) => e.kind === "deny" && e.rule === "guard.input-too-complex");

describe("the cd set stays bounded", () => {
  it("collapses to unknown past MAX_CWDS, keeping each directory once below it", () => {
    const dirs = Array.from({ length: MAX_CWDS }, (_, i) => `/d${i}`);
    expect(union(dirs.slice(0, 4), dirs.slice(2, 6))).toEqual(dirs.slice(0, 6));
    expect(union(dirs, [])).toEqual(dirs); // exactly at the cap (near miss)
    expect(union(dirs, ["/d0"])).toEqual(dirs);
    expect(union(dirs, ["/new"])).toEqual([null]);
  });

  it("a relative write after many cds is an unknown target, an absolute one is still judged by path", () => {
    const cds = "cd a; ".repeat(MAX_CWDS + 4);
    const rel = classifyShellCounted(`${cds}echo x > f`, opts);
    expect(rel.effects.at(-1)).toMatchObject({ kind: "write", cwds: [null] });
    const abs = classifyShellCounted(`${cds}echo x > /r/f`, opts);
    expect(abs.effects.at(-1)).toMatchObject({ kind: "write", target: { text: "/r/f" } });
    // below the cap every directory is still followed (near miss)
    const few = classifyShellCounted("cd a; cd b; echo x > f", opts);
    expect(few.effects.at(-1)).toMatchObject({ cwds: ["/r", "/r/a", "/r/b", "/r/a/b"] });
  });
});

describe("guard.input-too-complex", () => {
  it(`refuses more than ${MAX_SIMPLE_COMMANDS} simple commands; exactly ${MAX_SIMPLE_COMMANDS} are walked`, () => {
    const at = classifyShellCounted(Array(MAX_SIMPLE_COMMANDS).fill("true").join("; "), opts);
    expect(tooComplex(at.effects)).toEqual([]);
    expect(at.work.commands).toBe(MAX_SIMPLE_COMMANDS);
    const over = classifyShellCounted(
      Array(MAX_SIMPLE_COMMANDS + 1)
        .fill("true")
        .join("; "),
      opts,
    );
    expect(tooComplex(over.effects)).toHaveLength(1);
    expect(over.work.commands).toBe(MAX_SIMPLE_COMMANDS + 1);
  });

  it("counts the commands of nested scripts too", () => {
    const inner = Array(600).fill("true").join("; ");
    const twice = classifyShellCounted(`bash -c '${inner}'; sh -c '${inner}'`, opts);
    expect(tooComplex(twice.effects)).toHaveLength(1);
    const once = classifyShellCounted(`bash -c '${inner}'`, opts);
    expect(tooComplex(once.effects)).toEqual([]);
  });

  it(`refuses more than ${MAX_WORDS} words; exactly ${MAX_WORDS} are walked`, () => {
    const at = classifyShellCounted(`echo ${"x ".repeat(MAX_WORDS - 1)}`, opts);
    expect(tooComplex(at.effects)).toEqual([]);
    const over = classifyShellCounted(`echo ${"x ".repeat(MAX_WORDS)}`, opts);
    expect(tooComplex(over.effects)).toHaveLength(1);
  });

  it("is the decision for every role, the write after it never judged", () => {
    const cmd = `${"cd a; ".repeat(MAX_SIMPLE_COMMANDS)}echo x > src/a.ts`;
    const d = decide(
      {
        agent_id: "a",
        agent_type: "devrites-slice-wright",
        tool_name: "Bash",
        tool_input: { command: cmd },
        cwd: "/r",
      },
      ctx(),
    );
    expect(d).toMatchObject({ decision: "deny", rule: "guard.input-too-complex" });
  });
});

function ctx(): GuardContext {
  return {
    root: "/r",
    activePackets: [
      {
        run_id: "run-20260101T000000Z-00000001",
        role: "devrites-slice-wright",
        allowed_repo_writes: ["src/a.ts"],
      },
    ],
    resolve: (p) => ({ ok: true, path: p }),
    isInstalledRole: () => true,
  };
}

/** Fragments that stress cd tracking, nesting and the walk; joined by every separator. */
const FRAGMENT = fc.constantFrom(
  "cd a",
  "cd ..",
  "cd -",
  "cd",
  'cd "$d"',
  "cd /abs/x",
  "cd ./b/c",
  "pushd a",
  "pushd /x",
  "popd",
  "cat f",
  "echo x > f",
  "echo x >> /r/src/a.ts",
  "bash -c 'cd a; cd b; cat f'",
  "sh -c \"cd a && sh -c 'cd b'\"",
  "sudo env nice cd a",
  "if true; then cd a; fi",
  "for x in a b; do cd $x; done",
  "x=1",
  "find . -exec cat {} \\;",
  "xargs cat",
  "git log",
  "{ cd a; }",
);
const SEP = fc.constantFrom("; ", " && ", " || ", " | ", "\n", " & ");

const adversarial = fc
  .tuple(
    fc.array(fc.tuple(FRAGMENT, SEP), { minLength: 1, maxLength: 24 }),
    fc.integer({ min: 1, max: 6000 }),
  )
  .map(([parts, times]) => {
    const unit = parts.map(([f, s]) => `${f}${s}`).join("");
    const n = Math.max(1, Math.min(times, Math.floor(MAX_COMMAND_CHARS / unit.length)));
    return unit.repeat(n);
  });

describe("the walk's work is bounded on adversarial input", () => {
  it("follows at most MAX_CWDS directories per command, stops at the caps, and spends steps linear in the commands", () => {
    fc.assert(
      fc.property(adversarial, (cmd) => {
        // the classifier (classified mode) and the front table (sandboxed) walk the same way
        for (const { work } of [classifyShellCounted(cmd, opts), frontShellCounted(cmd, opts)]) {
          expect(work.maxCwds).toBeLessThanOrEqual(MAX_CWDS);
          // past the cap each enclosing script stops at its next command: at most one more per nesting level
          expect(work.commands).toBeLessThanOrEqual(MAX_SIMPLE_COMMANDS + 1 + NESTING);
          expect(work.steps).toBeLessThanOrEqual(work.commands * (MAX_CWDS + 1));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("decides every adversarial command of up to the size cap well inside the hook deadline", () => {
    const BUDGET_MS = 2000; // generous on a loaded machine; the hook's own deadline is 3 s from process start
    let worst = 0;
    fc.assert(
      fc.property(adversarial, fc.boolean(), (cmd, sandboxed) => {
        const t = performance.now();
        const d = decide(
          {
            agent_id: "a",
            agent_type: "devrites-slice-wright",
            tool_name: "Bash",
            tool_input: { command: cmd },
            cwd: "/r",
          },
          { ...ctx(), sandboxed },
        );
        const ms = performance.now() - t;
        worst = Math.max(worst, ms);
        expect(["allow", "deny"]).toContain(d.decision);
        expect(ms, `${cmd.length} chars took ${ms.toFixed(0)} ms`).toBeLessThan(BUDGET_MS);
      }),
      { numRuns: 15 },
    );
    expect(worst).toBeGreaterThan(0);
  });
});
