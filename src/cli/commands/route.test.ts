import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyState, writeState } from "../../run/workspace.js";
import { runCapture } from "../test-io.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "devrites-route-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("devrites route", () => {
  it("routes with the shipped pack and prints the rite and reason", async () => {
    const r = await runCapture(["route", "implement the next slice"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^rite-build \(matched\), confidence \d\.\d\d/);
  });

  it("is sticky to the active rite from state.json, and --active overrides it", async () => {
    writeState(root, { ...emptyState(new Date().toISOString()), active_rite: "rite-build", phase: "build" });
    const stay = JSON.parse((await runCapture(["route", "ok, go on", "--json"], root)).stdout);
    expect(stay.data).toMatchObject({ rite: "rite-build", reason: "active" });
    const none = JSON.parse(
      (await runCapture(["route", "ok, go on", "--active", "none", "--json"], root)).stdout,
    );
    expect(none.data).toMatchObject({ rite: "rite", reason: "first" });
  });

  it("answers any text without failing, and asks when unsure", async () => {
    for (const text of ["\u0000\uffff", "💥".repeat(5000), "/rite-ship /rite-review"]) {
      const r = await runCapture(["route", text, "--json"], root);
      expect(r.code).toBe(0);
      expect(["matched", "active", "start", "first", "clarify"]).toContain(JSON.parse(r.stdout).data.reason);
    }
    const r = JSON.parse((await runCapture(["route", "/rite-ship or /rite-review", "--json"], root)).stdout);
    expect(r.data.reason).toBe("clarify");
    expect(r.data.question).toContain("rite-ship");
  });

  it("routes as if idle when state.json is unreadable, with a warning", async () => {
    writeState(root, emptyState(new Date().toISOString()));
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(root, ".devrites/state.json"), "{");
    const r = JSON.parse((await runCapture(["route", "ship it", "--json"], root)).stdout);
    expect(r.exitCode).toBe(0);
    expect(r.diagnostics[0].code).toBe("route.no-state");
  });

  it("exits 5 when the pack folder is missing", async () => {
    const r = await runCapture(["route", "x", "--pack", "nope", "--json"], root);
    expect(r.code).toBe(5);
  });
});
