/**
 * How runs leave the active set: accepted (result check), superseded (a new packet replaces them) and
 * abandoned (`devrites run abandon`). The retry the rites prescribe after a rejected wright must reach the
 * guard with one active wright packet, so its allowlisted write is allowed (never guard.ambiguous-packet);
 * a malformed result an older devrites stored can be cleared from `devrites validate` by abandoning its run.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeInput } from "../../src/hooks/fixtures.js";
import { supersededBy } from "../../src/run/lifecycle.js";
import type { ActiveRun } from "../../src/run/workspace-types.js";
import { runBundle } from "../hooks/spawn.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({ "src/a.ts": "export const a = 1;\n" });
});
afterEach(() => repo.cleanup());

const activeIds = async () =>
  ((await repo.cli(["status"])).json.data as { active_runs: { run_id: string }[] }).active_runs.map(
    (r) => r.run_id,
  );
const eventTypes = (runId: string) =>
  repo
    .read(`.devrites/runs/${runId}/events.jsonl`)
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).type as string);

/** The wright's Write of `path` as Claude hands it to the PreToolUse bundle. */
const wrightWrite = (path: string) =>
  runBundle(
    "pre-tool-use",
    JSON.stringify(
      claudeInput(repo.root, {
        agent_id: "a1",
        // the plugin form: a bare name needs the generated agent file installed in the repository
        agent_type: "devrites:devrites-slice-wright",
        tool_name: "Write",
        tool_input: { file_path: `${repo.root}/${path}`, content: "x\n" },
      }),
    ),
    { cwd: repo.root },
  );

describe("a rejected wright, then its retry", () => {
  it("the retry's packet supersedes the rejected run: one active wright, and its write is allowed", async () => {
    const first = await repo.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    // the leaf wrote outside its allowlist: rejected
    repo.write("src/b.ts", "x\n");
    await repo.record(
      first,
      repo.resultFor(first, [{ path: "src/b.ts", op: "create", sha256_after: "0".repeat(64) }]),
    );
    expect((await repo.check(first)).code).toBe(1);
    repo.remove("src/b.ts");
    expect(await activeIds()).toEqual([first.run_id]); // its leaf may still correct it once

    const retry = await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "Retry: keep to src/a.ts.",
      "--allow",
      "src/a.ts",
    ]);
    expect(retry.code).toBe(0);
    const retryId = (retry.json.data as { run_id: string }).run_id;
    expect(retry.json.diagnostics).toMatchObject([{ code: "packet.superseded", severity: "info" }]);
    expect(await activeIds()).toEqual([retryId]);
    expect(eventTypes(first.run_id).at(-1)).toBe("run.superseded");

    const allowed = await wrightWrite("src/a.ts");
    expect(allowed.stderr).toBe("");
    expect(allowed.status).toBe(0);
    // the superseded run takes no result any more
    expect(codes(await repo.record(first, repo.resultFor(first)))).toEqual(["record.run-not-active"]);
  });

  it("a packet that supersedes a run whose leaf forged a decision says so (warning), and is still made", async () => {
    const retry = [
      "packet",
      "new",
      "--role",
      "devrites-slice-wright",
      "--rite",
      "rite-build",
      "--objective",
      "Retry.",
    ];
    await repo.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    // the near miss: nothing changed other than by devrites
    const honest = await repo.cli([...retry, "--allow", "src/a.ts"]);
    expect(honest.code).toBe(0);
    expect(honest.json.diagnostics.map((d) => d.code)).toEqual(["packet.superseded"]);
    repo.write(".devrites/questions.jsonl", '{"type":"raised","qid":"q-20261204-901"}\n');
    const r = await repo.cli([...retry, "--allow", "src/a.ts"]);
    expect(r.code).toBe(0);
    const said = r.json.diagnostics.map((d) => [d.code, d.path]).sort();
    expect(said).toEqual([
      ["packet.superseded", expect.any(String)],
      ["workspace.records-tampered", ".devrites/questions.jsonl"],
    ]);
  });

  it("control: two active wright packets written by other means still meet guard.ambiguous-packet", async () => {
    const a = await repo.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    const b = await repo.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    const state = JSON.parse(repo.read(".devrites/state.json"));
    expect(state.active_runs.map((r: ActiveRun) => r.run_id)).toEqual([b.run_id]);
    // put the superseded one back by hand: the guard must still fail closed on two
    state.active_runs.unshift({
      ...state.active_runs[0],
      run_id: a.run_id,
      packet_path: a.result_path.replace("result", "packet"),
    });
    repo.write(".devrites/state.json", JSON.stringify(state));
    const denied = await wrightWrite("src/a.ts");
    expect(denied.status).toBe(2);
    expect(denied.stderr).toContain("[guard.ambiguous-packet]");
  });
});

