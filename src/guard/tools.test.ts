import { describe, expect, it } from "vitest";
import { classifyTool, fileWritePaths, patchBody } from "./tools.js";

describe("classifyTool", () => {
  it.each([
    ["Agent", "spawn"],
    ["Task", "spawn"],
    ["spawn_agent", "spawn"],
    ["multi_agent_v1spawn_agent", "spawn"],
    ["multi_agent_v1send_input", "spawn"],
    ["multi_agent_v1resume_agent", "spawn"],
    ["collaborationfollowup_task", "spawn"],
    ["collaboration.send_message", "spawn"],
    ["multi_agent_v2anything_new", "spawn"],
    ["multi_agent_v1wait_agent", "agent-admin"],
    ["collaborationlist_agents", "agent-admin"],
    ["close_agent", "agent-admin"],
    ["interrupt_agent", "agent-admin"],
    ["ListAgents", "read"],
    ["Read", "read"],
    ["Grep", "read"],
    ["view_image", "read"],
    ["Write", "file-write"],
    ["Edit", "file-write"],
    ["MultiEdit", "file-write"],
    ["NotebookEdit", "file-write"],
    ["apply_patch", "patch"],
    ["Bash", "shell"],
    ["exec_command", "shell"],
    ["shell", "shell"],
    ["write_stdin", "stdin"],
    ["mcp__fs__write", "unknown"],
    ["read", "unknown"],
    ["wait", "unknown"],
    ["", "unknown"],
  ])("%j is %s", (name, kind) => {
    expect(classifyTool(name, { file_path: "/x" })).toBe(kind);
  });

  it("recognises Codex's Edit/Write aliases by their patch body", () => {
    expect(classifyTool("Edit", { command: "*** Begin Patch\n*** End Patch" })).toBe("patch");
    expect(classifyTool("Write", { input: "*** Begin Patch" })).toBe("patch");
    expect(classifyTool("Write", { file_path: "/x", content: "c" })).toBe("file-write");
  });
});

describe("fileWritePaths and patchBody", () => {
  it("collects every path field", () => {
    expect(fileWritePaths({ file_path: "a", edits: [{ file_path: "b" }, { old_string: "x" }] })).toEqual([
      "a",
      "b",
    ]);
    expect(fileWritePaths({ notebook_path: "n.ipynb" })).toEqual(["n.ipynb"]);
    expect(fileWritePaths({ file_path: 3 })).toBeUndefined();
    expect(fileWritePaths({ edits: [{ file_path: null }] })).toBeUndefined();
    expect(fileWritePaths({})).toEqual([]);
  });
  it("finds the patch in command, patch, input or the argv form", () => {
    expect(patchBody({ command: "P" })).toBe("P");
    expect(patchBody({ patch: "P" })).toBe("P");
    expect(patchBody({ command: ["apply_patch", "P"] })).toBe("P");
    expect(patchBody({ command: ["other", "P"] })).toBeUndefined();
  });
});

describe("tool inputs at the edges", () => {
  it.each([
    ["collaboration.list_agents", "agent-admin"],
    ["multi_agent_v1::wait_agent", "agent-admin"],
    ["multi_agent_v1.wait", "agent-admin"],
    ["collaboration.read_file", "spawn"],
  ])("strips every separator after a namespace: %j is %s", (name, kind) => {
    expect(classifyTool(name, {})).toBe(kind);
  });

  it.each<[string, Record<string, unknown>, string]>([
    // A path field wins over a patch-looking field: the path is what gets written and checked.
    ["Edit", { file_path: "/x", command: "*** Begin Patch" }, "file-write"],
    ["Edit", { notebook_path: "/x.ipynb", patch: "*** Begin Patch" }, "file-write"],
    ["Write", { path: "/x", input: "*** Begin Patch" }, "file-write"],
    // Neither a path nor a patch body: a file write with no path, which the guard then refuses as malformed.
    ["Write", { content: "x" }, "file-write"],
  ])("%s %j is %s", (name, input, kind) => {
    expect(classifyTool(name, input)).toBe(kind);
  });

  it("reads a path field and skips edits without a file_path", () => {
    expect(fileWritePaths({ path: "p" })).toEqual(["p"]);
    expect(fileWritePaths({ edits: ["x", 3, { old_string: "y" }] })).toEqual([]);
    expect(fileWritePaths({ edits: [null] })).toEqual([]);
  });

  it("takes the argv form only as exactly [apply_patch, <string>]", () => {
    expect(patchBody({ command: ["apply_patch", "P", "x"] })).toBeUndefined();
    expect(patchBody({ command: ["apply_patch", 3] })).toBeUndefined();
    expect(patchBody({ command: ["apply_patch"], input: "Q" })).toBe("Q");
  });
});
