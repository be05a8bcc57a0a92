import { describe, expect, it } from "vitest";
import { baselineId, type ManifestEntry, manifestDigest } from "../baseline/index.js";
import { samplePacket, sampleSha } from "../envelope/fixtures.js";
import type { AgentPacket } from "../envelope/types.js";
import {
  BASELINE_RECORD_SCHEMA,
  type BaselineRecord,
  packetTouchedPaths,
  touchedPaths,
  verifyBaselineRecord,
} from "./baseline-record.js";

const PATH = ".devrites/runs/x/baseline.json";

/** A packet whose baseline identity really is the digest of `record`, and that record. */
function consistent(): { packet: AgentPacket; record: BaselineRecord } {
  const packet = samplePacket("devrites-slice-wright");
  const dirty: ManifestEntry[] = [
    { path: "src/a.ts", type: "file", exec: false, sha256: sampleSha(1) },
    { path: "vendor/lib", type: "submodule", exec: false, sha256: "a".repeat(40) },
  ];
  const touched: ManifestEntry[] = packetTouchedPaths(packet).map((path, i) =>
    i % 2
      ? { path, type: "missing", exec: false, sha256: null }
      : { path, type: "file", exec: false, sha256: sampleSha(i + 10) },
  );
  const record: BaselineRecord = {
    schema: BASELINE_RECORD_SCHEMA,
    run_id: packet.run_id,
    head: packet.baseline.head,
    dirty,
    touched,
  };
  const dirty_sha256 = manifestDigest(dirty);
  const touched_sha256 = manifestDigest(touched);
  packet.baseline = {
    head: record.head,
    dirty_sha256,
    touched_sha256,
    id: baselineId(record.head, dirty_sha256, touched_sha256),
  };
  return { packet, record };
}

const verify = (record: unknown, packet: AgentPacket) =>
  verifyBaselineRecord(JSON.stringify(record), packet, PATH);

