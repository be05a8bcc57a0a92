/**
 * The pack this project ships (`pack/.claude`): it loads and lints clean, its roles agree with the role table,
 * and the contracts it states agree with the envelope types.
 */

import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { allCommands } from "../cli/commands/index.js";
import { commandNames, commands, registerCommands } from "../cli/registry.js";
import { ROLE_NAMES, ROLES } from "../envelope/roles.js";
import type {
  AgentResult,
  EvidenceDossier,
  PlanCandidate,
  ProofReport,
  ResultBudget,
  ReviewFindings,
  SideEffects,
  WrightReport,
} from "../envelope/types.js";
import { AgentResultSchema, ResultBudgetSchema, SideEffectsSchema } from "../envelope/zod.js";
import { PLANNED_COMMANDS, SHIPPED_PACK } from "./fixtures.js";
import { lintPack } from "./lint.js";
import { loadPack } from "./load.js";
import type { PackModel } from "./types.js";

let model: PackModel;
let loadDiagnostics: Awaited<ReturnType<typeof loadPack>>["diagnostics"];
beforeAll(async () => {
  const r = await loadPack(SHIPPED_PACK);
  model = r.model;
  loadDiagnostics = r.diagnostics;
});

/** The fenced ```json blocks of a text, parsed. */
function jsonBlocks(text: string): unknown[] {
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] as string));
}

describe("the shipped pack", () => {
  it("loads every file without a diagnostic", () => {
    expect(loadDiagnostics).toEqual([]);
    expect(model.skills.map((s) => s.name)).toEqual([
      "rite",
      "rite-build",
      "rite-plan",
      "rite-prove",
      "rite-quick",
      "rite-resolve",
      "rite-review",
      "rite-ship",
      "rite-spec",
      "rite-status",
    ]);
    expect(model.agents.map((a) => a.name)).toEqual([...ROLE_NAMES].sort());
    expect(model.hooks.map((h) => h.event)).toEqual(["PreToolUse", "SubagentStop", "UserPromptSubmit"]);
  });

  it("lints clean (no errors, no warnings) against the commands the rites use", () => {
    expect(lintPack(model, PLANNED_COMMANDS)).toEqual([]);
  });

  it("lints clean against the CLI's live command registry", () => {
    if (commands.length === 0) registerCommands(allCommands);
    const missing = PLANNED_COMMANDS.filter((c) => !commandNames().includes(c));
    expect(missing, "commands the rites tell the model to run but the CLI does not have").toEqual([]);
    expect(lintPack(model, commandNames())).toEqual([]);
  });

  it("gives each role the mode and payload of the role table and the tools of its mode", () => {
    for (const a of model.agents) {
      const spec = ROLES[a.name as keyof typeof ROLES];
      expect({ mode: a.mode, payload: a.payload }, a.name).toEqual({
        mode: spec.mode,
        payload: spec.payload,
      });
      expect(a.tools, a.name).toEqual(
        spec.mode === "writer" ? ["Read", "Edit", "Write", "Bash"] : ["Read", "Bash"],
      );
      expect(a.frontmatter, a.name).not.toHaveProperty("model");
    }
    expect(model.agents.filter((a) => a.mode === "writer").map((a) => a.name)).toEqual([
      "devrites-slice-wright",
    ]);
  });

  it("includes every shared role fragment into every role, and the dispatch brief into rite-quick only", () => {
    const roles = model.agents.map((a) => a.source.path).sort();
    for (const f of model.fragments.filter((x) => x.name !== "dispatch-brief"))
      expect(f.includedBy, f.name).toEqual(roles);
    expect(model.fragments.map((f) => f.name)).toEqual([
      "budgets",
      "dispatch-brief",
      "never-list",
      "result-contract",
      "untrusted-input",
    ]);
    // the express lane's root reads its whole happy path in its own text (root context, issue #17)
    expect(model.fragments.find((f) => f.name === "dispatch-brief")?.includedBy).toEqual([
      "skills/rite-quick/SKILL.md",
    ]);
  });

  it("points every dispatching rite at the shared dispatch protocol", () => {
    for (const s of model.skills.filter((x) => x.devrites.dispatches.length > 0)) {
      expect(s.body, s.name).toContain("`../rite/reference/dispatch.md`");
    }
  });

  it("states the protocol, waves and ladder in the dispatch reference", () => {
    const rite = model.skills.find((s) => s.name === "rite");
    const dispatch = rite?.references.find((r) => r.relPath === "reference/dispatch.md")?.content ?? "";
    for (const phrase of [
      "devrites packet new --role",
      "subagent_type",
      "devrites result check",
      "devrites result record",
      "At most three read-only leaves at once",
      "One writer at a time",
      "At most three attempts per cause",
      "non-independent",
      "## 6. Ladder",
    ]) {
      expect(dispatch, phrase).toContain(phrase);
    }
  });
});

