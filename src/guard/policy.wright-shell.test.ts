/**
 * The policy for the wright's shell calls: which pager values make a code-loading name harmless (and which
 * names stay refused), directory writes checked as directories, the hint after a `cd` that names why a
 * relative path failed, and device files (writing into one is harmless, changing one is a write).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { resolveRepoPath } from "../scope/index.js";
import { decide } from "./decide.js";
import type { ActivePacket, GuardContext, GuardDecision } from "./types.js";

let root = "";
let cleanup = () => {};
beforeAll(() => {
  const t = makeTree({ "src/a.ts": "a", "src/n/": "" });
  root = t.base;
  cleanup = t.cleanup;
});
afterAll(() => cleanup());

const W = "devrites-slice-wright";
const PACKETS: ActivePacket[] = [
  { run_id: "run-20260101T000000Z-00000001", role: W, allowed_repo_writes: ["src/a.ts", "src/n/b.ts"] },
];

function ctx(): GuardContext {
  return {
    root,
    activePackets: PACKETS,
    resolve: (p) => resolveRepoPath(root, p),
    isInstalledRole: () => true,
  };
}

const wright = (command: string): GuardDecision =>
  decide(
    {
      agent_id: "a",
      agent_type: W,
      tool_name: "Bash",
      tool_input: { command },
      cwd: root,
      hook_event_name: "PreToolUse",
    },
    ctx(),
  );

const verdict = (d: GuardDecision): string => (d.decision === "allow" ? "allow" : d.rule);

describe("the wright's environment assignments", () => {
  it.each<[string, string]>([
    // a pager that only prints is harmless
    ["GIT_PAGER=cat git log", "allow"],
    ["PAGER=cat git log", "allow"],
    ["GIT_PAGER=less git log", "guard.shell-unclassified"],
    // `cat` is only harmless as a pager: any other code-loading name stays refused
    ["PATH=cat ls", "guard.shell-unclassified"],
    ["LD_PRELOAD=cat ls", "guard.shell-unclassified"],
    ["EDITOR=cat git commit", "guard.shell-unclassified"],
    ["GIT_DIR=cat git status", "guard.shell-unclassified"],
    ["path=cat ls", "guard.shell-unclassified"],
  ])("%j → %s", (command, expected) => {
    expect(verdict(wright(command))).toBe(expected);
  });

  it("says which name and why", () => {
    const d = wright("PATH=cat ls");
    expect(d.decision === "deny" && d.reason).toContain(
      "setting `PATH` changes which program runs or what code it loads. Drop the assignment.",
    );
  });
});

describe("the wright's directory writes", () => {
  it.each<[string, string]>([
    // a directory is allowed when it is a parent of an allowlisted file …
    ["mkdir -p src/n", "allow"],
    ["rmdir src/n", "allow"],
    // … not when it is the allowlisted file itself, or unrelated
    ["mkdir src/a.ts", "guard.outside-allowlist"],
    ["mkdir src/x", "guard.outside-allowlist"],
    // near miss: the same path as a file write is not on the allowlist
    ["touch src/n", "guard.outside-allowlist"],
  ])("%j → %s", (command, expected) => {
    expect(verdict(wright(command))).toBe(expected);
  });
});

describe("after `cd`, a relative path must be allowed from every directory the shell may be in", () => {
  it("a refused relative path says so", () => {
    const d = wright("cd src && touch a.ts");
    expect(d.decision === "deny" && d.rule).toBe("guard.outside-allowlist");
    expect(d.decision === "deny" && d.reason).toContain(
      "After `cd` the shell may be in either directory, so a relative path must be allowed from each; your allowlist is",
    );
  });

  it("near misses: an absolute path, or no cd, gives the plain hint", () => {
    for (const command of [`cd src && touch ${root}/src/x.ts`, "touch src/x.ts"]) {
      const d = wright(command);
      expect(d.decision === "deny" && d.rule, command).toBe("guard.outside-allowlist");
      expect(d.decision === "deny" && d.reason, command).not.toContain("either directory");
    }
  });
});

describe("the wright and device files", () => {
  it.each<[string, string]>([
    // writing into a device through a redirect or tee changes nothing in the repository
    ["echo x > /dev/null", "allow"],
    ["echo x | tee /dev/stderr", "allow"],
    // removing, replacing or changing the device itself is a write outside the allowlist
    ["rm /dev/null", "guard.outside-allowlist"],
    ["chmod 666 /dev/stdout", "guard.outside-allowlist"],
    ["ln -sf src/a.ts /dev/null", "guard.outside-allowlist"],
  ])("%j → %s", (command, expected) => {
    expect(verdict(wright(command))).toBe(expected);
  });
});
