/**
 * Whole rites in the pinned real hosts: a repository installed with `devrites init --host <host>`, and a
 * scripted root that follows the installed rite text as the host shows it (`harness/rite-journey.ts`): it opens
 * the rite with the host's own skill mechanism, reads the reference files the rite links, and takes every
 * devrites command it runs out of that text, filling in only the placeholders.
 *
 * - rite-quick: the slice into `plan.md` (format from records.md), a wright whose first result is malformed
 *   (rejected), a retry packet that retires it and is accepted with no `guard.ambiguous-packet`, the proof
 *   runner accepted, the slice marked built, `status` showing the rite, `rite end`.
 * - rite-build: the first pending slice of a `plan.md` through the wright and the proof runner, marked built.
 *
 * One host run per rite and host (four in all). Skips with the reason when a host is unavailable
 * (`DEVRITES_REQUIRE_HOSTS=1` makes that a failure).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";
import * as A from "../../src/doctor/fake-model/anthropic.js";
import * as R from "../../src/doctor/fake-model/responses.js";
import { ensureHosts } from "./harness/install.js";
import { installPackage } from "./harness/package-install.js";
import {
  claudeJourney,
  codexJourney,
  codexSkillPath,
  commandIn,
  fill,
  type Host,
  type JourneyScript,
  type LeafPlan,
  linkedFile,
  markdownBlock,
  quoteIn,
  type RootStep,
  type RootView,
  runEvents,
  runIdIn,
  skillBase,
} from "./harness/rite-journey.js";
import { claudeEnv, runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import {
  baseEnv,
  cleanupAllSandboxes,
  killAllHostProcesses,
  makeSandbox,
  runProcess,
  type Sandbox,
} from "./harness/sandbox.js";
import { describeHosts } from "./harness/suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "bin", "devrites.js");
const hosts = await ensureHosts();
afterAll(() => {
  killAllHostProcesses();
  cleanupAllSandboxes();
});

const A_TS = "export const a = 1;\n";
const A_TS_AFTER = "export const a = 2;\n";
/** The project's tests: pass once `a` is 2. */
const PACKAGE = JSON.stringify({
  name: "app",
  private: true,
  scripts: {
    test: `node -e "process.exit(require('fs').readFileSync('src/a.ts','utf8').includes('= 2')?0:1)"`,
  },
});

/** A user's repository before any devrites: src/a.ts and its test script (and `extra` files) committed. */
async function committedProject(extra: Record<string, string> = {}): Promise<Sandbox> {
  const s = await makeSandbox();
  await execa("mkdir", ["-p", join(s.project, "src"), join(s.project, ".devrites")]);
  writeFileSync(join(s.project, "src", "a.ts"), A_TS);
  writeFileSync(join(s.project, "package.json"), PACKAGE);
  for (const [p, t] of Object.entries(extra)) writeFileSync(join(s.project, p), t);
  const git = (args: string[]) =>
    execa("git", ["-c", "user.email=e@x.invalid", "-c", "user.name=e", ...args], { cwd: s.project });
  await git(["add", "."]);
  await git(["commit", "-qm", "init"]);
  return s;
}

/** The package installed in `s`'s project, then `devrites init` with `initArgs`. */
async function installed(s: Sandbox, initArgs: string[]): Promise<Sandbox> {
  installPackage(s.project);
  const init = await execa("node", [CLI, "init", ...initArgs], { cwd: s.project, reject: false });
  expect(init.exitCode, `${init.stdout}\n${init.stderr}`).toBe(0);
  return s;
}

/** A user's repository: src/a.ts and its test script committed, then `devrites init --host <host>`. */
async function userRepo(host: Host, extra: Record<string, string> = {}): Promise<Sandbox> {
  return installed(await committedProject(extra), ["--host", host]);
}

/** The skill's folder: Claude names it ("Base directory for this skill"), Codex lists the SKILL.md path. */
function skillDir(view: RootView, skill: string): string {
  const claude = skillBase(view.transcript, skill);
  if (claude) return claude;
  const codex = codexSkillPath(view.transcript, skill);
  if (!codex) throw new Error(`the host did not show where ${skill} lives`);
  return dirname(codex);
}

