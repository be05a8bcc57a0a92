/**
 * Whole rites in the real hosts, driven by a scripted root that follows the rite text the host shows it.
 *
 * The root is written once, host-neutrally, as a list of steps (`RootStep`): each step is computed from what the
 * conversation holds so far (the skill's text, the files it read, the exit codes it got), so a step that needs a
 * command takes it out of the installed text (`commandIn`, `templateIn`) instead of from this file. Per host, a
 * small adapter turns the neutral actions into that host's tool calls:
 *
 * | action   | Claude Code                          | Codex                                   |
 * | -------- | ------------------------------------ | --------------------------------------- |
 * | `skill`  | the Skill tool                       | `cat` of the SKILL.md its prompt lists  |
 * | `read`   | the Read tool                        | `cat`                                   |
 * | `shell`  | Bash                                 | `exec_command`                          |
 * | `write`  | Write                                | `exec_command` with a here-document     |
 * | `spawn`  | Agent (foreground)                   | `spawn_agent`, then `wait_agent`        |
 *
 * Leaves (`leafScenario`) read their packet with the shell, do their job (the wright writes its file; the proof
 * runner runs the project's tests) and end with an agent-result/v1 made from the packet they read.
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as A from "../../../src/doctor/fake-model/anthropic.js";
import * as R from "../../../src/doctor/fake-model/responses.js";
import { sampleResult } from "../../../src/envelope/fixtures.js";
import { ROLES } from "../../../src/envelope/roles.js";
import type { AgentPacket, AgentResultInput } from "../../../src/envelope/types.js";

export type Host = "claude" | "codex";

/** What the root does next, in host-neutral terms. */
export type RootAction =
  | { kind: "skill"; name: string }
  | { kind: "read"; path: string }
  | { kind: "shell"; cmd: string }
  | { kind: "write"; path: string; content: string }
  | { kind: "spawn"; role: string; description: string; prompt: string }
  | { kind: "done"; text: string };

/** What a finished root step gave back. */
export interface StepOutput {
  /** The tool's text (Codex: the command's output without the exec header). */
  text: string;
  /** The shell's exit code (shell steps), else 0. */
  exitCode: number;
}

/** The conversation so far, as the root sees it. */
export interface RootView {
  /** Everything the host showed the root (prompt, skill text, tool outputs), as one text. */
  transcript: string;
  /** The output of an earlier step. */
  out(id: string): StepOutput | undefined;
  /**
   * The text of the skill the root opened in step `skill`, as the host showed it (Claude: the message the
   * Skill tool adds, from "Base directory for this skill"; Codex: the SKILL.md it printed). Empty before.
   */
  skillText: string;
  /** The project folder (absolute). */
  project: string;
}

