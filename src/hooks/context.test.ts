import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workspacePaths } from "../run/workspace.js";
import { loadActivePackets, MAX_WORKSPACE_FILE_BYTES } from "./context.js";
import { makeRepo, runId, type TestRepo } from "./fixtures.js";

const NOW = "2026-11-29T23:00:00.000Z";
let repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});
function repo(...args: Parameters<typeof makeRepo>): TestRepo {
  const r = makeRepo(...args);
  repos.push(r);
  return r;
}

function editJson(path: string, edit: (v: Record<string, unknown>) => void): void {
  const v = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  edit(v);
  writeFileSync(path, JSON.stringify(v));
}

describe("loadActivePackets", () => {
  it("no workspace: no packets", () => {
    expect(loadActivePackets(repo().root, NOW)).toEqual({ ok: true, packets: [] });
  });

  it("loads run_id, role and the allowlist of every active run", () => {
    const { root } = repo([
      { role: "devrites-slice-wright", run_id: runId(1), allowed_repo_writes: ["src/a.ts"] },
      { role: "devrites-evidence-scout", run_id: runId(2) },
    ]);
    expect(loadActivePackets(root, NOW)).toEqual({
      ok: true,
      packets: [
        { run_id: runId(1), role: "devrites-slice-wright", allowed_repo_writes: ["src/a.ts"] },
        { run_id: runId(2), role: "devrites-evidence-scout", allowed_repo_writes: [] },
      ],
    });
  });

  const broken: [string, (root: string) => void, string][] = [
    [
      "state.json is not JSON",
      (root) => writeFileSync(join(root, workspacePaths.state), "{"),
      "workspace.state-invalid",
    ],
    [
      "state.json has another schema",
      (root) => editJson(join(root, workspacePaths.state), (v) => (v.schema = "x")),
      "workspace.state-invalid",
    ],
    [
      "state.json is a folder",
      (root) => {
        rmSync(join(root, workspacePaths.state));
        mkdirSync(join(root, workspacePaths.state));
      },
      "workspace.unreadable",
    ],
    [
      "state.json is too large",
      (root) => writeFileSync(join(root, workspacePaths.state), " ".repeat(MAX_WORKSPACE_FILE_BYTES + 1)),
      "workspace.unreadable",
    ],
    [
      "the packet is missing",
      (root) => rmSync(join(root, workspacePaths.packet(runId(1)))),
      "workspace.packet-invalid",
    ],
    [
      "the packet is not JSON",
      (root) => writeFileSync(join(root, workspacePaths.packet(runId(1))), "nope"),
      "workspace.packet-invalid",
    ],
    [
      "the packet names another run",
      (root) => editJson(join(root, workspacePaths.packet(runId(1))), (v) => (v.run_id = runId(9))),
      "workspace.packet-invalid",
    ],
    [
      "the packet names another role",
      (root) =>
        editJson(join(root, workspacePaths.packet(runId(1))), (v) => (v.role = "devrites-evidence-scout")),
      "workspace.packet-invalid",
    ],
    [
      "the allowlist is not a list of strings",
      (root) =>
        editJson(join(root, workspacePaths.packet(runId(1))), (v) => {
          (v.scope as Record<string, unknown>).allowed_repo_writes = ["a", 1];
        }),
      "workspace.packet-invalid",
    ],
    [
      "the packet has no scope",
      (root) => editJson(join(root, workspacePaths.packet(runId(1))), (v) => delete v.scope),
      "workspace.packet-invalid",
    ],
    [
      "an active run has a path-like run_id",
      (root) =>
        editJson(join(root, workspacePaths.state), (v) => {
          (v.active_runs as Record<string, unknown>[])[0]!.run_id = "../../etc";
        }),
      "workspace.packet-invalid",
    ],
    [
      "an active run names no devrites role",
      (root) =>
        editJson(join(root, workspacePaths.state), (v) => {
          (v.active_runs as Record<string, unknown>[])[0]!.role = "general-purpose";
        }),
      "workspace.packet-invalid",
    ],
    [
      "an active run is not an object",
      (root) => editJson(join(root, workspacePaths.state), (v) => (v.active_runs = [null])),
      "workspace.packet-invalid",
    ],
  ];

  it.each(broken)("fails with a diagnostic when %s", (_name, breakIt, code) => {
    const { root } = repo([
      { role: "devrites-slice-wright", run_id: runId(1), allowed_repo_writes: ["src/a.ts"] },
    ]);
    breakIt(root);
    const r = loadActivePackets(root, NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.map((d) => d.code)).toContain(code);
  });

  it.skipIf(process.getuid?.() === 0)("fails when state.json cannot be read", () => {
    const { root } = repo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
    chmodSync(join(root, workspacePaths.state), 0o000);
    const r = loadActivePackets(root, NOW);
    expect(r).toMatchObject({ ok: false });
  });
});