/** A file the rite links (`../rite/reference/<name>`), as a path from the skill's folder. */
function linked(view: RootView, skill: string, name: string): string {
  const link = linkedFile(view.skillText, name);
  if (!link) throw new Error(`${skill} links no ${name}`);
  return join(skillDir(view, skill), link);
}

/** A command the text names, or a thrown error that says which is missing. */
function need(text: string | undefined, words: string): string {
  const c = commandIn(text ?? "", words);
  if (!c)
    throw new Error(
      `the rite text names no \`devrites ${words}\` (in ${(text ?? "").length} chars: ${JSON.stringify((text ?? "").slice(0, 80))})`,
    );
  return c;
}

/** The `packet new` line of `text` without its optional parts, filled, plus the flags given. */
function packetNew(dispatch: string, values: Record<string, string>, flags: string[]): string {
  const template = need(dispatch, "packet new").replace(/\s*\[[^\]]*\](\.\.\.)?/g, "");
  return `${fill(template, values)} ${flags.join(" ")}`.trim();
}

/** The spawn dispatch.md (else the rite) gives, for a packet made by the step `packetStep`. */
function spawn(view: RootView, rite: string, role: string, packetStep: string) {
  const dispatch = view.out("dispatch")?.text ?? view.skillText;
  const runId = runIdIn(view.out(packetStep)?.text ?? "");
  if (!runId) return undefined;
  const prompt = quoteIn(dispatch, "Packet:");
  // Claude's Agent tool takes a description (dispatch.md gives its form); Codex's spawn_agent none
  const description = /description: "([^"]+)"/.exec(dispatch)?.[1] ?? "";
  // the agent type as the text writes it (a plugin's agents are `<plugin>:<role>`)
  const agentType = /(?:subagent_type|agent_type): "([^"<]*)<role>"/.exec(dispatch);
  if (!prompt || !agentType) throw new Error("dispatch.md no longer says how to spawn");
  return {
    kind: "spawn" as const,
    role: `${agentType[1]}${role}`,
    description: fill(description, { rite, role }),
    prompt: fill(prompt, { "run-id": runId }),
  };
}

/** The `result check` dispatch.md (else the rite) gives, for the run made by `packetStep`. */
function check(view: RootView, packetStep: string) {
  const runId = runIdIn(view.out(packetStep)?.text ?? "");
  return runId
    ? {
        kind: "shell" as const,
        cmd: fill(need(view.out("dispatch")?.text ?? view.skillText, "result check"), { "run-id": runId }),
      }
    : undefined;
}

/** A plan.md slice in the format the rite gives (`format`), filled for this change. */
/**
 * The proof runner's three root steps once the wright's check `after` passed: its packet (the command line read
 * from `source`, the text the rite shows for it), its spawn and its check.
 */
function proofRunnerSteps(
  rite: string,
  source: (v: RootView) => string,
  sliceId: string,
  after: string,
): RootStep[] {
  return [
    {
      id: "packet_p",
      act: (v) =>
        v.out(after)?.exitCode === 0
          ? {
              kind: "shell",
              cmd: packetNew(
                source(v),
                {
                  role: "devrites-proof-runner",
                  rite,
                  "one paragraph": `Run npm test for slice ${sliceId} (src/a.ts) and report each check.`,
                },
                ["--input src/a.ts"],
              ),
            }
          : undefined,
    },
    { id: "spawn_p", act: (v) => spawn(v, rite, "devrites-proof-runner", "packet_p") },
    { id: "check_p", act: (v) => check(v, "packet_p") },
  ];
}

function slice(format: string | undefined, id: string, status: string): string {
  if (!format) throw new Error("the rite gives no plan.md slice format");
  const values: Record<string, string> = {
    Goal: "a is 2.",
    Files: "src/a.ts",
    Tests: "npm test",
    Acceptance: "npm test passes",
    "Depends on": "none",
    Status: status,
  };
  return format
    .split("\n")
    .map((line) => {
      if (line.startsWith("## Slice")) return `## Slice ${id}: set a to 2`;
      if (line.startsWith("Status:")) return `Status: ${status}`;
      const k = Object.keys(values).find((f) => line.startsWith(`${f}:`));
      return k ? `${k}: ${values[k]}` : line;
    })
    .join("\n");
}