export interface RootStep {
  id: string;
  /** The action, or undefined to skip this step. */
  act(view: RootView): RootAction | undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Reading the installed text

/** Inline code spans and fenced-block lines of a markdown text. */
export function codeOf(text: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) out.push(line);
    else for (const m of line.matchAll(/`([^`]+)`/g)) out.push(m[1]!);
  }
  return out;
}

/**
 * The fullest code span or line in `text` that runs the devrites CLI (by the project launcher, by a plugin's
 * absolute path, or by the bare name a plugin's reference file uses) with the subcommand `words`, e.g. `commandIn(t, "rite start")` → `.devrites/bin/devrites rite
 * start <rite>`. Undefined when the text names none.
 */
export function commandIn(text: string, words: string): string | undefined {
  const want = new RegExp(`(?:^|\\s)((?:\\.devrites/bin/|/\\S*/bin/)?devrites ${words}(?:\\s.*)?)$`);
  // the fullest form the text gives (a fenced template over a passing mention)
  let best: string | undefined;
  for (const c of codeOf(text)) {
    const m = want.exec(c.trim());
    if (m && (best === undefined || m[1]!.trim().length > best.length)) best = m[1]!.trim();
  }
  return best;
}

/** The CLI as the text names it: everything before ` <subcommand>` of `commandIn`. */
export function cliIn(text: string): string | undefined {
  const c = commandIn(text, "status");
  return c?.slice(0, c.indexOf(" status"));
}

/** Fill `<name>` placeholders; a placeholder left unfilled throws (the text changed shape). */
export function fill(template: string, values: Record<string, string>): string {
  const out = template.replace(/<([a-z][a-z -]*)>/g, (all, k: string) => values[k] ?? all);
  const left = /<[a-z][a-z -]*>/.exec(out);
  if (left) throw new Error(`placeholder ${left[0]} left in ${JSON.stringify(out)}`);
  return out;
}

/** A `> quoted` line or a code span of `text` that starts with `start` (the spawn prompt). */
export function quoteIn(text: string, start: string): string | undefined {
  for (const line of text.split("\n")) {
    const m = /^\s*>\s?(.*)$/.exec(line);
    if (m?.[1]?.startsWith(start)) return m[1];
  }
  return codeOf(text).find((c) => c.startsWith(start));
}

/** The first ```markdown block of `text` (a record format). */
export function markdownBlock(text: string): string | undefined {
  return /```markdown\n([\s\S]*?)```/.exec(text)?.[1];
}

/** The markdown block after the `## <file>` heading of records.md (e.g. the plan.md slice format). */
export function recordFormat(text: string, file: string): string | undefined {
  const at = text.indexOf(`## \`${file}\``);
  if (at < 0) return undefined;
  const m = /```markdown\n([\s\S]*?)```/.exec(text.slice(at));
  return m?.[1];
}

/** The path of a file the rite's text links relative to the skill's folder (`../rite/reference/x.md`). */
export function linkedFile(text: string, name: string): string | undefined {
  for (const c of codeOf(text)) if (c.endsWith(`/${name}`) || c === name) return c;
  return undefined;
}

/** The skill's folder as the host announced it (Claude: "Base directory for this skill: …"). */
export function skillBase(transcript: string, skill: string): string | undefined {
  const m = new RegExp(`Base directory for this skill: (\\S*/${skill})\\b`).exec(transcript);
  return m?.[1];
}

/**
 * The SKILL.md of `skill` as Codex lists it to the model: a short path under a skill root ("`r1` =
 * `<folder>`" … "(file: r1/<skill>/SKILL.md)"), or an absolute path.
 */
export function codexSkillPath(transcript: string, skill: string): string | undefined {
  const short = new RegExp(`\\(file: (r\\d+)/${skill}/SKILL\\.md\\)`).exec(transcript);
  if (short) {
    const root = new RegExp(`\`${short[1]}\` = \`([^\`]+)\``).exec(transcript)?.[1];
    if (root) return `${root}/${skill}/SKILL.md`;
  }
  return new RegExp(`[^\\s"<>()\\\\]*/skills/${skill}/SKILL\\.md`).exec(transcript)?.[0];
}

/** The run id in a `packet new` output (`.devrites/runs/<run-id>/packet.json`). */
export function runIdIn(text: string): string | undefined {
  return /\.devrites\/runs\/(run-[\w-]+)\/packet\.json/.exec(text)?.[1];
}

// ---------------------------------------------------------------------------------------------------------
// Leaves

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** How a scripted leaf behaves, by its packet. */
export interface LeafPlan {
  /** The wright's new content for each allowlisted file. */
  wrightWrites(packet: AgentPacket): Record<string, string>;
  /** A wright result that fails the result contract (no payload), for the rejected attempt. */
  malformed(packet: AgentPacket): boolean;
  /** The proof runner's test command. */
  proofCommand: string;
}

/**
 * The agent-result/v1 a leaf returns for `packet`, as the role's result contract shows it: the required keys,
 * with what is empty (side effects, gates, decisions, escalation) and the packet's ceilings left out.
 */
export function leafResult(
  packet: AgentPacket,
  writes: Record<string, string>,
  commands: { command: string; exit_code: number }[],
): AgentResultInput {
  const {
    gates: _g,
    decisions_stood: _d,
    escalation: _e,
    ...r
  }: AgentResultInput = sampleResult(ROLES[packet.role].payload);
  r.run_id = packet.run_id;
  r.role = packet.role;
  r.baseline_id = packet.baseline.id;
  r.budget = { files_used: 1, loaded_lines_used: 10 };
  const repoWrites = Object.entries(writes).map(([path, content]) => ({
    path,
    op: "modify" as const,
    sha256_after: sha256(content),
  }));
  if (repoWrites.length > 0) r.side_effects = { repo_writes: repoWrites };
  else delete r.side_effects;
  if (r.payload.type === "wright-report")
    r.payload.content = {
      slice_id: "quick-1",
      summary: "Changed what the slice asked.",
      tests_added: [],
      commands_run: commands,
    };
  if (r.payload.type === "proof-report")
    r.payload.content = {
      checks: commands.map((c) => ({
        name: "tests",
        command: c.command,
        exit_code: c.exit_code,
        outcome: c.exit_code === 0 ? "pass" : "fail",
        summary: c.exit_code === 0 ? "passed" : "failed",
      })),
      verdict: commands.every((c) => c.exit_code === 0) ? "pass" : "fail",
    };
  return r;
}

/** A leaf's script: read the packet, do the role's job, return the result. Host-neutral. */
export interface LeafStep {
  id: string;
  act(packet: AgentPacket | undefined, out: (id: string) => string | undefined): RootAction;
}

/** The JSON of the packet in a `cat` output (Codex wraps it in an exec header; Claude gives it bare). */
export function packetFrom(text: string | undefined): AgentPacket | undefined {
  if (!text) return undefined;
  const at = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (at < 0 || end < at) return undefined;
  try {
    return JSON.parse(text.slice(at, end + 1)) as AgentPacket;
  } catch {
    return undefined;
  }
}

/** The leaf's steps for the packet at `packetPath` (repository-relative). */
export function leafSteps(packetPath: string, plan: LeafPlan): LeafStep[] {
  const tag = packetPath.replace(/\W+/g, "_").slice(-24);
  const read = `${tag}_read`;
  return [
    { id: read, act: () => ({ kind: "shell", cmd: `cat ${packetPath}` }) },
    {
      id: `${tag}_work`,
      act: (p) => {
        if (!p) return { kind: "done", text: "cannot read the packet" };
        if (p.role === "devrites-slice-wright") {
          if (plan.malformed(p)) return { kind: "shell", cmd: "true" };
          const [path, content] = Object.entries(plan.wrightWrites(p))[0]!;
          return { kind: "write", path, content };
        }
        return { kind: "shell", cmd: plan.proofCommand };
      },
    },
    {
      id: `${tag}_end`,
      act: (p) => {
        if (!p) return { kind: "done", text: "no packet" };
        if (p.role === "devrites-slice-wright") {
          if (plan.malformed(p)) {
            const r = leafResult(p, {}, []) as Partial<AgentResultInput>;
            delete r.payload;
            return { kind: "done", text: JSON.stringify(r) };
          }
          return { kind: "done", text: JSON.stringify(leafResult(p, plan.wrightWrites(p), [])) };
        }
        return {
          kind: "done",
          text: JSON.stringify(leafResult(p, {}, [{ command: plan.proofCommand, exit_code: 0 }])),
        };
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Host adapters

/** Claude Code: the tool call for a neutral action. */
function claudeCall(id: string, a: RootAction, project: string): A.AnthropicReply {
  switch (a.kind) {
    case "skill":
      return A.toolUse(id, "Skill", { skill: a.name });
    case "read":
      return A.toolUse(id, "Read", { file_path: a.path.startsWith("/") ? a.path : join(project, a.path) });
    case "shell":
      return A.toolUse(id, "Bash", { command: a.cmd });
    case "write":
      return A.toolUse(id, "Write", {
        file_path: a.path.startsWith("/") ? a.path : join(project, a.path),
        content: a.content,
      });
    case "spawn":
      return A.toolUse(id, "Agent", {
        description: a.description,
        prompt: a.prompt,
        subagent_type: a.role,
        run_in_background: false,
      });
    case "done":
      return A.text(a.text);
  }
}

/** Claude's tool result as a step output: Bash errors carry "Exit code N" first. */
function claudeOutput(block: A.ToolResult | undefined): StepOutput | undefined {
  if (!block) return undefined;
  const m = /^Exit code (\d+)/.exec(block.text);
  return { text: block.text, exitCode: m ? Number(m[1]) : block.isError ? 1 : 0 };
}

/** Claude's Read output without its line-number gutter. */
function unGutter(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/^\s*\d+\t/, ""))
    .join("\n");
}

export interface JourneyScript {
  root: RootStep[];
  leaf: LeafPlan;
}

/** Every text a request carries (messages, tool results, tool inputs), one after another, unescaped. */
export function plainText(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(plainText).join("\n");
  if (v !== null && typeof v === "object") return Object.values(v).map(plainText).join("\n");
  return "";
}

/**
 * A leaf's conversation: its user turn is the spawn prompt (`Packet: …`). The host's subagent marker is not
 * enough: Claude sends a leaf's turn after a SubagentStop block without it.
 */
export function promptedWithPacket(items: unknown): boolean {
  if (!Array.isArray(items)) return false;
  return items.some((m) => {
    const { role, content } = (m ?? {}) as { role?: string; content?: unknown };
    if (role !== "user") return false;
    const blocks = typeof content === "string" ? [{ text: content }] : Array.isArray(content) ? content : [];
    return (blocks as { type?: string; text?: string }[]).some(
      (b) =>
        (b.type === undefined || b.type === "text" || b.type === "input_text") &&
        /^Packet: \.devrites\/runs\//.test(b.text ?? ""),
    );
  });
}

/** The fake Messages API scenario of a scripted root and its leaves. */
export function claudeJourney(script: JourneyScript, project: string): A.AnthropicScenario {
  return (req, ctx) => {
    const transcript = plainText(req.body.messages);
    if (ctx.isSubagent || promptedWithPacket(req.body.messages)) {
      const packetPath = /\.devrites\/runs\/run-[\w-]+\/packet\.json/.exec(transcript)?.[0];
      if (!packetPath) return A.text("no packet named");
      const steps = leafSteps(packetPath, script.leaf);
      const packet = packetFrom(ctx.toolResult(steps[0]!.id));
      const next = steps.find((s) => !ctx.hasToolResult(s.id));
      return claudeCall(
        next?.id ?? "end",
        next ? next.act(packet, ctx.toolResult) : { kind: "done", text: "" },
        project,
      );
    }
    const shown = (req.body.messages as { content: unknown }[])
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; text?: string }[]) : []))
      .find((b) => b.type === "text" && b.text?.startsWith("Base directory for this skill:"));
    const view: RootView = {
      transcript,
      skillText: shown?.text ?? "",
      out: (id) => {
        const o = claudeOutput(ctx.toolResultBlock(id));
        return o && { ...o, text: unGutter(o.text) };
      },
      project,
    };
    for (const step of script.root) {
      if (ctx.hasToolResult(step.id)) continue;
      const a = step.act(view);
      if (a === undefined) continue;
      return claudeCall(step.id, a, project);
    }
    return A.text("journey done");
  };
}

