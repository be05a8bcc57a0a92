/** Which `agent_type` names a devrites role: exact bytes, the bare name only when installed, the plugin prefix exactly `devrites`. */

import { describe, expect, it } from "vitest";
import { parseRoleAgentType, ROLE_NAMES, roleFromAgentType } from "./roles.js";

const installed = () => true;
const notInstalled = () => false;

describe("roleFromAgentType", () => {
  it.each(ROLE_NAMES)("the plugin form devrites:%s is the role, installed project agent or not", (role) => {
    expect(roleFromAgentType(`devrites:${role}`, notInstalled)).toBe(role);
    expect(parseRoleAgentType(`devrites:${role}`)).toEqual({ role, form: "plugin" });
  });

  it.each(ROLE_NAMES)("the bare name %s is the role only when devrites installed that agent", (role) => {
    expect(roleFromAgentType(role, installed)).toBe(role);
    expect(roleFromAgentType(role, notInstalled)).toBeUndefined();
    expect(parseRoleAgentType(role)).toEqual({ role, form: "project" });
  });

  it("asks about the role the bare name names, and only for bare names", () => {
    const asked: string[] = [];
    const spy = (r: string) => {
      asked.push(r);
      return true;
    };
    roleFromAgentType("devrites-code-reviewer", spy);
    roleFromAgentType("devrites:devrites-slice-wright", spy);
    roleFromAgentType("Explore", spy);
    expect(asked).toEqual(["devrites-code-reviewer"]);
  });

  it.each([
    ["another plugin's agent named like the wright", "evil:devrites-slice-wright"],
    ["another plugin's agent named like the scout", "x:devrites-evidence-scout"],
    ["the prefix in another case", "Devrites:devrites-slice-wright"],
    ["the prefix in upper case", "DEVRITES:devrites-slice-wright"],
    ["an empty prefix", ":devrites-slice-wright"],
    ["a prefix with a suffix", "devrites2:devrites-slice-wright"],
    ["a prefix ending in devrites", "notdevrites:devrites-slice-wright"],
    ["two prefixes", "devrites:devrites:devrites-slice-wright"],
    ["another plugin before devrites", "evil:devrites:devrites-slice-wright"],
    ["a trailing colon segment", "devrites:devrites-slice-wright:x"],
    ["a trailing colon", "devrites:devrites-slice-wright:"],
    ["leading whitespace", " devrites-slice-wright"],
    ["trailing whitespace", "devrites-slice-wright "],
    ["a trailing newline", "devrites-slice-wright\n"],
    ["whitespace after the colon", "devrites: devrites-slice-wright"],
    ["whitespace before the colon", "devrites :devrites-slice-wright"],
    ["a case variant", "Devrites-Slice-Wright"],
    ["a suffix", "devrites-slice-wright-2"],
    ["Cyrillic і for i", "devrites-sl\u0456ce-wright"],
    ["Cyrillic е in the prefix", "d\u0435vrites:devrites-slice-wright"],
    ["a non-breaking hyphen", "devrites\u2011slice-wright"],
    ["a full-width colon", "devrites\uff1adevrites-slice-wright"],
    ["a zero-width space", "devrites-slice\u200b-wright"],
    ["a NUL byte", "devrites-slice-wright\u0000"],
    ["the host's own agents", "Explore"],
    ["Codex's explorer", "explorer"],
    ["general-purpose", "general-purpose"],
    ["empty", ""],
  ])("%s (%j) is foreign", (_label, agentType) => {
    expect(roleFromAgentType(agentType, installed)).toBeUndefined();
    expect(parseRoleAgentType(agentType)).toBeUndefined();
  });
});
