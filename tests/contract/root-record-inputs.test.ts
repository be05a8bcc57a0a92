/**
 * The rites hand the root's records to leaves (`--input .devrites/spec.md`): `packet new` accepts exactly those
 * four files under `.devrites/`, the result is judged against them like any input (accepted while unchanged,
 * stale when the record changed), and every other `.devrites/` path is still refused.
 */
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentPacket } from "../../src/envelope/types.js";
import { ROOT_RECORDS } from "../../src/packet/root-records.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({ "src/a.ts": "export const a = 1;\n" });
  for (const r of ROOT_RECORDS) repo.write(r, `# ${r}\n`);
});
afterEach(() => repo.cleanup());

const base = [
  "packet",
  "new",
  "--role",
  "devrites-spec-reviewer",
  "--rite",
  "rite-spec",
  "--objective",
  "Review the spec.",
];

describe("packet new --input with the root's records", () => {
  it.each(ROOT_RECORDS.map((r) => [r]))(
    "accepts %s, and the result is accepted while it is unchanged",
    async (record) => {
      const r = await repo.cli([...base, "--input", record, "--input", "src/a.ts"]);
      expect(r.code, JSON.stringify(r.json.diagnostics)).toBe(0);
      const p = (r.json.data as { packet: AgentPacket }).packet;
      expect(p.inputs.map((i) => i.path)).toEqual([record, "src/a.ts"]);
      await repo.record(p, repo.resultFor(p));
      const check = await repo.check(p);
      expect(check.code, JSON.stringify(check.json.diagnostics)).toBe(0);
    },
  );

  it("a result is stale when the record it was given changed since the packet", async () => {
    const r = await repo.cli([...base, "--input", ".devrites/spec.md"]);
    const p = (r.json.data as { packet: AgentPacket }).packet;
    repo.write(".devrites/spec.md", "# edited while the leaf ran\n");
    await repo.record(p, repo.resultFor(p));
    const check = await repo.check(p);
    expect(check.code).toBe(1);
    expect(codes(check)).toContain("result.stale");
  });

  it.each([
    [".devrites/state.json", "scope.devrites"],
    [".devrites/runs/x/packet.json", "scope.devrites"],
    [".devrites/Spec.md", "scope.devrites"],
    [".devrites/./spec.md", "scope.devrites"],
    ["./.devrites/spec.md", "scope.dot-segment"],
  ])("still refuses %s (%s)", async (path, code) => {
    repo.write(".devrites/runs/x/packet.json", "{}\n");
    const r = await repo.cli([...base, "--input", path]);
    expect(r.code).toBe(2);
    expect(codes(r)).toContain(code);
  });

  it("refuses a record reached through a .devrites that is a symlink", async () => {
    const other = Repo.create();
    try {
      other.write("elsewhere/spec.md", "# not this repository's\n");
      const fresh = Repo.create();
      try {
        symlinkSync(join(other.root, "elsewhere"), join(fresh.root, ".devrites"));
        const r = await fresh.cli([...base, "--input", ".devrites/spec.md"]);
        expect(r.code).toBe(2);
        expect(codes(r)).toEqual(["scope.symlink-escape"]);
      } finally {
        fresh.cleanup();
      }
    } finally {
      other.cleanup();
    }
  });

  it("a missing record is input.missing (exit 5), like any input", async () => {
    repo.remove(".devrites/review.md");
    const r = await repo.cli([...base, "--input", ".devrites/review.md"]);
    expect(r.code).toBe(5);
    expect(codes(r)).toEqual(["input.missing"]);
  });
});