const LEAF: LeafPlan = {
  wrightWrites: (p) => Object.fromEntries(p.scope.allowed_repo_writes.map((f) => [f, A_TS_AFTER])),
  // the first wright packet's result is malformed; the retry's objective quotes the rejection
  malformed: (p) => !p.objective.includes("rejected"),
  proofCommand: "npm test",
};

/**
 * rite-quick, as its text says: the happy path from the rite alone (its dispatch brief and slice format), and
 * dispatch.md read only when a check is not exit 0, as the brief says. With `retry`, the first wright result is
 * malformed and the root retries it as dispatch.md says; without, the first wright run is the one accepted.
 */
function riteQuick(skill = "rite-quick", { retry = true }: { retry?: boolean } = {}): JourneyScript {
  const rite = "rite-quick";
  const wright = "devrites-slice-wright";
  const text = (v: RootView) => v.skillText;
  const dispatch = (v: RootView) => v.out("dispatch")?.text ?? "";
  const objective = "Slice quick-1: set a to 2 in src/a.ts; npm test must pass.";
  // the wright run whose check is the one that counts
  const built = retry ? "w2" : "w1";
  const retrySteps: RootStep[] = [
    {
      // not exit 0: the brief sends the root to dispatch.md
      id: "dispatch",
      act: (v) =>
        v.out("check_w1") && v.out("check_w1")?.exitCode !== 0
          ? { kind: "read", path: linked(v, rite, "dispatch.md") }
          : undefined,
    },
    {
      // dispatch.md, rejected and malformed: one new packet for the same role quoting the exact defect
      id: "packet_w2",
      act: (v) => {
        const c = v.out("check_w1");
        if (c?.exitCode !== 1 || !v.out("dispatch")) return undefined;
        if (!/one new packet for the same role whose objective quotes the exact defect/.test(dispatch(v)))
          throw new Error("dispatch.md no longer says how to retry a malformed result");
        const defect = /error ([a-z]+\.[a-z-]+)/.exec(c.text)?.[1] ?? "malformed result";
        return {
          kind: "shell",
          cmd: packetNew(
            text(v),
            { role: wright, rite, "one paragraph": `${objective} The last result was rejected: ${defect}.` },
            ["--allow src/a.ts"],
          ),
        };
      },
    },
    { id: "spawn_w2", act: (v) => spawn(v, rite, wright, "packet_w2") },
    { id: "check_w2", act: (v) => check(v, "packet_w2") },
  ];
  const root: RootStep[] = [
    { id: "skill", act: () => ({ kind: "skill", name: skill }) },
    { id: "start", act: (v) => ({ kind: "shell", cmd: fill(need(text(v), "rite start"), { rite }) }) },
    {
      id: "plan",
      act: (v) => ({
        kind: "write",
        path: ".devrites/plan.md",
        content: `${slice(markdownBlock(text(v)), "quick-1", "pending")}\n`,
      }),
    },
    {
      id: "packet_w1",
      act: (v) => ({
        kind: "shell",
        cmd: packetNew(text(v), { role: wright, rite, "one paragraph": objective }, ["--allow src/a.ts"]),
      }),
    },
    { id: "spawn_w1", act: (v) => spawn(v, rite, wright, "packet_w1") },
    { id: "check_w1", act: (v) => check(v, "packet_w1") },
    ...(retry ? retrySteps : []),
    ...proofRunnerSteps(rite, text, "quick-1", `check_${built}`),
    {
      id: "mark",
      act: (v) =>
        v.out("check_p")?.exitCode === 0
          ? {
              kind: "write",
              path: ".devrites/plan.md",
              content: `${slice(markdownBlock(text(v)), "quick-1", `built (${runIdIn(v.out(`packet_${built}`)?.text ?? "")})`)}\n`,
            }
          : undefined,
    },
    ...(retry
      ? [
          {
            id: "status",
            act: (v: RootView) => ({ kind: "shell" as const, cmd: need(dispatch(v), "status") }),
          },
        ]
      : []),
    { id: "end", act: (v) => ({ kind: "shell", cmd: fill(need(text(v), "rite end"), { rite }) }) },
    { id: "report", act: () => ({ kind: "done", text: "quick-1 built: src/a.ts; npm test passes." }) },
  ];
  return { root, leaf: retry ? LEAF : { ...LEAF, malformed: () => false } };
}

