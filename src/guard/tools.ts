/**
 * Tool name → what kind of tool it is, for both hosts.
 *
 * Spawning (denied for every leaf): Claude `Agent` and its alias `Task`; Codex `spawn_agent`, and any tool whose
 * name contains `spawn`, `send_input`, `resume_agent`, `followup_task` or `send_message` (those hand another
 * agent work), with or without a `multi_agent…`/`collaboration` namespace glued to the front
 * (`multi_agent_v1spawn_agent`). `wait_agent`, `list_agents`, `close_agent`, `interrupt_agent` and Claude's
 * `ListAgents` only observe or stop agents and are allowed; any other tool in a multi-agent namespace is treated
 * as a spawn (fail closed).
 *
 * File writes: `Write`, `Edit`, `MultiEdit`, `NotebookEdit` (paths in `file_path`, `notebook_path`, `path`,
 * `edits[].file_path`), and `apply_patch` — including Codex's `Edit`/`Write` aliases, recognised by a patch body
 * in `command`/`patch`/`input` instead of a `file_path`.
 *
 * Shell: `Bash` (both hosts), Codex `exec_command`, `shell`, `local_shell`, `shell_command`, `unified_exec`.
 * `write_stdin` types into a running process, which the guard cannot classify.
 *
 * Everything else must be on the READ list; unknown tools, MCP tools included, are denied for leaves: the guard
 * cannot tell what they write.
 */

const SPAWN_EXACT = new Set(["Agent", "Task"]);
const SPAWN_PARTS = ["spawn", "send_input", "resume_agent", "followup_task", "send_message"];
const NAMESPACES = ["multi_agent_v2", "multi_agent_v1", "multi_agent", "collaboration"];
const AGENT_ADMIN = new Set(["wait_agent", "wait", "list_agents", "close_agent", "interrupt_agent"]);

/** Tools that only read, search, fetch or keep the agent's own notes. */
const READ = new Set([
  "Read",
  "NotebookRead",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "TodoRead",
  "ToolSearch",
  "BashOutput",
  "KillShell",
  "KillBash",
  "TaskOutput",
  "Skill",
  "ExitPlanMode",
  "ListAgents",
  "view_image",
  "web_search",
  "update_plan",
  "read_file",
  "list_dir",
  "grep_files",
  "get_goal",
  "request_user_input",
]);

const FILE_WRITE = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const SHELL = new Set([
  "Bash",
  "exec_command",
  "shell",
  "local_shell",
  "shell_command",
  "unified_exec",
  "container.exec",
]);

export type ToolKind =
  | "spawn"
  | "agent-admin"
  | "read"
  | "file-write"
  | "patch"
  | "shell"
  | "stdin"
  | "unknown";

/** Where an apply_patch body sits in a tool input, if any. */
export function patchBody(toolInput: Record<string, unknown>): string | undefined {
  for (const key of ["command", "patch", "input"]) {
    const v = Object.hasOwn(toolInput, key) ? toolInput[key] : undefined;
    if (typeof v === "string") return v;
    // Codex's shell form: ["apply_patch", "<patch>"]
    if (Array.isArray(v) && v.length === 2 && v[0] === "apply_patch" && typeof v[1] === "string") return v[1];
  }
  return undefined;
}

export function classifyTool(name: string, toolInput: Record<string, unknown>): ToolKind {
  if (SPAWN_EXACT.has(name)) return "spawn";
  const lower = name.toLowerCase();
  let bare = lower;
  let namespaced = false;
  for (const ns of NAMESPACES) {
    if (lower.startsWith(ns)) {
      bare = lower.slice(ns.length).replace(/^[._:/-]+/, "");
      namespaced = true;
      break;
    }
  }
  if (SPAWN_PARTS.some((p) => lower.includes(p))) return "spawn";
  if (AGENT_ADMIN.has(bare) && (namespaced || bare !== "wait")) return "agent-admin";
  if (namespaced) return "spawn";
  if (READ.has(name)) return "read";
  if (name === "apply_patch") return "patch";
  if (FILE_WRITE.has(name)) {
    const hasPath = ["file_path", "notebook_path", "path"].some((k) => Object.hasOwn(toolInput, k));
    return !hasPath && patchBody(toolInput) !== undefined ? "patch" : "file-write";
  }
  if (SHELL.has(name)) return "shell";
  if (name === "write_stdin") return "stdin";
  return "unknown";
}

/** The paths a Write/Edit/MultiEdit/NotebookEdit call writes; undefined when one is not a string. */
export function fileWritePaths(toolInput: Record<string, unknown>): string[] | undefined {
  const out: string[] = [];
  for (const key of ["file_path", "notebook_path", "path"]) {
    if (!Object.hasOwn(toolInput, key)) continue;
    const v = toolInput[key];
    if (typeof v !== "string") return undefined;
    out.push(v);
  }
  const edits = Object.hasOwn(toolInput, "edits") ? toolInput.edits : undefined;
  if (Array.isArray(edits)) {
    for (const e of edits) {
      if (typeof e === "object" && e !== null && Object.hasOwn(e, "file_path")) {
        const v = (e as Record<string, unknown>).file_path;
        if (typeof v !== "string") return undefined;
        out.push(v);
      }
    }
  }
  return out;
}
