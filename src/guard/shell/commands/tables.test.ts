import { describe, expect, it } from "vitest";
import { classifyArgvCommand } from "../classify.js";
import { CORE, PURE } from "./core.js";
import { PACKAGES } from "./packages.js";
import { TOOLS } from "./tools.js";

describe("the command tables", () => {
  it("name no command twice: the classifier looks them up in turn, so a second entry would never be used", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [label, table] of [
      ["CORE", CORE],
      ["PACKAGES", PACKAGES],
      ["TOOLS", TOOLS],
    ] as const) {
      for (const name of table.keys()) {
        const first = seen.get(name);
        if (first !== undefined) twice.push(`${name} in ${first} and ${label}`);
        seen.set(name, label);
      }
      expect(table.size).toBeGreaterThan(50);
    }
    expect(twice).toEqual([]);
    expect(seen.has("git")).toBe(false);
  });

  it("keep the entries of every part of a table: pure utilities, named handlers, name lists and builtins", () => {
    for (const name of [...PURE, "printf", "wget", "split", "flock", "ssh", "mysql", "cd", "busybox"]) {
      expect(CORE.has(name), name).toBe(true);
    }
    for (const name of ["npm", "devrites.mjs"]) expect(PACKAGES.has(name), name).toBe(true);
    for (const name of ["apply_patch", "nyc"]) expect(TOOLS.has(name), name).toBe(true);
  });

  it("are all reached through the classifier, including git and the versioned interpreter names", () => {
    const cx = { cwd: "/r" };
    // a name no table has is a program the guard cannot see into
    expect(classifyArgvCommand(["no-such-tool-xyz"], cx).map((e) => e.kind)).toEqual(["exec"]);
    expect(classifyArgvCommand(["cat", "a"], cx)).toEqual([]);
    expect(classifyArgvCommand(["git", "status"], cx)).toEqual([]);
    expect(classifyArgvCommand(["python3.12", "-c", "print(1)"], cx).map((e) => e.kind)).not.toEqual([]);
  });
});