/**
 * The most a rite-quick root may read back on its happy path, per host (characters of tool output, with the
 * rite's text Claude adds after the Skill tool): issue #17's target. Before the rite carried its own dispatch
 * brief and slice format the root also read dispatch.md and records.md, about 12,700 (Claude) and 11,900
 * (Codex). Of what is left the hosts' own wrapping is fixed: Claude's hand-back frame and agent line (about 740
 * per leaf), its Write results (about 180) and the skill's base-directory line, Codex's exit-code header on
 * every shell call (about 100). The rest is the rite's text, the two results and the CLI's lines; the figures
 * per step are printed by the test below.
 */
const ROOT_CONTEXT_CEILING: Record<Host, number> = { claude: 5_000, codex: 5_000 };

/** Every step of rite-quick's happy path: the root-context measure. */
const QUICK_HAPPY_STEPS = [
  "skill",
  "start",
  "plan",
  "packet_w1",
  "spawn_w1",
  "check_w1",
  "packet_p",
  "spawn_p",
  "check_p",
  "mark",
  "end",
];

/** The plan rite-plan would have left: one pending slice, and the spec it cites. */
const PLANNED = {
  ".devrites/spec.md": "# a is 2\n## Acceptance     A1. npm test passes\n",
  ".devrites/plan.md": [
    "## Slice s1: set a to 2",
    "Goal: a is 2.",
    "Files: src/a.ts",
    "Tests: npm test",
    "Acceptance: A1",
    "Depends on: none",
    "Status: pending",
    "",
  ].join("\n"),
};

/** rite-build on the first pending slice of plan.md, as its text and dispatch.md say. */
function riteBuild(): JourneyScript {
  const rite = "rite-build";
  const wright = "devrites-slice-wright";
  const dispatch = (v: RootView) => v.out("dispatch")?.text ?? "";
  const skillText = (v: RootView) => v.transcript;
  const plan = (v: RootView) => v.out("plan")?.text ?? "";
  const files = (v: RootView) => (/^Files: (.*)$/m.exec(plan(v))?.[1] ?? "").split(/,\s*/).filter(Boolean);
  const root: RootStep[] = [
    { id: "skill", act: () => ({ kind: "skill", name: rite }) },
    { id: "dispatch", act: (v) => ({ kind: "read", path: linked(v, rite, "dispatch.md") }) },
    { id: "start", act: (v) => ({ kind: "shell", cmd: fill(need(dispatch(v), "rite start"), { rite }) }) },
    { id: "plan", act: () => ({ kind: "read", path: ".devrites/plan.md" }) },
    {
      id: "packet_w1",
      act: (v) => {
        // rite-build's own line: one --allow per path in the slice's Files:, --input .devrites/spec.md
        const line = need(skillText(v), "packet new --role devrites-slice-wright");
        const base = line.replace(/\s*--allow <file>…?/, "");
        const sliceText = /## Slice[\s\S]*?Status: pending/.exec(plan(v))?.[0] ?? "";
        return {
          kind: "shell",
          cmd: [
            base,
            ...files(v).map((f) => `--allow ${f}`),
            "--input .devrites/spec.md",
            `--objective ${JSON.stringify(sliceText.replace(/\n/g, " "))}`,
          ].join(" "),
        };
      },
    },
    { id: "spawn_w1", act: (v) => spawn(v, rite, wright, "packet_w1") },
    { id: "check_w1", act: (v) => check(v, "packet_w1") },
    ...proofRunnerSteps(rite, dispatch, "s1", "check_w1"),
    {
      id: "mark",
      act: (v) =>
        v.out("check_p")?.exitCode === 0
          ? {
              kind: "write",
              path: ".devrites/plan.md",
              content: plan(v).replace(
                "Status: pending",
                `Status: built (${runIdIn(v.out("packet_w1")?.text ?? "")})`,
              ),
            }
          : undefined,
    },
    { id: "status", act: (v) => ({ kind: "shell", cmd: need(dispatch(v), "status") }) },
    { id: "end", act: (v) => ({ kind: "shell", cmd: fill(need(dispatch(v), "rite end"), { rite }) }) },
    { id: "report", act: () => ({ kind: "done", text: "s1 built: src/a.ts; npm test passes." }) },
  ];
  return { root, leaf: { ...LEAF, malformed: () => false } };
}

