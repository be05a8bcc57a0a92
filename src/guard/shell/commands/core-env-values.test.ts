/**
 * `env NAME=value cmd` sets NAME for cmd: the env effect carries the value as written after the first `=`, which
 * the policy reads (a pager set to `cat` is harmless, any other pager runs a program).
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "../classify.js";
import { showWord } from "../parse.js";

const envs = (line: string) =>
  classifyShell(line, { cwd: "/r" }).flatMap((e) =>
    e.kind === "env" ? [`${e.name}=${e.value ? showWord(e.value) : "?"}`] : [],
  );

describe("env NAME=value: the value handed on", () => {
  it.each<[string, string[]]>([
    ["env PAGER=cat git log", ["PAGER=cat"]],
    ["env GIT_PAGER=less git log", ["GIT_PAGER=less"]],
    ["env A=x=y B= ls", ["A=x=y", "B="]],
    ["env -u X LANG=C ls", ["LANG=C"]],
    // the same assignment before the command, without env
    ["PAGER=cat git log", ["PAGER=cat"]],
  ])("%j → %j", (line, expected) => {
    expect(envs(line)).toEqual(expected);
  });
});
