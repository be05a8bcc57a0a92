import { describe, expect, it } from "vitest";
import { ROLE_NAMES } from "../envelope/roles.js";
import { DEFAULT_BUDGETS, defaultBudgets } from "./budgets.js";

describe("default budgets", () => {
  it.each([
    ["devrites-evidence-scout", 20, 1000, 80],
    ["devrites-plan-drafter", 25, 2000, 240],
    ["devrites-proof-runner", 25, 2000, 100],
    ["devrites-spec-reviewer", 25, 2000, 100],
    ["devrites-code-reviewer", 25, 2000, 100],
    ["devrites-slice-wright", 40, 4000, 120],
  ] as const)("%s: %i files / %i lines / %i result lines", (role, files, lines, result) => {
    expect(defaultBudgets(role)).toEqual({
      max_files: files,
      max_loaded_lines: lines,
      max_result_lines: result,
    });
  });

  it("covers every role and hands out copies", () => {
    expect(Object.keys(DEFAULT_BUDGETS).sort()).toEqual([...ROLE_NAMES].sort());
    const b = defaultBudgets("devrites-evidence-scout");
    b.max_files = 1;
    expect(DEFAULT_BUDGETS["devrites-evidence-scout"].max_files).toBe(20);
  });
});