interface Journey {
  /** Root step outputs, by step id. */
  out(id: string): { text: string; exitCode: number } | undefined;
  /**
   * Characters the root read back from step `id`: its tool's output (Codex: `spawn_agent`'s and `wait_agent`'s),
   * and for the skill step also the rite's text Claude adds to the conversation after the Skill tool.
   */
  chars(id: string): number;
}

/** Run `script` in `host`; the prompt is the user's request, the rite comes from the script. */
async function drive(
  host: Host,
  s: Sandbox,
  script: JourneyScript,
  prompt: string,
  /** Codex: config to add (a plugin's entries, as `codex plugin add` wrote them). */
  extraToml?: string,
): Promise<Journey> {
  const dump = (bodies: unknown[]) => {
    if (process.env.DEVRITES_JOURNEY_DUMP)
      writeFileSync(process.env.DEVRITES_JOURNEY_DUMP, JSON.stringify(bodies, null, 1));
  };
  if (host === "claude") {
    const fake = await A.startFakeAnthropic(claudeJourney(script, s.project), { budget: 60 });
    try {
      const run = await runClaude({
        prompt,
        fake,
        sandbox: s,
        allowedTools: ["Skill", "Read", "Write", "Edit", "Bash", "Agent"],
        timeoutMs: 150_000,
      });
      dump(fake.modelRequests().map((r) => r.body));
      expect(run.exitCode, run.stderr).toBe(0);
      expect(fake.failures).toEqual([]);
      const rootReq = fake
        .modelRequests()
        .filter((r) => !A.anthropicContextOf(r).isSubagent)
        .at(-1)!;
      const last = A.anthropicContextOf(rootReq);
      const skillText = ((rootReq.body as A.AnthropicRequestBody).messages ?? [])
        .flatMap((m) => (Array.isArray(m?.content) ? (m?.content as { type: string; text?: string }[]) : []))
        .find((b) => b.type === "text" && b.text?.startsWith("Base directory for this skill:"))?.text;
      return {
        out: (id) => {
          const b = last.toolResultBlock(id);
          if (!b) return undefined;
          const m = /^Exit code (\d+)/.exec(b.text);
          return { text: b.text, exitCode: m ? Number(m[1]) : b.isError ? 1 : 0 };
        },
        chars: (id) => (last.toolResult(id)?.length ?? 0) + (id === "skill" ? (skillText?.length ?? 0) : 0),
      };
    } finally {
      await fake.close();
    }
  }
  const fake = await R.startFakeResponses(codexJourney(script, s.project), { budget: 60 });
  try {
    // Codex's default workspace-write sandbox, as a user has it: `.git` is read-only for the root's shell, so
    // runs are anchored in `.devrites/anchors` (see "Codex keeps .git read-only" below)
    const run = await runCodex({
      prompt,
      fake,
      sandbox: s,
      timeoutMs: 150_000,
      ...(extraToml !== undefined ? { extraToml } : {}),
    });
    dump(fake.modelRequests().map((r) => r.body));
    expect(run.exitCode, run.stderr).toBe(0);
    expect(fake.failures).toEqual([]);
    const rootReqs = fake.modelRequests().filter((r) => !R.responsesContextOf(r).isSubagent);
    const last = R.responsesContextOf(rootReqs.at(-1)!);
    return {
      out: (id) => {
        const t = last.toolResult(`${id}_wait`) ?? last.toolResult(id);
        if (t === undefined) return undefined;
        const code = /Process exited with code (\d+)/.exec(t);
        return { text: t, exitCode: code ? Number(code[1]) : 0 };
      },
      chars: (id) => (last.toolResult(id)?.length ?? 0) + (last.toolResult(`${id}_wait`)?.length ?? 0),
    };
  } finally {
    await fake.close();
  }
}

