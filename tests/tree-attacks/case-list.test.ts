/** The attack list itself: unique names, every KNOWN_OPEN entry names a real, non-control case. */

import { describe, expect, it } from "vitest";
import { ATTACKS } from "./cases.js";
import { KNOWN_OPEN } from "./known-open.js";

describe("tree attacks: the case list", () => {
  it("names every case once", () => {
    const names = ATTACKS.map((a) => a.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("lists in KNOWN_OPEN only existing attack cases, once, each with a reason and a reproduction", () => {
    const byName = new Map(ATTACKS.map((a) => [a.name, a]));
    for (const k of KNOWN_OPEN) {
      const a = byName.get(k.name);
      expect(a, `KNOWN_OPEN names no case: ${k.name}`).toBeDefined();
      expect(a!.control ?? false, `a control cannot be open: ${k.name}`).toBe(false);
      expect(k.reason.length).toBeGreaterThan(20);
      expect(k.repro.length).toBeGreaterThan(10);
    }
    const names = KNOWN_OPEN.map((k) => k.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("has controls and attacks in every class it claims", () => {
    expect(ATTACKS.filter((a) => a.control).length).toBeGreaterThanOrEqual(5);
    const classes = new Set(ATTACKS.filter((a) => !a.control).map((a) => a.klass));
    for (const k of [
      "ignored",
      "tracked",
      "index",
      "git",
      "nested",
      "submodule",
      "workspace",
      "links",
      "paths",
      "records",
      "post-check",
      "race",
      "replay",
      "envelope",
      "adapters",
      "settled",
    ])
      expect(classes.has(k), `no attack in class ${k}`).toBe(true);
  });
});
