/**
 * The guard's public types. The guard is a pure function from a host's PreToolUse hook input plus the
 * workspace's active packets to a decision; the hook entry point loads the context and prints the answer.
 */

import type { RoleName } from "../envelope/roles.js";

import type { ScopeCheck } from "../scope/index.js";

export type { ScopeCheck };

/** One active run, as the guard needs it: who runs and what it may write. */
export interface ActivePacket {
  run_id: string;
  role: RoleName;
  /** The packet's `scope.allowed_repo_writes`: exact, normalised repository paths. */
  allowed_repo_writes: string[];
}

export interface GuardContext {
  /** Repository root (a realpath). */
  root: string;
  /** The active runs, from `.devrites/state.json` and their packets (the hook loads them). */
  activePackets: ActivePacket[];
  /**
   * Symlink-aware containment of a repository path (production: `resolveRepoPath(root, p)` from src/scope).
   * The only file-system access the guard makes.
   */
  resolve(repoPath: string): ScopeCheck;
  /**
   * Optional: whether `name` is a locally installed executable (production: `node_modules/.bin/<name>` exists).
   * Without it, `npx <name>` is treated as a download and denied as an install.
   */
  hasLocalBin?(name: string): boolean;
  /**
   * Whether devrites installed the project agent `role` in this repository (production: its generated
   * `.claude/agents/<role>.md` or `.codex/agents/<role>.toml` is there, `src/hooks/installed.ts`). Asked only for
   * a bare role name: without it, a bare name is a foreign agent's.
   */
  isInstalledRole(role: RoleName): boolean;
  /**
   * Whether this shell call will run in an OS sandbox (the hook rewrites it). The classifier then only refuses
   * what is plainly not allowed (writes by a read-only role, determinable writes off the wright's allowlist,
   * spawning, installs, git mutation, publishing, the devrites CLI) and lets the kernel judge the rest.
   */
  sandboxed?: boolean;
}

/**
 * `caller`: `root` (the root session, or a main thread started as an agent), `leaf` (a devrites role), `foreign`
 * (a subagent that is not a devrites role: the host's own `Explore`/`explorer`, a user's or another plugin's).
 * Only a leaf's decisions go into a run's ledger.
 */
export type GuardDecision =
  | { decision: "allow"; caller: "root" | "leaf" | "foreign"; role?: RoleName }
  | {
      decision: "deny";
      rule: GuardRule;
      reason: string;
      /** The role, or for a foreign agent (and malformed input) the `agent_type` as sent. */
      role?: string;
      input?: string;
      caller?: "leaf" | "foreign";
    };

/** Stable rule codes; scripts and the run ledger match on them. */
export const GUARD_RULES = [
  "guard.malformed-input",
  "guard.input-too-large",
  "guard.input-too-complex",
  "guard.foreign-write-during-run",
  "guard.no-active-packet",
  "guard.ambiguous-packet",
  "guard.unknown-tool",
  "guard.spawn",
  "guard.devrites-write",
  "guard.git-mutation",
  "guard.install",
  "guard.publish",
  "guard.readonly-write",
  "guard.shell-unclassified",
  "guard.write-target-unknown",
  "guard.in-place-edit",
  "guard.outside-allowlist",
  "guard.sandbox-refused",
  "guard.user-deny-rule",
  "guard.user-ask-rule",
  "guard.user-rules-unreadable",
  "guard.internal-error",
] as const;

export type GuardRule = (typeof GUARD_RULES)[number];