/** Codex config that makes `<git-dir>/devrites` (and only it) writable in the workspace-write sandbox. */
function anchorsWritable(s: Sandbox): string {
  const dir = join(s.project, ".git", "devrites");
  mkdirSync(join(dir, "anchors"), { recursive: true });
  return `[sandbox_workspace_write]\nwritable_roots = [${JSON.stringify(dir)}]`;
}

function state(s: Sandbox) {
  return JSON.parse(readFileSync(join(s.project, ".devrites", "state.json"), "utf8")) as {
    active_rite: string | null;
    active_runs: unknown[];
  };
}

async function statusAfter(s: Sandbox): Promise<string> {
  const r = await execa(join(s.project, ".devrites", "bin", "devrites"), ["status"], {
    cwd: s.project,
    reject: false,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout;
}

function verdicts(s: Sandbox, out: Journey["out"], step: string): string[] {
  const runId = runIdIn(out(step)?.text ?? "");
  expect(runId, `no run id from ${step}`).toBeDefined();
  return runEvents(s.project, runId!)
    .filter((e) => e.type === "result.checked")
    .map((e) => String(e.data?.verdict));
}

for (const host of ["claude", "codex"] as const) {
  describeHosts(`rite journeys, installed by devrites init: ${host}`, hosts, [host], () => {
    it("rite-quick: a rejected wright, its retry accepted, the proof runner accepted, the slice built", {
      timeout: 200_000,
    }, async () => {
      const s = await userRepo(host);
      const j = await drive(host, s, riteQuick(), "Quick fix: make a equal 2 in src/a.ts.");
      // every command came from the installed text and ran
      expect(j.out("start")?.exitCode, j.out("start")?.text).toBe(0);
      expect(j.out("check_w1")?.exitCode, j.out("check_w1")?.text).toBe(1);
      expect(j.out("packet_w2")?.exitCode, j.out("packet_w2")?.text).toBe(0);
      expect(j.out("check_w2")?.exitCode, j.out("check_w2")?.text).toBe(0);
      expect(j.out("check_p")?.exitCode, j.out("check_p")?.text).toBe(0);
      expect(j.out("status")?.text).toContain("rite: rite-quick, phase quick");
      expect(j.out("end")?.exitCode, j.out("end")?.text).toBe(0);
      // the retry met no ambiguity: the first wright run was retired when its retry's packet was made
      // (the SubagentStop hook judged each result, then the root's own check)
      expect(new Set(verdicts(s, j.out, "packet_w1"))).toEqual(new Set(["rejected"]));
      expect(new Set(verdicts(s, j.out, "packet_w2"))).toEqual(new Set(["accepted"]));
      expect(new Set(verdicts(s, j.out, "packet_p"))).toEqual(new Set(["accepted"]));
      expect(j.out("packet_w2")?.text).toContain("packet.superseded");
      const guardDenials = readFileSync(
        join(s.project, ".devrites", "runs", runIdIn(j.out("packet_w2")!.text)!, "events.jsonl"),
        "utf8",
      );
      expect(guardDenials).not.toContain("guard.ambiguous-packet");
      // the effect: the file changed, the slice is on record as built by the accepted wright run
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS_AFTER);
      const planMd = readFileSync(join(s.project, ".devrites", "plan.md"), "utf8");
      expect(planMd).toContain(`Status: built (${runIdIn(j.out("packet_w2")!.text)})`);
      expect(state(s)).toMatchObject({ active_rite: null, active_runs: [] });
      const after = await statusAfter(s);
      expect(after).toContain("active runs: none");
    });

    it("rite-quick, its happy path: the slice built, and what the root read back within the ceiling", {
      timeout: 200_000,
    }, async () => {
      const s = await userRepo(host);
      const j = await drive(
        host,
        s,
        riteQuick("rite-quick", { retry: false }),
        "Quick fix: make a equal 2 in src/a.ts.",
      );
      expect(j.out("check_w1")?.exitCode, j.out("check_w1")?.text).toBe(0);
      expect(j.out("check_p")?.exitCode, j.out("check_p")?.text).toBe(0);
      expect(j.out("end")?.exitCode, j.out("end")?.text).toBe(0);
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS_AFTER);
      expect(readFileSync(join(s.project, ".devrites", "plan.md"), "utf8")).toContain(
        `Status: built (${runIdIn(j.out("packet_w1")!.text)})`,
      );
      expect(state(s)).toMatchObject({ active_rite: null, active_runs: [] });
      // what the root of a rite-quick reads back: every tool output of the journey, step by step
      const perStep = QUICK_HAPPY_STEPS.map((id) => [id, j.chars(id)] as const);
      const total = perStep.reduce((n, [, c]) => n + c, 0);
      console.log(
        `[root context] ${host} rite-quick: ${total} characters (${perStep.map(([id, c]) => `${id} ${c}`).join(", ")})`,
      );
      for (const [id, c] of perStep) expect(c, `no output from ${id}`).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(ROOT_CONTEXT_CEILING[host]);
    });

    it("rite-build: the first pending slice through the wright and the proof runner, marked built", {
      timeout: 200_000,
    }, async () => {
      const s = await userRepo(host, PLANNED);
      const j = await drive(host, s, riteBuild(), "Build the next slice.");
      expect(j.out("packet_w1")?.exitCode, j.out("packet_w1")?.text).toBe(0);
      expect(j.out("check_w1")?.exitCode, j.out("check_w1")?.text).toBe(0);
      expect(j.out("check_p")?.exitCode, j.out("check_p")?.text).toBe(0);
      expect(j.out("status")?.text).toContain("rite: rite-build, phase build");
      expect(j.out("end")?.exitCode).toBe(0);
      expect(new Set(verdicts(s, j.out, "packet_w1"))).toEqual(new Set(["accepted"]));
      expect(new Set(verdicts(s, j.out, "packet_p"))).toEqual(new Set(["accepted"]));
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS_AFTER);
      expect(readFileSync(join(s.project, ".devrites", "plan.md"), "utf8")).toContain(
        `Status: built (${runIdIn(j.out("packet_w1")!.text)})`,
      );
      expect(state(s)).toMatchObject({ active_rite: null, active_runs: [] });
    });
  });
}

