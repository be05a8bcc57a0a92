import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCapture } from "../test-io.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

describe("devrites graph", () => {
  it("prints the shipped org chart as Mermaid by default, the writer marked", async () => {
    const r = await runCapture(["graph"], REPO);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("flowchart LR");
    expect(r.stdout).toContain('devrites_slice_wright[["devrites-slice-wright [writer]"]]');
    expect(r.stdout).toContain('devrites_code_reviewer["devrites-code-reviewer [read-only]"]');
    expect(r.stdout).toContain("rite_build --> devrites_slice_wright");
    expect(r.stdout).toContain("class devrites_slice_wright writer");
  });

  it("prints DOT and JSON", async () => {
    const dot = await runCapture(["graph", "--format", "dot"], REPO);
    expect(dot.stdout).toMatch(/^digraph devrites \{/);
    const json = await runCapture(["graph", "--format", "json"], REPO);
    const g = JSON.parse(json.stdout);
    expect(g.nodes.filter((n: { kind: string }) => n.kind === "role")).toHaveLength(6);
    expect(g.edges).toContainEqual({ from: "rite-review", to: "devrites-code-reviewer" });
  });

  it("puts the graph in data with --json", async () => {
    const r = await runCapture(["graph", "--json"], REPO);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ command: "graph", ok: true, exitCode: 0, data: { format: "mermaid" } });
    expect(report.data.graph.nodes).toHaveLength(16);
  });

  it("exits 1 with the delegation errors, still printing the chart", async () => {
    const r = await runCapture(["graph", "--dir", "tests/fixtures/packs/dangling-role"], REPO);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("rite_look --> devrites_evidence_scout");
    expect(r.stderr).toContain("error pack.dispatch-dangling");
  });

  it("rejects an unknown format as usage, and a missing pack with 5", async () => {
    expect((await runCapture(["graph", "--format", "svg"], REPO)).code).toBe(2);
    expect((await runCapture(["graph", "--dir", "nowhere"], REPO)).code).toBe(5);
  });
});
