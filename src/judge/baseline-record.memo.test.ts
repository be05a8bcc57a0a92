/** The dirty-manifest memo: a remembered manifest saves work and never changes a verdict. */

import { beforeEach, describe, expect, it, vi } from "vitest";
import { baselineId, type ManifestEntry, manifestDigest } from "../baseline/index.js";
import { samplePacket, sampleSha } from "../envelope/fixtures.js";
import { BASELINE_RECORD_SCHEMA, packetTouchedPaths, verifyBaselineRecord } from "./baseline-record.js";

vi.mock("../baseline/index.js", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../baseline/index.js")>();
  return { ...mod, manifestDigest: vi.fn(mod.manifestDigest) };
});

const digest = vi.mocked(manifestDigest);

/** A record with one dirty entry (distinct per `seed`) and the packet that names it. */
function fixture(seed: number, indent?: number) {
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
  const record = {
    schema: BASELINE_RECORD_SCHEMA,
    run_id: packet.run_id,
    head: packet.baseline.head,
    dirty,
    touched,
  };
  const text = JSON.stringify(record, null, indent);
  return { packet, text, record };
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

describe("a record that reuses a remembered dirty manifest", () => {
  /** Variants of a good record's text that keep its dirty manifest's exact text. */
  const variants = (text: string, packet: ReturnType<typeof fixture>["packet"]): [string, string][] => [
    ["the record itself", text],
    ["another run id", text.replace(packet.run_id, "20200101T000000Z-0badc0de")],
    ["another head", text.replace(`"head":"${packet.baseline.head}"`, `"head":"${"f".repeat(40)}"`)],
    ["an extra field", text.replace('{"schema"', '{"extra":1,"schema"')],
    ["another schema", text.replace(BASELINE_RECORD_SCHEMA, "devrites-baseline/v2")],
    ["a touched manifest changed", text.replace('"type":"missing"', '"type":"file"')],
    [
      "the dirty manifest repeated under touched",
      text.replace(
        /"touched":\[.*\]\}$/,
        () => `"touched":${text.slice(text.indexOf('"dirty":') + 8, text.indexOf(',"touched"'))}}`,
      ),
    ],
    ["an earlier dirty field (JSON keeps the last)", text.replace('{"schema"', '{"dirty":[],"schema"')],
    ["a later dirty field", text.replace(',"touched"', ',"dirty":[],"touched"')],
    ["a later escaped dirty field", text.replace(',"touched"', ',"d\\u0069rty":[],"touched"')],
    ["an earlier escaped dirty field", text.replace('{"schema"', '{"dir\\u0074y":[],"schema"')],
    ["broken JSON after the manifest", text.replace(/\}$/, ",}")],
    ["broken JSON before it", text.replace('{"schema"', '{"schema":,"x"')],
    ["the record wrapped in an array", `[${text}]`],
  ];

  it("gets exactly the verdict a fresh check gets, for every variant", async () => {
    const { packet, text } = fixture(3000);
    expect(verifyBaselineRecord(text, packet, "b").ok).toBe(true); // remembered now
    for (const [name, variant] of variants(text, packet)) {
      vi.resetModules();
      const fresh = (await import("./baseline-record.js")).verifyBaselineRecord;
      const cold = fresh(variant, packet, "b");
      const warm = verifyBaselineRecord(variant, packet, "b");
      expect({ name, verdict: warm }).toEqual({ name, verdict: cold });
    }
    const accepted = variants(text, packet).flatMap(([name, v]) =>
      verifyBaselineRecord(v, packet, "b").ok ? [name] : [],
    );
    // A repeated key (escaped or not) is refused by the strict reader, cold and warm alike.
    expect(accepted).toEqual(["the record itself"]);
    const codesOf = (v: string) => {
      const r = verifyBaselineRecord(v, packet, "b");
      return r.ok ? [] : r.diagnostics.map((d) => d.code);
    };
    for (const [name, v] of variants(text, packet).filter(([n]) => / dirty field/.test(n)))
      expect({ name, codes: codesOf(v) }).toEqual({ name, codes: ["envelope.duplicate-key"] });
  });

  it("hashes the manifest once for records that differ elsewhere, pretty-printed as packet new writes them", () => {
    const { packet, text } = fixture(3001, 2);
    digest.mockClear();
    expect(verifyBaselineRecord(text, packet, "b").ok).toBe(true);
    const other = text.replace(packet.run_id, "20200101T000000Z-0badc0de");
    const r = verifyBaselineRecord(other, packet, "b");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]!.message).toContain("run_id 20200101T000000Z-0badc0de is not");
    expect(verifyBaselineRecord(text, packet, "b").ok).toBe(true);
    expect(dirtyCalls(3001)).toBe(1);
  });

  it("shares one frozen parse between the records that reuse it", () => {
    const { packet, text } = fixture(3002);
    const a = verifyBaselineRecord(text, packet, "b");
    const b = verifyBaselineRecord(text, packet, "b");
    if (!a.ok || !b.ok) throw new Error("expected both accepted");
    expect(b.record.dirty).toBe(a.record.dirty);
    expect(Object.isFrozen(a.record.dirty)).toBe(true);
    expect(Object.isFrozen(a.record.dirty[0])).toBe(true);
    expect(Object.isFrozen(a.record.touched)).toBe(false);
  });

  it("remembers nothing from, and refuses, a record whose dirty field is repeated", () => {
    const { packet, record } = fixture(3003);
    const text = JSON.stringify(record).replace('{"schema"', '{"dirty":[],"schema"');
    digest.mockClear();
    for (let i = 0; i < 2; i++) expect(verifyBaselineRecord(text, packet, "b").ok).toBe(false);
    expect(dirtyCalls(3003)).toBe(0);
    expect(verifyBaselineRecord(JSON.stringify(record), packet, "b").ok).toBe(true);
    expect(dirtyCalls(3003)).toBe(1);
  });

  it("remembers nothing from a malformed manifest", () => {
    const { packet, record } = fixture(3004);
    const text = JSON.stringify({ ...record, dirty: [{ ...record.dirty[0], exec: "no" }] });
    digest.mockClear();
    for (let i = 0; i < 2; i++) expect(verifyBaselineRecord(text, packet, "b").ok).toBe(false);
    expect(digest.mock.calls.length).toBe(0);
  });
});