describeHosts("Codex keeps .git read-only for the root's shell: packet new", hosts, ["codex"], () => {
  it("anchors the run in .devrites/anchors, and with <git-dir>/devrites writable in the git folder", async () => {
    const s = await userRepo("codex");
    const cmd =
      ".devrites/bin/devrites packet new --role devrites-evidence-scout --rite rite-spec --objective x";
    const fake = await R.startFakeResponses((_req, ctx) => {
      if (!ctx.hasToolResult("call_packet")) return R.functionCall("call_packet", "exec_command", { cmd });
      return R.text("done");
    });
    try {
      const run = await runCodex({ prompt: "go", fake, sandbox: s });
      expect(run.exitCode, run.stderr).toBe(0);
      const out = R.responsesContextOf(fake.modelRequests().at(-1)!).toolResult("call_packet") ?? "";
      expect(out).toContain("Process exited with code 0");
      const first = runIdIn(out)!;
      expect(first).toBeDefined();
      // the git folder stayed as Codex keeps it: nothing written there
      expect(existsSync(join(s.project, ".git", "devrites"))).toBe(false);
      expect(existsSync(join(s.project, ".devrites", "anchors", `${first}.json`))).toBe(true);
      // the control: the same call with the git folder's anchors writable anchors there
      fake.reset((_req, ctx) => {
        if (!ctx.hasToolResult("call_packet2"))
          return R.functionCall("call_packet2", "exec_command", { cmd });
        return R.text("done");
      });
      const again = await runCodex({ prompt: "go", fake, sandbox: s, extraToml: anchorsWritable(s) });
      expect(again.exitCode, again.stderr).toBe(0);
      const ok = R.responsesContextOf(fake.modelRequests().at(-1)!).toolResult("call_packet2") ?? "";
      expect(ok).toContain("Process exited with code 0");
      const second = runIdIn(ok)!;
      expect(existsSync(join(s.project, ".git", "devrites", "anchors", `${second}.json`))).toBe(true);
      expect(existsSync(join(s.project, ".devrites", "anchors", `${second}.json`))).toBe(false);
    } finally {
      await fake.close();
    }
  });
});