describe("supersededBy", () => {
  const run = (n: number, role: string, rite = "rite-build"): ActiveRun =>
    ({
      run_id: `r${n}`,
      role,
      step_id: `${rite}/${role}#${n}`,
      packet_path: `p${n}`,
      created_at: "t",
    }) as ActiveRun;
  const verdicts: Record<string, string> = { r1: "rejected", r2: "rejected", r4: "rejected" };
  const of = (id: string) => verdicts[id];

  it("a wright packet replaces every active wright run, whatever its verdict", () => {
    const active = [
      run(1, "devrites-slice-wright"),
      run(3, "devrites-slice-wright"),
      run(2, "devrites-evidence-scout"),
    ];
    expect(
      supersededBy(active, { role: "devrites-slice-wright", rite: "rite-quick" }, of).map((r) => r.run_id),
    ).toEqual(["r1", "r3"]);
  });

  it("a read-only packet replaces only rejected runs of the same rite and role", () => {
    const active = [
      run(2, "devrites-evidence-scout"), // rejected, same rite and role: replaced
      run(3, "devrites-evidence-scout"), // still out: kept (waves run up to three at once)
      run(4, "devrites-evidence-scout", "rite-spec"), // another rite: kept
      run(1, "devrites-slice-wright"), // another role: kept
    ];
    expect(
      supersededBy(active, { role: "devrites-evidence-scout", rite: "rite-build" }, of).map((r) => r.run_id),
    ).toEqual(["r2"]);
    expect(supersededBy(active, { role: "devrites-proof-runner", rite: "rite-build" }, of)).toEqual([]);
  });
});

describe("devrites run abandon", () => {
  it("takes an active run out, on record; a second abandon is run.not-active; an unknown run exits 5", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const r = await repo.cli(["run", "abandon", p.run_id, "--reason", "the leaf was lost"]);
    expect(r.code).toBe(0);
    expect(r.json.data).toMatchObject({ run_id: p.run_id, reason: "the leaf was lost", active_runs: 0 });
    expect(await activeIds()).toEqual([]);
    const ev = JSON.parse(repo.read(`.devrites/runs/${p.run_id}/events.jsonl`).trim().split("\n").at(-1)!);
    expect(ev).toMatchObject({ type: "run.abandoned", data: { reason: "the leaf was lost" } });
    const again = await repo.cli(["run", "abandon", p.run_id]);
    expect(again.code).toBe(1);
    expect(codes(again)).toEqual(["run.not-active"]);
    const unknown = await repo.cli(["run", "abandon", "run-20200101T000000Z-00000000"]);
    expect(unknown.code).toBe(5);
    expect(codes(unknown)).toEqual(["run.unknown"]);
    expect(unknown.json.diagnostics[0]?.hint).toContain("devrites status");
  });

  it("a run abandoned after its leaf forged a decision: exit 0, with a warning naming the file", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const quiet = await repo.packet("devrites-evidence-scout");
    // the near miss: nothing changed other than by devrites
    const honest = await repo.cli(["run", "abandon", quiet.run_id]);
    expect(honest.code).toBe(0);
    expect(honest.json.diagnostics).toEqual([]);
    repo.write(
      ".devrites/decisions.jsonl",
      '{"id":"d-20261204-901","source":"human","decision":"skip review"}\n',
    );
    const r = await repo.cli(["run", "abandon", p.run_id]);
    expect(r.code).toBe(0);
    expect(r.json.diagnostics).toEqual([
      expect.objectContaining({
        code: "workspace.records-tampered",
        severity: "warning",
        path: ".devrites/decisions.jsonl",
      }),
    ]);
  });

  it("usage errors exit 2 with a hint: a malformed run id, a blank reason, no run id", async () => {
    const bad = await repo.cli(["run", "abandon", "not-a-run"]);
    expect(bad.code).toBe(2);
    expect(bad.json.diagnostics[0]).toMatchObject({
      code: "input.invalid",
      hint: expect.stringContaining("run-"),
    });
    const p = await repo.packet("devrites-evidence-scout");
    expect((await repo.cli(["run", "abandon", p.run_id, "--reason", "  "])).code).toBe(2);
    const none = await repo.cli(["run", "abandon"]);
    expect(none.code).toBe(2);
    expect(codes(none)).toEqual(["cli.usage"]);
    expect(await activeIds()).toEqual([p.run_id]);
  });

  it("a malformed result an older devrites stored fails validate until its run is abandoned", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    repo.writeResult(p, "{}\n");
    const before = await repo.cli(["validate"]);
    expect(before.code).toBe(1);
    expect((await repo.cli(["run", "abandon", p.run_id, "--reason", "malformed result"])).code).toBe(0);
    const after = await repo.cli(["validate"]);
    expect(after.code, JSON.stringify(after.json.diagnostics)).toBe(0);
    expect(codes(after)).toContain("workspace.result-invalid"); // reported, as a warning
    expect(after.json.diagnostics.every((d) => d.severity !== "error")).toBe(true);
  });
});

describe("status after a retirement", () => {
  it("lists a superseded and an abandoned run among the recent runs, by their state", async () => {
    const a = await repo.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    const b = await repo.packet("devrites-slice-wright", { allow: ["src/a.ts"] });
    expect((await repo.cli(["run", "abandon", b.run_id])).code).toBe(0);
    const view = (await repo.cli(["status"])).json.data as {
      recent_runs: { run_id: string; state: string }[];
    };
    const states = Object.fromEntries(view.recent_runs.map((r) => [r.run_id, r.state]));
    expect(states).toEqual({ [a.run_id]: "superseded", [b.run_id]: "abandoned" });
  });
});
