/**
 * The leaf roles devrites dispatches. Every role except the wright is read-only; each role returns exactly
 * one payload type. The pack's agent files must agree with this table (checked by `devrites pack lint`).
 */

export const ROLE_NAMES = [
  "devrites-evidence-scout",
  "devrites-plan-drafter",
  "devrites-proof-runner",
  "devrites-spec-reviewer",
  "devrites-code-reviewer",
  "devrites-slice-wright",
] as const;

export type RoleName = (typeof ROLE_NAMES)[number];

export const PAYLOAD_TYPES = [
  "evidence-dossier",
  "plan-candidate",
  "proof-report",
  "review-findings",
  "wright-report",
] as const;

export type PayloadType = (typeof PAYLOAD_TYPES)[number];

export type RoleMode = "read-only" | "writer";

export interface RoleSpec {
  name: RoleName;
  mode: RoleMode;
  payload: PayloadType;
}

export const ROLES: Readonly<Record<RoleName, RoleSpec>> = {
  "devrites-evidence-scout": {
    name: "devrites-evidence-scout",
    mode: "read-only",
    payload: "evidence-dossier",
  },
  "devrites-plan-drafter": { name: "devrites-plan-drafter", mode: "read-only", payload: "plan-candidate" },
  "devrites-proof-runner": { name: "devrites-proof-runner", mode: "read-only", payload: "proof-report" },
  "devrites-spec-reviewer": { name: "devrites-spec-reviewer", mode: "read-only", payload: "review-findings" },
  "devrites-code-reviewer": { name: "devrites-code-reviewer", mode: "read-only", payload: "review-findings" },
  "devrites-slice-wright": { name: "devrites-slice-wright", mode: "writer", payload: "wright-report" },
};

export function isRoleName(x: unknown): x is RoleName {
  return typeof x === "string" && (ROLE_NAMES as readonly string[]).includes(x);
}

/** The Claude Code plugin devrites ships as: its agents reach the hooks as `devrites:<role>`. */
export const PLUGIN_NAME = "devrites";

/**
 * How a host's `agent_type` may name a devrites role, by what the hosts send (checked on Claude Code 2.1.328 and
 * Codex 0.169.0): a project agent (`.claude/agents/<role>.md`, `.codex/agents/<role>.toml`) by its bare name,
 * and a Claude plugin agent as `<plugin>:<name>`. Exact bytes only: no case folding, no trimming, no Unicode
 * normalisation, exactly one `:` and exactly the prefix `devrites`. `form` says which, so the caller can check
 * that devrites installed a project agent of that name ({@link roleFromAgentType}).
 */
export function parseRoleAgentType(
  agentType: string,
): { role: RoleName; form: "project" | "plugin" } | undefined {
  if (isRoleName(agentType)) return { role: agentType, form: "project" };
  const prefix = `${PLUGIN_NAME}:`;
  if (agentType.startsWith(prefix)) {
    const rest = agentType.slice(prefix.length);
    if (isRoleName(rest)) return { role: rest, form: "plugin" };
  }
  return undefined;
}

/**
 * The devrites role a host's `agent_type` names, or undefined for an agent devrites does not run (a foreign
 * agent: `Explore`, `general-purpose`, `explorer`, a user's or another plugin's agent, `evil:devrites-slice-wright`).
 * A bare name counts only when `installed(role)` says devrites installed that project agent in this repository:
 * a bare name is whatever agent the user or the host defines under it. The plugin form needs no check: the host
 * namespaces a plugin's agents by the plugin's own name.
 */
export function roleFromAgentType(
  agentType: string,
  installed: (role: RoleName) => boolean,
): RoleName | undefined {
  const parsed = parseRoleAgentType(agentType);
  if (parsed === undefined) return undefined;
  return parsed.form === "plugin" || installed(parsed.role) ? parsed.role : undefined;
}