describe("the contracts the pack states agree with the envelope types", () => {
  const contract = () => model.fragments.find((f) => f.name === "result-contract")?.content ?? "";

  it("shows exactly the required agent-result/v1 keys, and names each key that may be left out", () => {
    const text = contract();
    const [skeleton] = jsonBlocks(text) as Record<string, Record<string, unknown>>[];
    // Every key, whether the schema lets a result leave it out: the type check keeps this list whole.
    const top = {
      result_version: false,
      run_id: false,
      role: false,
      status: false,
      baseline_id: false,
      budget: false,
      side_effects: true,
      payload: false,
      gates: true,
      decisions_stood: true,
      escalation: true,
    } satisfies Record<keyof AgentResult, boolean>;
    const budget = {
      files_used: false,
      loaded_lines_used: false,
      max_files: true,
      max_loaded_lines: true,
      max_result_lines: true,
    } satisfies Record<keyof ResultBudget, boolean>;
    const effects = { repo_writes: true, scratch_writes: true } satisfies Record<keyof SideEffects, boolean>;
    const shapes = [
      [top, AgentResultSchema.shape],
      [budget, ResultBudgetSchema.shape],
      [effects, SideEffectsSchema.shape],
    ] as const;
    for (const [keys, shape] of shapes) {
      for (const [k, optional] of Object.entries(keys)) {
        expect((shape as Record<string, z.ZodType>)[k]?.safeParse(undefined).success, k).toBe(optional);
      }
    }
    const required = (keys: Record<string, boolean>) =>
      Object.keys(keys)
        .filter((k) => !keys[k])
        .sort();
    expect(Object.keys(skeleton ?? {}).sort()).toEqual(required(top));
    expect(Object.keys(skeleton?.budget ?? {}).sort()).toEqual(required(budget));
    expect(skeleton?.result_version).toBe("agent-result/v1");
    const leaveOut = text.slice(text.indexOf("The keys below are required."), text.indexOf("```json"));
    for (const k of [...Object.keys(top), ...Object.keys(effects)].filter(
      (k) => (top as Record<string, boolean>)[k] ?? true,
    )) {
      expect(leaveOut, k).toContain(`\`${k}\``);
    }
  });

  it("shows each role's payload with its type and exactly its content keys", () => {
    const keys: Record<string, string[]> = {
      "evidence-dossier": Object.keys({ findings: 1, open_questions: 1 } satisfies Record<
        keyof EvidenceDossier,
        1
      >),
      "plan-candidate": Object.keys({ slices: 1, risks: 1, assumptions: 1 } satisfies Record<
        keyof PlanCandidate,
        1
      >),
      "proof-report": Object.keys({ checks: 1, verdict: 1 } satisfies Record<keyof ProofReport, 1>),
      "review-findings": Object.keys({ findings: 1, verdict: 1, coverage: 1 } satisfies Record<
        keyof ReviewFindings,
        1
      >),
      "wright-report": Object.keys({
        slice_id: 1,
        summary: 1,
        tests_added: 1,
        commands_run: 1,
      } satisfies Record<keyof WrightReport, 1>),
    };
    for (const a of model.agents) {
      const blocks = jsonBlocks(a.body) as { type?: string; content?: Record<string, unknown> }[];
      const payload = blocks.find((b) => b.type !== undefined && b.content !== undefined);
      expect(payload?.type, a.name).toBe(a.payload);
      expect(Object.keys(payload?.content ?? {}).sort(), a.name).toEqual([...(keys[a.payload] ?? [])].sort());
    }
  });

  it("lists the escalation reasons, gate kinds and statuses the types allow", () => {
    const text = contract();
    for (const word of ["complete", "partial", "blocked", "cannot_verify", "failed"])
      expect(text).toContain(`\`${word}\``);
    expect(text).toContain("product|scope|policy|irreversible|human-only");
    expect(text).toContain("underspecified|new-dependency|plan-wrong|irreversible-risk|");
    expect(text).toContain("out-of-scope|budget|tooling|other");
  });
});