const NS = { namespace: "multi_agent_v1" };

/** Codex: `exec_command` output after its header ("Output:\n"), and the exit code from the header. */
function codexOutput(text: string | undefined): StepOutput | undefined {
  if (text === undefined) return undefined;
  const code = /Process exited with code (\d+)/.exec(text);
  const at = text.indexOf("Output:\n");
  return { text: at < 0 ? text : text.slice(at + "Output:\n".length), exitCode: code ? Number(code[1]) : 0 };
}

/** A here-document that writes `content` to `path` exactly (a delimiter the content does not hold). */
function hereDoc(path: string, content: string): string {
  let tag = "DEVRITES_EOF";
  while (content.includes(tag)) tag += "_";
  const body = content.endsWith("\n") ? content.slice(0, -1) : content;
  return `cat > ${path} <<'${tag}'\n${body}\n${tag}`;
}

function codexCall(id: string, a: RootAction, skills: string): R.ResponsesReply {
  switch (a.kind) {
    case "skill": {
      const file = codexSkillPath(skills, a.name);
      return file
        ? R.functionCall(id, "exec_command", { cmd: `cat ${file}` })
        : R.text(`no ${a.name} skill listed`);
    }
    case "read":
      return R.functionCall(id, "exec_command", { cmd: `cat ${a.path}` });
    case "shell":
      return R.functionCall(id, "exec_command", { cmd: a.cmd });
    case "write":
      return R.functionCall(id, "exec_command", { cmd: hereDoc(a.path, a.content) });
    case "spawn":
      return R.functionCall(id, "spawn_agent", { agent_type: a.role, message: a.prompt }, NS);
    case "done":
      return R.text(a.text);
  }
}

