/**
 * Conformance of the generated adapters with the pinned real hosts (Claude Code 2.1.328, Codex CLI 0.169.0):
 * what `devrites generate` writes for the shipped pack must be what the hosts load. Offline checks (plugin
 * validate, plugin details, debug prompt-input, plugin install) and scripted turns against the harness fakes
 * for the generated hooks (the launcher finds the bundle, and fails closed for a leaf when it is missing).
 *
 * The hook bundles are stand-ins that log their stdin and deny `blocked.txt`: this suite checks the wiring the
 * adapters write, not the guard's policy. Skips with the reason when a host is unavailable.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { explicitOnly } from "../../src/hosts/codex/render.js";
import { TEST_META } from "../../src/hosts/fixtures.js";
import { applyPlan, type Host, type Layout, planOutputs } from "../../src/hosts/index.js";
import { SHIPPED_PACK } from "../../src/pack/fixtures.js";
import { loadPack, type PackModel } from "../../src/pack/index.js";
import { ensureHosts } from "./harness/install.js";
import { claudePluginDetails, claudePluginValidate, runClaude } from "./harness/run-claude.js";
import { CATALOG_MODEL, codexPromptInput, runCodex, writeCodexConfig } from "./harness/run-codex.js";
import {
  baseEnv,
  cleanupAllSandboxes,
  killAllHostProcesses,
  makeSandbox,
  readJsonLinesFile,
  runProcess,
  type Sandbox,
} from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

/**
 * Logs the hook's stdin (with the bundle's own path) to `$E2E_HOOK_LOG`; denies anything naming blocked.txt.
 * In the launcher's contract: CommonJS exporting `(stdin bytes) => {exitCode, stdout, stderr}`.
 */
const STAND_IN = `const { appendFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");
module.exports = (bytes) => {
  const input = Buffer.from(bytes).toString("utf8");
  if (process.env.E2E_HOOK_LOG) {
    appendFileSync(process.env.E2E_HOOK_LOG, JSON.stringify({ bundle: pathToFileURL(__filename).href, ...JSON.parse(input) }) + "\\n");
  }
  if (input.includes("blocked.txt")) return { exitCode: 2, stdout: "", stderr: "stand-in guard: blocked.txt is off limits" };
  return { exitCode: 0, stdout: "", stderr: "" };
};
`;
const REPO_ROOT_DIR = fileURLToPath(new URL("../../", import.meta.url));
const BUNDLES = new Map(["pre-tool-use", "subagent-stop", "user-prompt-submit"].map((e) => [e, STAND_IN]));

/**
 * A guard stand-in that allows everything and deletes itself when it sees the root spawn a leaf, so the leaf's
 * own tool calls meet a missing bundle. (With the bundle missing from the start the launcher already denies the
 * spawn itself: its input names `subagent_type` / `agent_type`.)
 */
const VANISHING = `const { unlinkSync } = require("node:fs");
module.exports = (bytes) => {
  const call = JSON.parse(Buffer.from(bytes).toString("utf8"));
  if (!call.agent_type && /^(Agent|Task|spawn_agent)$/.test(call.tool_name)) unlinkSync(__filename);
  return { exitCode: 0, stdout: "", stderr: "" };
};
`;
const PLUGIN = "plugins/claude/devrites";

const hosts = await ensureHosts();
let model: PackModel;

beforeAll(async () => {
  const loaded = await loadPack(SHIPPED_PACK);
  expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  model = loaded.model;
});

afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
});

/** A fresh sandbox whose project holds the shipped pack rendered for `host` × `layouts`. */
async function rendered(host: Host, layouts: Layout[]): Promise<Sandbox> {
  const s = await makeSandbox();
  const { plan, diagnostics } = planOutputs(model, {
    hosts: [host],
    layouts,
    meta: TEST_META,
    bundles: BUNDLES,
    // the one-file CLI the Claude plugin carries, as built
    cli: readFileSync(join(REPO_ROOT_DIR, "bin", "devrites.cjs"), "utf8"),
  });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const applied = await applyPlan(s.project, plan);
  expect(applied.diagnostics).toEqual([]);
  return s;
}

const rites = () => model.skills.map((s) => s.name).sort();
const publicRites = () =>
  model.skills
    .filter((s) => !explicitOnly(s))
    .map((s) => s.name)
    .sort();
