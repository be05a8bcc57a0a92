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

/**
 * Map a host's `agent_type` to a role: accepts the bare name and the Claude plugin form `plugin:name`
 * (only the last `:`-segment counts). Returns undefined for anything that is not a devrites role.
 */
export function roleFromAgentType(agentType: string): RoleName | undefined {
  const last = agentType.slice(agentType.lastIndexOf(":") + 1);
  return isRoleName(last) ? last : undefined;
}
