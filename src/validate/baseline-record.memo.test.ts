/** The dirty-manifest memo: a remembered digest saves work and never changes a verdict. */

import { beforeEach, describe, expect, it, vi } from "vitest";
import { baselineId, type ManifestEntry, manifestDigest } from "../baseline/index.js";
import { samplePacket, sampleSha } from "../envelope/fixtures.js";
import { BASELINE_RECORD_SCHEMA, packetTouchedPaths, verifyBaselineRecord } from "./baseline-record.js";

vi.mock("../baseline/index.js", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../baseline/index.js")>();
  return { ...mod, manifestDigest: vi.fn(mod.manifestDigest) };
});

const digest = vi.mocked(manifestDigest);

/** A record with `n` dirty entries (distinct per `seed`) and the packet that names it. */
function fixture(seed: number) {
  const packet = samplePacket("devrites-evidence-scout");
  const dirty: ManifestEntry[] = [
    { path: `src/${seed}.ts`, type: "file", exec: false, sha256: sampleSha(seed) },
  ];
  const touched: ManifestEntry[] = packetTouchedPaths(packet).map((path) => ({
    path,
    type: "missing",
    exec: false,
    sha256: null,
  }));
  const d = digest(dirty);
  const t = digest(touched);
  packet.baseline = {
    head: packet.baseline.head,
    dirty_sha256: d,
    touched_sha256: t,
    id: baselineId(packet.baseline.head, d, t),
  };
  const text = JSON.stringify({
    schema: BASELINE_RECORD_SCHEMA,
    run_id: packet.run_id,
    head: packet.baseline.head,
    dirty,
    touched,
  });
  return { packet, text };
}

const dirtyCalls = (seed: number) =>
  digest.mock.calls.filter(([entries]) => entries.length === 1 && entries[0]!.path === `src/${seed}.ts`)
    .length;

beforeEach(() => {
  digest.mockClear();
});

describe("the dirty-manifest memo", () => {
  it("hashes an identical dirty manifest once; the touched manifest every time", () => {
    const { packet, text } = fixture(1001);
    digest.mockClear();
    for (let i = 0; i < 3; i++) expect(verifyBaselineRecord(text, packet, "b").ok).toBe(true);
    expect(dirtyCalls(1001)).toBe(1);
    expect(digest.mock.calls.length).toBe(1 + 3);
  });

  it("forgets the oldest manifest after eight others, and never confuses them", () => {
    const first = fixture(2000);
    digest.mockClear();
    expect(verifyBaselineRecord(first.text, first.packet, "b").ok).toBe(true);
    for (let s = 2001; s <= 2007; s++) {
      const f = fixture(s);
      expect(verifyBaselineRecord(f.text, f.packet, "b").ok).toBe(true);
    }
    expect(verifyBaselineRecord(first.text, first.packet, "b").ok).toBe(true);
    expect(dirtyCalls(2000)).toBe(1); // eight manifests fit
    const ninth = fixture(2008);
    expect(verifyBaselineRecord(ninth.text, ninth.packet, "b").ok).toBe(true);
    expect(verifyBaselineRecord(first.text, first.packet, "b").ok).toBe(true);
    expect(dirtyCalls(2000)).toBe(2); // the oldest was evicted
    expect(verifyBaselineRecord(first.text, fixture(2001).packet, "b").ok).toBe(false);
  });
});