const roles = () => model.agents.map((a) => a.name).sort();
const hookLog = (path: string) => (existsSync(path) ? readJsonLinesFile(path) : []);

describeHosts("Claude Code loads the generated plugin and project files", hosts, ["claude"], () => {
  it("claude plugin validate: no errors on the plugin, and none on the marketplace", async () => {
    const s = await rendered("claude", ["plugin"]);
    const v = await claudePluginValidate(join(s.project, PLUGIN));
    expect(v.exitCode, v.stdout + v.stderr).toBe(0);
    expect(v.report?.success).toBe(true);
    for (const entry of [v.report!.manifest, ...v.report!.contents])
      expect(entry.errors, entry.file).toEqual([]);
    expect([...v.report!.provides.skills].sort()).toEqual(rites().map((r) => `devrites:${r}`));
    expect([...v.report!.provides.agents].sort()).toEqual(roles().map((r) => `devrites:${r}`));
    expect(v.report!.provides.hooks.map((h) => h.event).sort()).toEqual(
      model.hooks.map((h) => h.event).sort(),
    );
    const m = await claudePluginValidate(s.project);
    expect(m.exitCode, m.stdout + m.stderr).toBe(0);
    expect(m.report?.success).toBe(true);
    for (const entry of [m.report!.manifest, ...m.report!.contents])
      expect(entry.errors, entry.file).toEqual([]);
  });

  it("plugin details lists every rite and role; always-on ≤ 250 tokens, no component > 2,500 on invoke", async () => {
    const s = await rendered("claude", ["plugin"]);
    const d = await claudePluginDetails(join(s.project, PLUGIN), "devrites");
    const table = [
      `Projected token cost, ${hosts.claude?.version} (claude --plugin-dir … plugin details devrites)`,
      `  always-on (whole plugin): ${d.alwaysOnRaw} tok`,
      "  component                      always-on  on-invoke",
      ...d.components.map(
        (c) => `  ${c.name.padEnd(30)} ${c.raw.alwaysOn.padStart(9)}  ${c.raw.onInvoke.padStart(9)}`,
      ),
    ].join("\n");
    console.log(table);
    expect(d.inventory.Skills?.names.sort()).toEqual(rites());
    expect(d.inventory.Agents?.names.sort()).toEqual(roles());
    expect(d.components.map((c) => c.name).sort()).toEqual([...rites(), ...roles()].sort());
    expect(d.alwaysOn, table).toBeLessThanOrEqual(250);
    for (const c of d.components) expect(c.onInvoke, `${c.name}\n${table}`).toBeLessThanOrEqual(2500);
  });

  it("a text turn in the generated project lists every rite and role (project layout)", async () => {
    const s = await rendered("claude", ["project"]);
    const fake = await A.startFakeAnthropic(() => A.text("ok"));
    try {
      const run = await runClaude({ prompt: "hello", fake, sandbox: s });
      expect(run.exitCode, run.stderr).toBe(0);
      const skills = (run.init?.skills ?? []) as string[];
      const agents = (run.init?.agents ?? []) as string[];
      for (const r of rites()) expect(skills, r).toContain(r);
      for (const r of roles()) expect(agents, r).toContain(r);
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("project hooks: settings.json runs .devrites/hooks/pre-tool-use.cjs; it blocks, the control runs", async () => {
    const s = await rendered("claude", ["project"]);
    const log = s.path("hooks.jsonl");
    const fake = await A.startFakeAnthropic((_req, ctx) => {
      if (!ctx.hasToolResult("toolu_b"))
        return A.toolUse("toolu_b", "Bash", { command: "touch blocked.txt" });
      if (!ctx.hasToolResult("toolu_a"))
        return A.toolUse("toolu_a", "Bash", { command: "touch allowed.txt" });
      return A.text("done");
    });
    try {
      const run = await runClaude({ prompt: "go", fake, sandbox: s, env: { E2E_HOOK_LOG: log } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(join(s.project, "blocked.txt"))).toBe(false);
      expect(existsSync(join(s.project, "allowed.txt"))).toBe(true);
      const ctx = A.anthropicContextOf(fake.modelRequests().at(-1)!);
      expect(ctx.toolResult("toolu_b")).toContain("stand-in guard: blocked.txt is off limits");
      const calls = hookLog(log).filter((c) => c.hook_event_name === "PreToolUse");
      expect(calls.map((c) => c.bundle)).toEqual([
        `file://${join(s.project, ".devrites/hooks/pre-tool-use.cjs")}`,
        `file://${join(s.project, ".devrites/hooks/pre-tool-use.cjs")}`,
      ]);
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("project hooks fail closed for a leaf when the bundle is missing; the root's own call still runs", async () => {
    const s = await rendered("claude", ["project"]);
    const bundle = join(s.project, ".devrites/hooks/pre-tool-use.cjs");
    writeFileSync(bundle, VANISHING);
    const fake = await A.startFakeAnthropic((_req, ctx) => {
      if (ctx.isSubagent) {
        if (!ctx.hasToolResult("toolu_leaf"))
          return A.toolUse("toolu_leaf", "Bash", { command: "touch leaf.txt" });
        return A.text("leaf done");
      }
      if (!ctx.hasToolResult("toolu_root"))
        return A.toolUse("toolu_root", "Bash", { command: "touch root.txt" });
      if (!ctx.hasToolResult("toolu_spawn")) {
        return A.toolUse("toolu_spawn", "Agent", {
          description: "rite-spec: devrites-evidence-scout",
          prompt: "Touch leaf.txt.",
          subagent_type: "devrites-evidence-scout",
          run_in_background: false,
        });
      }
      return A.text("main done");
    });
    try {
      const run = await runClaude({ prompt: "go", fake, sandbox: s });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(bundle)).toBe(false);
      expect(existsSync(join(s.project, "root.txt"))).toBe(true);
      expect(existsSync(join(s.project, "leaf.txt"))).toBe(false);
      const child = fake
        .modelRequests()
        .map(A.anthropicContextOf)
        .filter((c) => c.isSubagent && c.hasToolResult("toolu_leaf"));
      expect(child.length).toBeGreaterThan(0);
      expect(child[0]!.toolResult("toolu_leaf")).toContain("denied (fail closed)");
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("plugin hooks run the plugin's own bundle, and fail closed for a plugin leaf without it", async () => {
    const s = await rendered("claude", ["plugin"]);
    const dir = join(s.project, PLUGIN);
    const log = s.path("hooks.jsonl");
    const fake = await A.startFakeAnthropic((_req, ctx) => {
      if (ctx.isSubagent) {
        if (!ctx.hasToolResult("toolu_leaf"))
          return A.toolUse("toolu_leaf", "Bash", { command: "touch leaf.txt" });
        return A.text("leaf done");
      }
      if (!ctx.hasToolResult("toolu_b"))
        return A.toolUse("toolu_b", "Bash", { command: "touch blocked.txt" });
      if (!ctx.hasToolResult("toolu_spawn")) {
        return A.toolUse("toolu_spawn", "Agent", {
          description: "rite-spec: devrites-evidence-scout",
          prompt: "Touch leaf.txt.",
          subagent_type: "devrites:devrites-evidence-scout",
          run_in_background: false,
        });
      }
      return A.text("main done");
    });
    try {
      const first = await runClaude({
        prompt: "go",
        fake,
        sandbox: s,
        pluginDirs: [dir],
        env: { E2E_HOOK_LOG: log },
      });
      expect(first.exitCode, first.stderr).toBe(0);
      expect(existsSync(join(s.project, "blocked.txt"))).toBe(false);
      expect(existsSync(join(s.project, "leaf.txt"))).toBe(true);
      const leafCalls = hookLog(log).filter((c) => c.hook_event_name === "PreToolUse" && c.agent_type);
      expect(leafCalls.map((c) => [c.agent_type, c.bundle])).toEqual([
        ["devrites:devrites-evidence-scout", `file://${join(dir, "hooks/pre-tool-use.cjs")}`],
      ]);

      rmSync(join(s.project, "leaf.txt"));
      writeFileSync(join(dir, "hooks/pre-tool-use.cjs"), VANISHING);
      fake.reset((_req, ctx) => {
        if (ctx.isSubagent) {
          if (!ctx.hasToolResult("toolu_leaf2"))
            return A.toolUse("toolu_leaf2", "Bash", { command: "touch leaf.txt" });
          return A.text("leaf done");
        }
        if (!ctx.hasToolResult("toolu_spawn2")) {
          return A.toolUse("toolu_spawn2", "Agent", {
            description: "rite-spec: devrites-evidence-scout",
            prompt: "Touch leaf.txt.",
            subagent_type: "devrites:devrites-evidence-scout",
            run_in_background: false,
          });
        }
        return A.text("main done");
      });
      const second = await runClaude({ prompt: "go", fake, sandbox: s, pluginDirs: [dir] });
      expect(second.exitCode, second.stderr).toBe(0);
      expect(existsSync(join(dir, "hooks/pre-tool-use.cjs"))).toBe(false);
      expect(existsSync(join(s.project, "leaf.txt"))).toBe(false);
      const denied = fake
        .modelRequests()
        .map(A.anthropicContextOf)
        .find((c) => c.isSubagent && c.hasToolResult("toolu_leaf2"));
      expect(denied?.toolResult("toolu_leaf2")).toContain("denied (fail closed)");
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describeHosts("Codex loads the generated skills, roles, hooks and plugin", hosts, ["codex"], () => {
  it("debug prompt-input lists every public rite skill and, in a trusted project, every role", async () => {
    const s = await rendered("codex", ["project"]);
    writeCodexConfig(s.home, { trustedProject: s.project });
    const pi = await codexPromptInput(s.project, s.home, CATALOG_MODEL);
    expect(pi.exitCode, pi.stderr).toBe(0);
    const skills = pi.listedSkills().filter((k) => k.file.startsWith("r1/"));
    expect(skills.map((k) => k.name).sort()).toEqual(publicRites());
    for (const k of skills) {
      expect(k.file).toBe(`r1/${k.name}/SKILL.md`);
      expect(k.description).toBe(model.skills.find((x) => x.name === k.name)?.description);
    }
    const listed = pi.listedRoles();
    for (const a of model.agents) {
      expect(listed.find((r) => r.name === a.name)?.description, a.name).toContain(a.description);
    }
    expect(pi.stdout + pi.stderr).not.toContain("Ignoring malformed agent role definition");
  });

  it("a spawned role loads (no malformed-role error); the project hook blocks it and sees its agent_type", async () => {
    const s = await rendered("codex", ["project"]);
    const log = s.path("hooks.jsonl");
    const role = "devrites-evidence-scout";
    const ns = { namespace: "multi_agent_v1" };
    const fake = await R.startFakeResponses((_req, ctx) => {
      if (ctx.isSubagent) {
        if (!ctx.hasToolResult("call_b"))
          return R.functionCall("call_b", "exec_command", { cmd: "touch blocked.txt" });
        if (!ctx.hasToolResult("call_a"))
          return R.functionCall("call_a", "exec_command", { cmd: "touch allowed.txt" });
        return R.text("leaf done");
      }
      if (!ctx.hasToolResult("call_spawn")) {
        return R.functionCall(
          "call_spawn",
          "spawn_agent",
          { agent_type: role, message: "touch the files" },
          ns,
        );
      }
      if (!ctx.hasToolResult("call_wait")) {
        const { agent_id } = JSON.parse(ctx.toolResult("call_spawn")!) as { agent_id: string };
        return R.functionCall("call_wait", "wait_agent", { targets: [agent_id] }, ns);
      }
      return R.text("root done");
    });
    try {
      const run = await runCodex({ prompt: "delegate", fake, sandbox: s, env: { E2E_HOOK_LOG: log } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.errors.filter((e) => e.includes("malformed"))).toEqual([]);
      expect(existsSync(join(s.project, "blocked.txt"))).toBe(false);
      expect(existsSync(join(s.project, "allowed.txt"))).toBe(true);
      const child = fake
        .modelRequests()
        .map(R.responsesContextOf)
        .filter((c) => c.isSubagent)
        .at(-1)!;
      expect(child.developer).toContain(`You are **${role}**`);
      expect(child.toolResult("call_b")).toContain("Command blocked by PreToolUse hook");
      const shell = hookLog(log).filter((c) => c.tool_name === "Bash" && c.agent_type);
      expect(shell.map((c) => c.agent_type)).toEqual([role, role]);
      expect(new Set(shell.map((c) => c.bundle))).toEqual(
        new Set([`file://${join(s.project, ".devrites/hooks/pre-tool-use.cjs")}`]),
      );
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("hooks fail closed for a leaf when the bundle is missing, from a subdirectory; the root's call runs", async () => {
    const s = await rendered("codex", ["project"]);
    const bundle = join(s.project, ".devrites/hooks/pre-tool-use.cjs");
    writeFileSync(bundle, VANISHING);
    mkdirSync(join(s.project, "src", "deep"), { recursive: true });
    const ns = { namespace: "multi_agent_v1" };
    const fake = await R.startFakeResponses((_req, ctx) => {
      if (ctx.isSubagent) {
        if (!ctx.hasToolResult("call_leaf"))
          return R.functionCall("call_leaf", "exec_command", { cmd: "touch leaf.txt" });
        return R.text("leaf done");
      }
      if (!ctx.hasToolResult("call_root"))
        return R.functionCall("call_root", "exec_command", { cmd: "touch root.txt" });
      if (!ctx.hasToolResult("call_spawn")) {
        return R.functionCall(
          "call_spawn",
          "spawn_agent",
          { agent_type: "devrites-evidence-scout", message: "touch leaf.txt" },
          ns,
        );
      }
      if (!ctx.hasToolResult("call_wait")) {
        const { agent_id } = JSON.parse(ctx.toolResult("call_spawn")!) as { agent_id: string };
        return R.functionCall("call_wait", "wait_agent", { targets: [agent_id] }, ns);
      }
      return R.text("root done");
    });
    try {
      const run = await runCodex({
        prompt: "go",
        fake,
        sandbox: s,
        extraArgs: ["-C", join(s.project, "src", "deep")],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(bundle)).toBe(false);
      const deep = join(s.project, "src", "deep");
      expect(existsSync(join(deep, "root.txt"))).toBe(true);
      expect(existsSync(join(deep, "leaf.txt"))).toBe(false);
      const child = fake
        .modelRequests()
        .map(R.responsesContextOf)
        .filter((c) => c.isSubagent)
        .at(-1)!;
      expect(child.toolResult("call_leaf")).toContain("denied (fail closed)");
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("the Codex plugin installs from the marketplace; its skills are listed and its hooks run its own bundle", async () => {
    const dist = await rendered("codex", ["plugin"]);
    const s = await makeSandbox();
    const bin = hosts.codex!.bin;
    const env = baseEnv(s.home, { FAKE_API_KEY: "dummy" });
    const add = await runProcess(bin, ["plugin", "marketplace", "add", dist.project], {
      cwd: s.project,
      env,
    });
    expect(add.exitCode, add.stderr).toBe(0);
    const install = await runProcess(bin, ["plugin", "add", "devrites@devrites"], { cwd: s.project, env });
    expect(install.exitCode, install.stderr).toBe(0);
    const pi = await codexPromptInput(s.project, s.home);
    expect(pi.exitCode, pi.stderr).toBe(0);
    // Plugin skills are listed as `- devrites:<rite>: …`; the harness's `listedSkills()` takes names without a colon.
    const texts = pi.items.flatMap((i) =>
      Array.isArray(i.content) ? i.content.map((c: { text?: unknown }) => String(c?.text ?? "")) : [],
    );
    const plugged = texts
      .flatMap((t) => [...t.matchAll(/^- (devrites:[a-z0-9-]+): .* \(file: [^()]+\)$/gm)].map((m) => m[1]!))
      .sort();
    expect(plugged).toEqual(publicRites().map((r) => `devrites:${r}`));

    const log = s.path("hooks.jsonl");
    const config = readFileSync(join(s.home, ".codex", "config.toml"), "utf8");
    const fake = await R.startFakeResponses((_req, ctx) => {
      if (!ctx.hasToolResult("call_b"))
        return R.functionCall("call_b", "exec_command", { cmd: "touch blocked.txt" });
      return R.text("done");
    });
    try {
      const run = await runCodex({
        prompt: "go",
        fake,
        sandbox: s,
        extraToml: config,
        env: { E2E_HOOK_LOG: log },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(join(s.project, "blocked.txt"))).toBe(false);
      const pre = hookLog(log).filter((c) => c.hook_event_name === "PreToolUse");
      expect(pre.length).toBe(1);
      expect(String(pre[0]!.bundle)).toMatch(
        /\/\.codex\/plugins\/cache\/devrites\/devrites\/[^/]+\/hooks\/pre-tool-use\.cjs$/,
      );
      expect(fake.failures).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});
