import { describe, expect, it } from "vitest";
import { commandCatalog } from "./catalog.js";
import { allCommands } from "./index.js";

describe("the lazy command catalog", () => {
  it("lists exactly the commands of index.ts, sorted, and each loads the same command", async () => {
    const names = commandCatalog.map((e) => e.name);
    expect(names).toEqual(allCommands.map((c) => c.name).sort());
    expect(names).toEqual([...names].sort());
    for (const e of commandCatalog) expect(await e.load()).toBe(allCommands.find((c) => c.name === e.name));
  });
});
