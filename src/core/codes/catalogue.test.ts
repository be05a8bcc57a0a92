import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { GUARD_RULES } from "../../guard/types.js";
import { SCOPE_HINTS } from "../../scope/_violation.js";
import { ExitCode } from "../diagnostics.js";
import { AREAS, CATALOGUE, type Code, type CodeEntry, isCode } from "./index.js";

const SRC = join(import.meta.dirname, "..", "..");

/**
 * Warnings that fail their command: `init`, `update` and `uninstall` exit 1 when they left an edited file as
 * it is, so the skip is not missed (the file itself is not an error: it is the user's).
 */
const FAILING_WARNINGS = new Set<Code>(["install.skip-modified"]);
const entries = Object.entries(CATALOGUE) as [Code, CodeEntry][];

/** Files that list codes without emitting them: the catalogue itself and the rule-name types. */
const DEFINITIONS = new Set(["judge/codes.ts", "guard/types.ts", "scope/types.ts", "scope/_violation.ts"]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !/\.test\.ts$|arbitraries\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => !p.includes(`${join("core", "codes")}`) && !p.includes("fixtures"))
    .filter((p) => !DEFINITIONS.has(relative(SRC, p).split("\\").join("/")));
}

/** Every quoted `area.rule` literal in the source that emits diagnostics. */
function emittedLiterals(): Set<string> {
  const found = new Set<string>();
  for (const file of sources(SRC)) {
    for (const m of readFileSync(file, "utf8").matchAll(
      /["'`]([a-z]+(?:-[a-z]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*)["'`]/g,
    ))
      found.add(m[1]!);
  }
  return found;
}

describe("the diagnostics catalogue", () => {
  it("lists each code in one area only", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, record] of Object.entries(AREAS)) {
      for (const code of Object.keys(record)) {
        if (seen.has(code)) twice.push(`${code} (${seen.get(code)} and ${area})`);
        seen.set(code, area);
      }
    }
    expect(twice).toEqual([]);
    expect(Object.keys(CATALOGUE)).toHaveLength(seen.size);
  });

  it("files each code under its area (the validator's keep theirs in judge)", () => {
    for (const [area, record] of Object.entries(AREAS)) {
      if (area === "judge") continue;
      for (const code of Object.keys(record)) expect(code.split(".")[0], code).toBe(area);
    }
  });

  it.each(entries)("%s is well formed", (code, entry) => {
    expect(code).toMatch(/^[a-z]+(-[a-z]+)*\.[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(entry.summary.length, code).toBeGreaterThan(10);
    expect(entry.hint.length, code).toBeGreaterThan(5);
    // a warning or a note fails no command (a gate pauses it), save the listed ones; an error never exits 0
    if (entry.severity !== "error")
      expect(
        FAILING_WARNINGS.has(code) ? [ExitCode.Violation] : [ExitCode.Ok, ExitCode.HumanGate],
        code,
      ).toContain(entry.exit);
    else expect(entry.exit, code).not.toBe(ExitCode.Ok);
  });

  it("holds exactly the guard's rules and the scope rules", () => {
    expect(Object.keys(AREAS.guard).sort()).toEqual([...GUARD_RULES].sort());
    for (const rule of Object.keys(SCOPE_HINTS))
      expect(AREAS.scope[rule as keyof typeof AREAS.scope].hint).toBe(
        SCOPE_HINTS[rule as keyof typeof SCOPE_HINTS],
      );
  });

  it("isCode tells catalogued codes from near misses", () => {
    expect(isCode("result.stale")).toBe(true);
    expect(isCode("guard.spawn")).toBe(true);
    expect(isCode("result.stal")).toBe(false);
    expect(isCode("toString")).toBe(false);
    expect(isCode("")).toBe(false);
  });

  it("every code is emitted somewhere in src, unless it is marked reserved", () => {
    const emitted = emittedLiterals();
    const unemitted = entries.filter(([code, e]) => !e.reserved && !emitted.has(code)).map(([c]) => c);
    expect(unemitted).toEqual([]);
    const reservedButEmitted = entries.filter(([code, e]) => e.reserved && emitted.has(code)).map(([c]) => c);
    expect(reservedButEmitted).toEqual([]);
  });
});