/** The fake Responses API scenario of a scripted root and its leaves. */
export function codexJourney(script: JourneyScript, project: string): R.ResponsesScenario {
  return (req, ctx) => {
    const transcript = plainText(req.body.input);
    if (ctx.isSubagent || promptedWithPacket(req.body.input)) {
      const packetPath = /\.devrites\/runs\/run-[\w-]+\/packet\.json/.exec(transcript)?.[0];
      if (!packetPath) return R.text("no packet named");
      const steps = leafSteps(packetPath, script.leaf);
      const packet = packetFrom(codexOutput(ctx.toolResult(steps[0]!.id))?.text);
      const next = steps.find((s) => !ctx.hasToolResult(s.id));
      const out = (id: string) => codexOutput(ctx.toolResult(id))?.text;
      return codexCall(next?.id ?? "end", next ? next.act(packet, out) : { kind: "done", text: "" }, "");
    }
    const view: RootView = {
      transcript,
      skillText: codexOutput(ctx.toolResult("skill"))?.text ?? "",
      out: (id) => {
        const raw = ctx.toolResult(id);
        // a spawn's output is wait_agent's (the hand-back), under the step's own id
        const waited = ctx.toolResult(`${id}_wait`);
        if (waited !== undefined) return { text: waited, exitCode: 0 };
        if (raw !== undefined && /^\{"agent_id"/.test(raw)) return undefined;
        return codexOutput(raw);
      },
      project,
    };
    for (const step of script.root) {
      if (ctx.hasToolResult(step.id)) {
        // a spawn is done when its wait is
        const spawned = ctx.toolResult(step.id);
        if (spawned !== undefined && /^\{"agent_id"/.test(spawned) && !ctx.hasToolResult(`${step.id}_wait`)) {
          const { agent_id } = JSON.parse(spawned) as { agent_id: string };
          return R.functionCall(`${step.id}_wait`, "wait_agent", { targets: [agent_id] }, NS);
        }
        continue;
      }
      const a = step.act(view);
      if (a === undefined) continue;
      return codexCall(step.id, a, transcript);
    }
    return R.text("journey done");
  };
}

/** The run's events (`.devrites/runs/<id>/events.jsonl`). */
export function runEvents(
  project: string,
  runId: string,
): { type: string; data?: Record<string, unknown> }[] {
  return readFileSync(join(project, ".devrites", "runs", runId, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; data?: Record<string, unknown> });
}
