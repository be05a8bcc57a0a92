import { describe, expect, it } from "vitest";
import { planClean, TEST_META } from "../hosts/fixtures.js";
import { HOOKS_DIR } from "../hosts/output-path.js";
import { HOSTS, LAYOUTS } from "../hosts/types.js";
import { layoutRoots } from "./adapters.js";

describe("layoutRoots", () => {
  it("names exactly the roots each adapter layout plans (besides the shared hooks folder)", () => {
    const table = layoutRoots(TEST_META.name);
    for (const host of HOSTS)
      for (const layout of LAYOUTS) {
        const { plan } = planClean({ hosts: [host], layouts: [layout] });
        expect([...table[`${host}/${layout}`]].sort(), `${host}/${layout}`).toEqual(
          plan.roots.filter((r) => r !== HOOKS_DIR),
        );
      }
  });
});
