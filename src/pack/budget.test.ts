import { describe, expect, it } from "vitest";
import {
  ALWAYS_ON_CHAR_BUDGET,
  DESCRIPTION_MAX_CHARS,
  estimateTokens,
  INVOKE_CHAR_BUDGET,
  measurePack,
} from "./budget.js";
import { buildPack } from "./build.js";
import { cleanFiles, FRAGMENT, REFERENCE, RITE, ROLE, SHIPPED_PACK } from "./fixtures.js";
import { loadPack } from "./load.js";

describe("measurePack", () => {
  it("counts name + description always-on, and frontmatter + expanded body on invoke", () => {
    const { model } = buildPack(cleanFiles());
    const r = measurePack(model);
    const skill = r.components.find((c) => c.kind === "skill");
    const agent = r.components.find((c) => c.kind === "agent");
    expect(skill?.alwaysOnChars).toBe("rite-look".length + "Use to look something up in the code.".length);
    expect(agent?.alwaysOnChars).toBe(
      "devrites-evidence-scout".length + "Use to find cited facts for a rite.".length,
    );
    expect(r.alwaysOnChars).toBe((skill?.alwaysOnChars ?? 0) + (agent?.alwaysOnChars ?? 0));
    // The include line is replaced by the fragment, whose characters count.
    const fmEnd = ROLE.indexOf("\n---\n", 4);
    const frontmatter = ROLE.slice(4, fmEnd);
    const body = ROLE.slice(fmEnd + 5).replace(
      "<!-- devrites:include fragments/never.md -->",
      FRAGMENT.trimEnd(),
    );
    expect(agent?.invokeChars).toBe(frontmatter.length + body.length);
    expect(skill?.invokeChars).toBeLessThan(RITE.length);
    expect(r.components.find((c) => c.kind === "reference")).toMatchObject({
      alwaysOnChars: 0,
      invokeChars: REFERENCE.length,
    });
    expect(r.maxInvokeChars).toBe(Math.max(skill?.invokeChars ?? 0, agent?.invokeChars ?? 0));
  });

  it("estimates tokens by rounding up", () => {
    expect(estimateTokens(0)).toBe(0);
    expect(estimateTokens(1)).toBe(1);
    expect(estimateTokens(8)).toBe(2);
    expect(estimateTokens(7, 3.5)).toBe(2);
  });
});

/** The context-budget guard on the shipped pack (the real host measures tokens; this is the fast check). */
describe("the shipped pack's context budget", () => {
  it("keeps always-on text, every description, and every invoke within budget", async () => {
    const { model } = await loadPack(SHIPPED_PACK);
    const r = measurePack(model);
    expect(r.components.filter((c) => c.kind !== "reference")).toHaveLength(16);
    expect(r.alwaysOnChars).toBeLessThanOrEqual(ALWAYS_ON_CHAR_BUDGET);
    for (const c of [...model.skills, ...model.agents]) {
      expect(c.description.length, c.name).toBeLessThanOrEqual(DESCRIPTION_MAX_CHARS);
    }
    for (const c of r.components) expect(c.invokeChars, c.name).toBeLessThanOrEqual(INVOKE_CHAR_BUDGET);
  });
});
