/**
 * The journey a host model drives is on record: `rite start` and every `packet new --rite` set the active rite
 * and phase, `rite end` clears them, and `status`, `route` (stickiness) and the prompt context line read them.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { promptContextLine } from "../../src/run/prompt-context.js";
import { readState } from "../../src/run/workspace.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({ "src/a.ts": "export const a = 1;\n" });
});
afterEach(() => repo.cleanup());

const state = () => {
  const st = readState(repo.root, new Date().toISOString());
  if (!st.ok) throw new Error("state unreadable");
  return st.state;
};

describe("rite start / rite end", () => {
  it("start records the rite and its phase; status shows it; end clears it", async () => {
    const r = await repo.cli(["rite", "start", "rite-build"]);
    expect(r.code).toBe(0);
    expect(state()).toMatchObject({ active_rite: "rite-build", phase: "build" });
    const status = (await repo.cli(["status"])).json.data as {
      active_rite: string;
      phase: string;
      next: { text: string };
    };
    expect(status).toMatchObject({ active_rite: "rite-build", phase: "build" });
    expect(status.next.text).toContain("continue rite-build");
    expect((await repo.cli(["rite", "end", "rite-build"])).code).toBe(0);
    expect(state()).toMatchObject({ active_rite: null, phase: null });
  });

  it("packet new --rite records the dispatching rite (a rite that forgot to start is still on record)", async () => {
    await repo.packet("devrites-evidence-scout"); // --rite rite-build
    expect(state()).toMatchObject({ active_rite: "rite-build", phase: "build" });
  });

  it("route stays with the active rite; the prompt context line names it", async () => {
    await repo.cli(["rite", "start", "rite-spec"]);
    const routed = await repo.cli(["route", "and also the other thing"]);
    expect(routed.json.data).toMatchObject({ rite: "rite-spec", reason: "active" });
    expect(promptContextLine(state(), [])).toContain("rite-spec");
  });

  it("end of another rite than the active one is refused, nothing changed; end with none active is a no-op", async () => {
    await repo.cli(["rite", "start", "rite-plan"]);
    const other = await repo.cli(["rite", "end", "rite-build"]);
    expect(other.code).toBe(1);
    expect(codes(other)).toEqual(["rite.other-active"]);
    expect(state().active_rite).toBe("rite-plan");
    await repo.cli(["rite", "end"]);
    const none = await repo.cli(["rite", "end"]);
    expect(none.code).toBe(0);
    expect(codes(none)).toEqual(["rite.none-active"]);
  });

  it("usage: a bad rite name or phase exits 2 and changes nothing", async () => {
    expect((await repo.cli(["rite", "start", "build"])).code).toBe(2);
    expect((await repo.cli(["rite", "start", "rite-x", "--phase", "later"])).code).toBe(2);
    expect((await repo.cli(["rite", "start"])).code).toBe(2);
    expect(state().active_rite).toBeNull();
  });

  it("a rite that is no phase keeps --phase, or none", async () => {
    await repo.cli(["rite", "start", "rite-resolve"]);
    expect(state()).toMatchObject({ active_rite: "rite-resolve", phase: null });
    await repo.cli(["rite", "start", "rite-resolve", "--phase", "ship"]);
    expect(state().phase).toBe("ship");
  });
});
