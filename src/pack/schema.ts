/**
 * Shapes of the pack's frontmatter and hook wiring. Every object is closed: a key not listed here is a
 * diagnostic (`pack.unknown-field`), because a host that meets an unknown key may drop the whole file
 * (Codex drops a role file) or silently ignore a policy. Values are linted further in `lint.ts`.
 */

import { z } from "zod";
import { PAYLOAD_TYPES } from "../envelope/roles.js";

export const PHASES = ["spec", "plan", "build", "prove", "review", "ship", "quick"] as const;

const nonEmpty = z.string().min(1);

/** The devrites-only block of a rite; adapters strip it. */
export const riteMetaSchema = z.strictObject({
  phase: z.enum(PHASES).optional(),
  dispatches: z.array(nonEmpty).default([]),
  route: z.strictObject({
    hints: z.array(nonEmpty).min(1),
  }),
});

/** The devrites-only block of a role; adapters strip it. */
export const roleMetaSchema = z.strictObject({
  mode: z.enum(["read-only", "writer"]),
  payload: z.enum(PAYLOAD_TYPES),
  dispatches: z.array(nonEmpty).default([]),
});

/**
 * Skill frontmatter. Host-facing keys follow the Agent Skills spec plus the Claude-only keys devrites uses;
 * the adapters drop the Claude-only ones for Codex.
 */
export const skillFrontmatterSchema = z.strictObject({
  name: nonEmpty,
  description: nonEmpty,
  "argument-hint": nonEmpty.optional(),
  "disable-model-invocation": z.boolean().optional(),
  "user-invocable": z.boolean().optional(),
  license: nonEmpty.optional(),
  compatibility: nonEmpty.optional(),
  devrites: riteMetaSchema,
});

/** A comma-separated string (`Read, Grep, Bash`) or a YAML list. */
const toolsSchema = z.union([nonEmpty, z.array(nonEmpty).min(1)]);

/**
 * Agent frontmatter. Keys a Claude plugin agent loses (`hooks`, `mcpServers`, `permissionMode`) and keys that
 * widen a leaf (`skills`, `disallowedTools`, `isolation`) are deliberately not accepted: policy lives in the
 * hook wiring, and the tools allowlist is the only tool declaration.
 */
export const agentFrontmatterSchema = z.strictObject({
  name: nonEmpty,
  description: nonEmpty,
  tools: toolsSchema.optional(),
  model: nonEmpty.optional(),
  effort: z.enum(["low", "medium", "high", "xhigh", "max"]).optional(),
  maxTurns: z.int().min(1).optional(),
  color: z.enum(["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"]).optional(),
  devrites: roleMetaSchema,
});

export const HOOK_EVENTS = ["PreToolUse", "SubagentStop", "UserPromptSubmit"] as const;
export const HOOK_ENTRIES = ["pre-tool-use", "subagent-stop", "user-prompt-submit"] as const;

export const hookWiringSchema = z.strictObject({
  hooks: z
    .array(
      z.strictObject({
        event: z.enum(HOOK_EVENTS),
        entry: z.enum(HOOK_ENTRIES),
        matcher: nonEmpty.default("*"),
        timeout: z.int().min(1).max(600),
      }),
    )
    .min(1),
});

export type SkillFrontmatter = z.infer<typeof skillFrontmatterSchema>;
export type AgentFrontmatter = z.infer<typeof agentFrontmatterSchema>;
export type HookWiringFile = z.infer<typeof hookWiringSchema>;
