/** The journey harness's readers of the installed rite text, without the hosts. */
import { describe, expect, it } from "vitest";
import {
  codexSkillPath,
  commandIn,
  fill,
  linkedFile,
  markdownBlock,
  packetFrom,
  promptedWithPacket,
  quoteIn,
  runIdIn,
  skillBase,
} from "./rite-journey.js";

const TEXT = [
  "Nothing counts until `.devrites/bin/devrites result check` accepts it.",
  "",
  "```sh",
  ".devrites/bin/devrites result check .devrites/runs/<run-id>/result.json --packet .devrites/runs/<run-id>/packet.json",
  "```",
  "",
  "Start with `.devrites/bin/devrites rite start <rite>`; the plugin runs `/home/u/p/bin/devrites status`.",
  "Not a command: devrites status, `devrites-lint x`, `.devrites/bin/devrites-other status`.",
  "> Packet: .devrites/runs/<run-id>/packet.json. Read it first and follow it.",
  "See `../rite/reference/dispatch.md`.",
  "```markdown",
  "## Slice <id>: <title>",
  "Status: pending",
  "```",
].join("\n");

describe("commandIn", () => {
  it("takes the fullest form the text gives (the fenced template over a passing mention)", () => {
    expect(commandIn(TEXT, "result check")).toBe(
      ".devrites/bin/devrites result check .devrites/runs/<run-id>/result.json --packet .devrites/runs/<run-id>/packet.json",
    );
  });
  it("finds the launcher and a plugin's absolute path", () => {
    expect(commandIn(TEXT, "rite start")).toBe(".devrites/bin/devrites rite start <rite>");
    expect(commandIn(TEXT, "status")).toBe("/home/u/p/bin/devrites status");
  });
  it("ignores prose, other programs and subcommands the text does not name", () => {
    expect(commandIn("run devrites status now", "status")).toBeUndefined();
    expect(commandIn("`devrites status`", "status")).toBe("devrites status");
    expect(commandIn("`.devrites/bin/devrites-other status`", "status")).toBeUndefined();
    expect(commandIn(TEXT, "run abandon")).toBeUndefined();
    expect(commandIn("`.devrites/bin/devrites rite started`", "rite start")).toBeUndefined();
  });
});

describe("fill", () => {
  it("fills every placeholder, spaces included", () => {
    expect(fill('--role <role> --objective "<one paragraph>"', { role: "r", "one paragraph": "do x" })).toBe(
      '--role r --objective "do x"',
    );
  });
  it("throws on a placeholder left unfilled (the text changed shape)", () => {
    expect(() => fill("rite start <rite>", {})).toThrow(/placeholder <rite> left/);
  });
});

describe("the other readers", () => {
  it("quoteIn: a quoted line, else a code span, starting with the prefix", () => {
    expect(quoteIn(TEXT, "Packet:")).toBe(
      "Packet: .devrites/runs/<run-id>/packet.json. Read it first and follow it.",
    );
    expect(quoteIn("say `Packet: x.json`", "Packet:")).toBe("Packet: x.json");
    expect(quoteIn("Packet: bare prose", "Packet:")).toBeUndefined();
  });
  it("linkedFile and markdownBlock", () => {
    expect(linkedFile(TEXT, "dispatch.md")).toBe("../rite/reference/dispatch.md");
    expect(linkedFile(TEXT, "records.md")).toBeUndefined();
    expect(markdownBlock(TEXT)).toBe("## Slice <id>: <title>\nStatus: pending\n");
    expect(markdownBlock("```sh\nx\n```")).toBeUndefined();
  });
  it("skillBase (Claude) and codexSkillPath (short path under a skill root, or absolute)", () => {
    expect(skillBase("Base directory for this skill: /r/.claude/skills/rite-quick\n\n#", "rite-quick")).toBe(
      "/r/.claude/skills/rite-quick",
    );
    expect(
      skillBase("Base directory for this skill: /r/.claude/skills/rite-quickly", "rite-quick"),
    ).toBeUndefined();
    const listing = "- `r1` = `/p/.agents/skills`\n- rite-quick: Small. (file: r1/rite-quick/SKILL.md)";
    expect(codexSkillPath(listing, "rite-quick")).toBe("/p/.agents/skills/rite-quick/SKILL.md");
    expect(codexSkillPath(listing, "rite")).toBeUndefined();
    expect(codexSkillPath("cat /p/.agents/skills/rite/SKILL.md", "rite")).toBe(
      "/p/.agents/skills/rite/SKILL.md",
    );
  });
  it("runIdIn and packetFrom", () => {
    expect(runIdIn("Output:\n.devrites/runs/run-20261202T030348Z-8923027f/packet.json\n")).toBe(
      "run-20261202T030348Z-8923027f",
    );
    expect(runIdIn(".devrites/runs/x/packet.json")).toBeUndefined();
    expect(packetFrom('Output:\n{"run_id": "r"}\n')).toEqual({ run_id: "r" });
    expect(packetFrom("Output:\nnot json")).toBeUndefined();
  });
  it("promptedWithPacket: a leaf's user turn is its spawn prompt; the root's spawn call is not a user turn", () => {
    expect(
      promptedWithPacket([
        { role: "user", content: [{ type: "text", text: "Packet: .devrites/runs/r/packet.json." }] },
      ]),
    ).toBe(true);
    expect(
      promptedWithPacket([
        { role: "user", content: [{ type: "input_text", text: "Packet: .devrites/runs/r/p" }] },
      ]),
    ).toBe(true);
    expect(
      promptedWithPacket([
        { role: "user", content: [{ type: "text", text: "Quick fix: make a 2." }] },
        {
          role: "assistant",
          content: [{ type: "tool_use", input: { prompt: "Packet: .devrites/runs/r/packet.json" } }],
        },
      ]),
    ).toBe(false);
    expect(
      promptedWithPacket([
        { role: "user", content: [{ type: "text", text: "Read Packet: .devrites/runs/r" }] },
      ]),
    ).toBe(false);
  });
});
