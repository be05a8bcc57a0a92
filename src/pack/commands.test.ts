import { describe, expect, it } from "vitest";
import { codeSegments, findCommandMentions, matchCommand } from "./commands.js";

const words = (text: string) => findCommandMentions(text).map((m) => m.words.join(" "));

describe("findCommandMentions", () => {
  it("finds commands in inline code, stopping at flags, placeholders and quotes", () => {
    expect(words("Run `devrites packet new --role x` then `devrites result check <r> --packet p`.")).toEqual([
      "packet new",
      "result check",
    ]);
    expect(words('`devrites route "text"` and `devrites ask --kind scope`')).toEqual(["route", "ask"]);
  });

  it("finds commands in fenced blocks, after a prompt or a shell separator", () => {
    const text = "```sh\n$ devrites status\ncd x && devrites resume\n```\n";
    expect(findCommandMentions(text)).toMatchObject([
      { words: ["status"], line: 2 },
      { words: ["resume"], line: 3 },
    ]);
  });

  it("ignores prose, workspace paths and role names", () => {
    expect(words("devrites status is a command in prose")).toEqual([]);
    expect(words("`.devrites/runs/x` and `devrites-slice-wright` and `node_devrites status`")).toEqual([]);
  });

  it("keeps positional words so the longest known command can be matched", () => {
    expect(words("`devrites resolve q-1 yes`")).toEqual(["resolve q-1 yes"]);
  });

  it("reports the line of each mention", () => {
    expect(findCommandMentions("a\nb `devrites status`\n")[0]?.line).toBe(2);
  });
});

describe("codeSegments", () => {
  it("handles double-backtick spans and tilde fences", () => {
    expect(codeSegments("x ``a `b` c`` y").map((s) => s.text)).toEqual(["a `b` c"]);
    expect(codeSegments("~~~\ncode\n~~~\n`s`").map((s) => s.text)).toEqual(["code", "s"]);
  });
});

describe("matchCommand", () => {
  const known = ["result check", "result record", "resolve", "pack lint", "graph"];
  it("matches the longest known prefix", () => {
    expect(matchCommand(["result", "check"], known)).toBe("result check");
    expect(matchCommand(["resolve", "q-1"], known)).toBe("resolve");
    expect(matchCommand(["graph"], [...known, "graph show"])).toBe("graph");
    expect(matchCommand(["graph", "show"], [...known, "graph show"])).toBe("graph show");
  });
  it("does not match a misspelling, a bare group word or an unknown command", () => {
    expect(matchCommand(["result", "chek"], known)).toBeUndefined();
    expect(matchCommand(["result"], known)).toBeUndefined();
    expect(matchCommand(["pack"], known)).toBeUndefined();
    expect(matchCommand(["resolved"], known)).toBeUndefined();
  });
});
