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