describeHosts(
  "rite journey, the Claude Code plugin alone (no npm install, no init)",
  hosts,
  ["claude"],
  () => {
    it("rite-quick through the plugin's CLI, agents and hooks: rejected wright, retry, proof runner, slice built", {
      timeout: 200_000,
    }, async () => {
      const s = await committedProject();
      const env = claudeEnv(s.home, "http://127.0.0.1:9");
      for (const args of [
        ["plugin", "marketplace", "add", ROOT],
        ["plugin", "install", "devrites@devrites"],
      ]) {
        const r = await runProcess(hosts.claude!.bin, args, { cwd: s.project, env });
        expect(r.exitCode, r.stderr).toBe(0);
      }
      const j = await drive(
        "claude",
        s,
        riteQuick("devrites:rite-quick"),
        "Quick fix: make a equal 2 in src/a.ts.",
      );
      // the happy path ran the plugin's CLI by the path Claude substituted; the retry, from dispatch.md, by name
      expect(j.out("packet_w1")?.exitCode, j.out("packet_w1")?.text).toBe(0);
      expect(j.out("check_w1")?.exitCode, j.out("check_w1")?.text).toBe(1);
      expect(j.out("check_w2")?.exitCode, j.out("check_w2")?.text).toBe(0);
      expect(j.out("check_p")?.exitCode, j.out("check_p")?.text).toBe(0);
      expect(j.out("status")?.text).toContain("rite: rite-quick, phase quick");
      expect(new Set(verdicts(s, j.out, "packet_w2"))).toEqual(new Set(["accepted"]));
      expect(new Set(verdicts(s, j.out, "packet_p"))).toEqual(new Set(["accepted"]));
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS_AFTER);
      expect(state(s)).toMatchObject({ active_rite: null, active_runs: [] });
      expect(existsSync(join(s.project, "node_modules"))).toBe(false);
      expect(existsSync(join(s.project, ".devrites", "bin"))).toBe(false);
    });
  },
);

describeHosts(
  "rite journey, the Codex plugin with the roles it cannot carry (init --host none --roles codex)",
  hosts,
  ["codex"],
  () => {
    it("rite-quick through the plugin's rites and hooks and the installed roles: rejected wright, retry, proof runner, slice built", {
      timeout: 200_000,
    }, async () => {
      const s = await installed(await committedProject(), ["--host", "none", "--roles", "codex"]);
      // no skills and no hooks of the project's own: those come from the plugin
      expect(existsSync(join(s.project, ".agents"))).toBe(false);
      expect(existsSync(join(s.project, ".codex", "hooks.json"))).toBe(false);
      const env = baseEnv(s.home, { FAKE_API_KEY: "dummy" });
      for (const args of [
        ["plugin", "marketplace", "add", ROOT],
        ["plugin", "add", "devrites@devrites"],
      ]) {
        const r = await runProcess(hosts.codex!.bin, args, { cwd: s.project, env });
        expect(r.exitCode, r.stderr).toBe(0);
      }
      const config = readFileSync(join(s.home, ".codex", "config.toml"), "utf8");
      // Codex lists the plugin's skill as `devrites:rite-quick` in the folder `rite-quick`
      const j = await drive("codex", s, riteQuick(), "Quick fix: make a equal 2 in src/a.ts.", config);
      expect(j.out("packet_w1")?.exitCode, j.out("packet_w1")?.text).toBe(0);
      expect(j.out("check_w1")?.exitCode, j.out("check_w1")?.text).toBe(1);
      expect(j.out("check_w2")?.exitCode, j.out("check_w2")?.text).toBe(0);
      expect(j.out("check_p")?.exitCode, j.out("check_p")?.text).toBe(0);
      expect(new Set(verdicts(s, j.out, "packet_w2"))).toEqual(new Set(["accepted"]));
      expect(new Set(verdicts(s, j.out, "packet_p"))).toEqual(new Set(["accepted"]));
      expect(readFileSync(join(s.project, "src", "a.ts"), "utf8")).toBe(A_TS_AFTER);
      expect(state(s)).toMatchObject({ active_rite: null, active_runs: [] });
    });
  },
);