describe("verifyBaselineRecord", () => {
  it("accepts the record the packet's identity was computed from", () => {
    const { packet, record } = consistent();
    expect(verify(record, packet)).toEqual({ ok: true, record });
  });

  it.each<[string, (r: BaselineRecord, p: AgentPacket) => unknown]>([
    [
      "a forged dirty entry",
      (r) => ({ ...r, dirty: [...r.dirty, { path: "x", type: "file", exec: false, sha256: sampleSha(9) }] }),
    ],
    ["a dropped dirty entry", (r) => ({ ...r, dirty: r.dirty.slice(1) })],
    [
      "a flipped exec bit",
      (r) => ({ ...r, dirty: r.dirty.map((e, i) => (i === 0 ? { ...e, exec: true } : e)) }),
    ],
    [
      "a changed touched hash",
      (r) => ({ ...r, touched: r.touched.map((e, i) => (i === 0 ? { ...e, sha256: sampleSha(77) } : e)) }),
    ],
    ["another head", (r) => ({ ...r, head: "b".repeat(40) })],
    ["another run", (r) => ({ ...r, run_id: "run-20200101T000000Z-00000000" })],
    ["a touched path set that is not the packet's", (r) => ({ ...r, touched: r.touched.slice(1) })],
    [
      "a packet id that is not the digest",
      (r, p) => {
        p.baseline.id = sampleSha(5);
        return r;
      },
    ],
    ["an unknown field", (r) => ({ ...r, note: "hi" })],
    ["a numeric run_id", (r) => ({ ...r, run_id: 7 })],
    ["a null head", (r) => ({ ...r, head: null })],
    ["a touched manifest that is not an array", (r) => ({ ...r, touched: {} })],
    ["a dirty manifest that is not an array", (r) => ({ ...r, dirty: "none" })],
    [
      "a bad touched entry",
      (r) => ({ ...r, touched: r.touched.map((e, i) => (i === 0 ? { ...e, exec: 1 } : e)) }),
    ],
    [
      "uppercase hex",
      (r) => ({
        ...r,
        dirty: r.dirty.map((e) => (e.sha256 ? { ...e, sha256: e.sha256.toUpperCase() } : e)),
      }),
    ],
    ["another schema", (r) => ({ ...r, schema: "devrites-baseline/v2" })],
    ["not an object", () => [1, 2]],
  ])("rejects %s as result.baseline-tampered", (_name, mutate) => {
    const { packet, record } = consistent();
    const r = verify(mutate(record, packet), packet);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([["result.baseline-tampered", PATH]]);
  });

  it.each<[string, (e: Record<string, unknown>) => unknown]>([
    ["an extra key", (e) => ({ ...e, mode: 420 })],
    ["a missing key", ({ exec: _exec, ...rest }) => rest],
    ["a renamed key", ({ exec, ...rest }) => ({ ...rest, executable: exec })],
    ["an unknown type", (e) => ({ ...e, type: "directory" })],
    ["a string exec bit", (e) => ({ ...e, exec: "false" })],
    ["an empty path", (e) => ({ ...e, path: "" })],
    ["a numeric path", (e) => ({ ...e, path: 7 })],
    ["a short digest", (e) => ({ ...e, sha256: "abc" })],
    ["a null entry", () => null],
    ["an array entry", () => []],
  ])("rejects an entry with %s, naming where", (_name, mutate) => {
    const { packet, record } = consistent();
    const dirty = record.dirty.map((e, i) => (i === 1 ? mutate({ ...e }) : e));
    const r = verify({ ...record, dirty }, packet);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]!.message).toContain("dirty[1]");
  });

  it("a remembered digest never vouches for a different manifest", () => {
    const { packet, record } = consistent();
    expect(verify(record, packet).ok).toBe(true);
    expect(verify(record, packet).ok).toBe(true);
    const forged = record.dirty.map((e) => ({ ...e, exec: !e.exec }));
    expect(verify({ ...record, dirty: forged }, packet).ok).toBe(false);
    expect(verify({ ...record, dirty: [...record.dirty].reverse() }, packet).ok).toBe(true);
  });

  it("rejects text that is not JSON", () => {
    const { packet } = consistent();
    const r = verifyBaselineRecord("{", packet, PATH);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostics[0]!.code).toBe("result.baseline-tampered");
      expect(r.diagnostics[0]!.message).toMatch(/^not valid JSON: /);
    }
  });

  it("accepts a touched manifest stored in any order", () => {
    const { packet, record } = consistent();
    expect(verify({ ...record, touched: [...record.touched].reverse() }, packet).ok).toBe(true);
  });

  const message = (record: unknown, packet: AgentPacket) => {
    const r = verify(record, packet);
    return r.ok ? "" : r.diagnostics[0]!.message;
  };

  it.each<[string, (r: BaselineRecord) => unknown, string]>([
    ["not an object", () => "x", "not a devrites-baseline/v1 record: not an object"],
    ["an array", () => [], "not a devrites-baseline/v1 record: not an object"],
    [
      "a missing field",
      ({ head: _h, ...rest }) => rest,
      "not a devrites-baseline/v1 record: expected exactly the fields dirty, head, run_id, schema, touched",
    ],
    [
      "another schema",
      (r) => ({ ...r, schema: "x" }),
      "not a devrites-baseline/v1 record: schema is not devrites-baseline/v1",
    ],
    [
      "a numeric head",
      (r) => ({ ...r, head: 1 }),
      "not a devrites-baseline/v1 record: run_id and head must be strings",
    ],
    [
      "a numeric run_id",
      (r) => ({ ...r, run_id: 1 }),
      "not a devrites-baseline/v1 record: run_id and head must be strings",
    ],
    [
      "an entry with a renamed key",
      (r) => ({ ...r, dirty: [{ path: "a", type: "file", executable: false, sha256: null }] }),
      "not a devrites-baseline/v1 record: dirty[0]: expected exactly the fields exec, path, sha256, type",
    ],
    [
      "a dirty object",
      (r) => ({ ...r, dirty: {} }),
      "not a devrites-baseline/v1 record: dirty is not an array",
    ],
    [
      "a touched object",
      (r) => ({ ...r, touched: {} }),
      "not a devrites-baseline/v1 record: touched is not an array",
    ],
    [
      "an array entry",
      (r) => ({ ...r, touched: [[]] }),
      "not a devrites-baseline/v1 record: touched[0]: expected exactly the fields exec, path, sha256, type",
    ],
    [
      "an empty path",
      (r) => ({ ...r, dirty: [{ ...r.dirty[0], path: "" }] }),
      "not a devrites-baseline/v1 record: dirty[0]: path must be a non-empty string",
    ],
    [
      "a directory entry",
      (r) => ({ ...r, dirty: [{ ...r.dirty[0], type: "directory" }] }),
      "not a devrites-baseline/v1 record: dirty[0]: type must be file, symlink, missing or submodule",
    ],
    [
      "a string exec",
      (r) => ({ ...r, dirty: [{ ...r.dirty[0], exec: "no" }] }),
      "not a devrites-baseline/v1 record: dirty[0]: exec must be a boolean",
    ],
    [
      "uppercase hex",
      (r) => ({ ...r, dirty: [{ ...r.dirty[1], sha256: "A".repeat(40) }] }),
      "not a devrites-baseline/v1 record: dirty[0]: sha256 must be null or lowercase hex",
    ],
    [
      "a numeric digest",
      (r) => ({ ...r, dirty: [{ ...r.dirty[1], sha256: 1 }] }),
      "not a devrites-baseline/v1 record: dirty[0]: sha256 must be null or lowercase hex",
    ],
  ])("names the defect: %s", (_name, mutate, expected) => {
    const { packet, record } = consistent();
    expect(message(mutate(record), packet)).toBe(expected);
  });

  it("names each disagreement with the packet", () => {
    const { packet, record } = consistent();
    expect(message({ ...record, run_id: "run-20200101T000000Z-00000000" }, packet)).toBe(
      `run_id run-20200101T000000Z-00000000 is not ${packet.run_id}`,
    );
    const touched = record.touched.slice(1);
    expect(message({ ...record, touched }, packet)).toContain(
      "the touched manifest does not cover exactly the packet's allowlisted and input paths; touched manifest hashes to",
    );
    const changed = record.touched.map((e) => ({ ...e, exec: e.type === "file" ? !e.exec : e.exec }));
    expect(message({ ...record, touched: changed }, packet)).toMatch(
      /^touched manifest hashes to [0-9a-f]{64}, the packet says [0-9a-f]{64}; the identity recomputes to/,
    );
  });

  it("names every disagreement in one message", () => {
    const { packet, record } = consistent();
    const r = verify({ ...record, head: "c".repeat(40), dirty: [] }, packet);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostics[0]!.message).toContain("head");
      expect(r.diagnostics[0]!.message).toContain("dirty manifest");
      expect(r.diagnostics[0]!.message).toContain("identity");
    }
  });
});

describe("touchedPaths", () => {
  it("is the allowlist and the inputs, each once, sorted by bytes", () => {
    expect(touchedPaths(["b", "a", "Z"], ["a", "é", "c"])).toEqual(["Z", "a", "b", "c", "é"]);
  });
});
